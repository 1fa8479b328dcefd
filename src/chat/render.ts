import type { Marked, Token } from 'marked';
import { importPackage } from '../import-package.js';
import { sanitizeText } from '../util/sanitize.js';
import { wrapWords } from '../util/wrap-words.js';

export interface Renderer {
  render(markdown: string): string;
  /** Resolves once render() gives its final output (see deferredRenderer). */
  ready?(): Promise<void>;
  /** The same rendering block by block, for a reply drawn as it arrives; none until loaded. */
  markdown?(): BlockMarkdown | undefined;
}

/** One top-level block of Markdown (a token of marked's lexer): its kind and its source. */
export interface Block {
  type: string;
  raw: string;
  /** A link reference definition's label (normalised), URL and title. */
  tag?: string;
  href?: string;
  title?: string | null;
}

/** Link reference definitions by label (normalised: lower case, white space as one space). */
export type LinkDefinitions = Record<string, { href: string; title?: string | null }>;

/**
 * Markdown rendered a block at a time (chat/markdown-stream.ts): drawing a reply's blocks one
 * after another gives what render() gives for the whole reply, before its final trimming.
 */
export interface BlockMarkdown {
  /**
   * The top-level blocks of `text`; their sources joined are `text`. References resolve to
   * `links` (definitions met earlier in the reply) as well as to the definitions in `text`.
   */
  blocks(text: string, links?: LinkDefinitions): Block[];
  /** `blocks` drawn as render() draws them within a reply, at the width now (trailing lines kept). */
  draw(blocks: Block[]): string;
  /** How many terminal rows `line` (as drawn) takes at `columns`. */
  rows(line: string, columns: number): number;
}

/** The text as received, less anything that could drive the terminal. */
export function rawRenderer(): Renderer {
  return { render: (text) => `${sanitizeText(text).trimEnd()}\n` };
}

const SGR = /\u001b\[[0-9;]*m/g;

/**
 * Markdown as plain text: its marks left out (headings', emphasis', inline code's), list items
 * kept, and a block of code as its lines, exactly (a `# set tabsize 8` in it is no heading).
 */
export function plainMarkdown(text: string): string {
  let fenced = false;
  const lines: string[] = [];
  for (const line of sanitizeText(text).trimEnd().split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      continue;
    }
    lines.push(
      fenced
        ? line
        : line
            .replace(/^\s{0,3}#{1,6}\s+/, '')
            .replace(/^(\s*)[-*+]\s+/, '$1  * ')
            .replace(/(\*\*|__)(.+?)\1/g, '$2')
            .replace(/(^|[\s(])[*_]([^*_\n]+)[*_](?=[\s.,;:!?)]|$)/g, '$1$2')
            .replace(/`([^`\n]+)`/g, '$1'),
    );
  }
  return lines.join('\n');
}

/**
 * Markdown shown plainly, without loading a Markdown renderer (plainMarkdown), wrapped at word
 * boundaries. For a resumed thread's messages, so the prompt does not wait ~200 ms for
 * marked-terminal.
 */
export function plainRenderer(width: () => number): Renderer {
  return {
    render(text) {
      const columns = Math.max(20, Math.min(width(), 120));
      const lines = plainMarkdown(text).split('\n');
      return `${lines.flatMap((line) => (line.length <= columns ? [line] : wrapWords(line, columns))).join('\n')}\n`;
    },
  };
}

/**
 * Markdown for the terminal, wrapped to the terminal's width at the time of each reply (the
 * window may be resized); without colour when `color` is off (NO_COLOR, the setting, a flag).
 */
export async function createRenderer(options: {
  width: () => number;
  raw: boolean;
  color: boolean;
}): Promise<Renderer> {
  if (options.raw) return rawRenderer();
  const [{ Marked, Lexer }, { markedTerminal }, { supportsLanguage }, { wrapText, rowsOf }] =
    await Promise.all([
      importPackage<typeof import('marked')>('marked'),
      importPackage<typeof import('marked-terminal')>('marked-terminal'),
      importPackage<typeof import('cli-highlight')>('cli-highlight'),
      import('../io/wrap-text.js'),
    ]);
  const bar = options.color ? '\u001b[2m│\u001b[22m ' : '│ ';
  const build = (width: number): Marked => {
    // marked-terminal's options and extension are typed loosely upstream
    type Extension = { renderer: Record<string, (this: unknown, token: unknown) => string> };
    const terminal = (more: object = {}) =>
      markedTerminal({
        width,
        reflowText: true,
        tab: 2,
        showSectionPrefix: false,
        ...more,
      } as never) as Extension;
    const extension = terminal();
    const marked = new Marked(extension as never);
    marked.use({
      renderer: {
        // marked-terminal sizes a table's columns by their content: wider than the terminal,
        // its lines would be cut apart by the wrapping. Then its columns are narrowed to fit,
        // their cells wrapped (cli-table3's wordWrap).
        table(token) {
          const natural = extension.renderer.table!.call(this, token);
          const widths = fittedColumns(natural, width);
          if (!widths) return natural;
          return terminal({ tableOptions: { colWidths: widths, wordWrap: true } }).renderer.table!.call(
            this,
            token,
          );
        },
        // highlight.js writes "Could not find the language" to the console for a language it
        // lacks, as a fence's is while it arrives (```p of ```python): such code is plain text.
        code(token) {
          if (token.lang && !supportsLanguage(token.lang)) token.lang = 'plaintext';
          return false;
        },
        // marked-terminal prints the text of a tight list item as is: **bold** stayed raw.
        text(token) {
          const inline = 'tokens' in token ? token.tokens : undefined;
          return inline ? this.parser.parseInline(inline) : false;
        },
        blockquote(token) {
          // At the width less the bar's, so that no barred line is wider than the terminal.
          const inner = at(width - 2)
            .parser(token.tokens as Token[])
            .trimEnd();
          return `${inner
            .split('\n')
            .map((line) => `${bar}${line.replace(/^ {2}/, '')}`)
            .join('\n')}\n\n`;
        },
      },
    });
    return marked;
  };
  const instances = new Map<number, Marked>();
  const at = (width: number): Marked => {
    let marked = instances.get(width);
    if (!marked) instances.set(width, (marked = build(width)));
    return marked;
  };
  const current = () => {
    const width = Math.max(20, Math.min(options.width(), 120));
    return { width, marked: at(width) };
  };
  // Wrapping and colour line by line, so that blocks drawn one by one join up as the whole does.
  const finish = (out: string, width: number) => {
    const wrapped = wrapText(out, width);
    return options.color ? wrapped : wrapped.replace(SGR, '');
  };
  const markdown: BlockMarkdown = {
    blocks(text, links = {}) {
      const lexer = new Lexer(current().marked.defaults);
      Object.assign(lexer.tokens.links, links);
      return lexer.lex(sanitizeText(text));
    },
    draw(blocks) {
      const { width, marked } = current();
      let out: string;
      try {
        out = marked.parser(blocks as Token[]);
      } catch {
        out = blocks.map((b) => b.raw).join('');
      }
      return finish(out, width);
    },
    rows: (line, columns) => rowsOf(line, Math.max(1, columns)),
  };
  const renderer: Renderer = {
    render: (text) => {
      const { width, marked } = current();
      const clean = sanitizeText(text);
      let out: string;
      try {
        out = marked.parse(clean, { async: false }) as string;
      } catch {
        out = clean;
      }
      return `${finish(out.trimEnd(), width)}\n`;
    },
    markdown: () => markdown,
  };
  // Rendered once while loading: the first heading, table and code block a reply brings would
  // otherwise each cost 15-25 ms (marked-terminal, cli-table3 and highlight.js used the first time).
  renderer.render(WARM_UP);
  return renderer;
}

/**
 * Column widths (padding included) that fit a table drawn as `drawn` into `width` columns: the
 * narrow columns keep their width, the wide ones share what is left, none narrower than its
 * longest word while that fits (cli-table3 cuts a longer word with …). Undefined when the table
 * fits already, or when even one character per column would not.
 */
export function fittedColumns(drawn: string, width: number): number[] | undefined {
  const lines = drawn.replace(SGR, '').split('\n');
  const top = lines.find((line) => line.startsWith('┌'));
  if (!top || top.length <= width) return undefined;
  const natural = top
    .slice(1, -1)
    .split('┬')
    .map((cell) => cell.length);
  const room = width - (natural.length + 1);
  if (room < natural.length * 3) return undefined;
  const words = natural.map(() => 1);
  for (const line of lines.filter((l) => l.startsWith('│')))
    line
      .slice(1, -1)
      .split('│')
      .forEach((cell, i) => {
        for (const word of cell.split(/\s+/)) words[i] = Math.max(words[i] ?? 1, word.length);
      });
  const least = natural.map((w, i) => Math.min(w, words[i]! + 2));
  return share(natural, least.reduce((a, b) => a + b, 0) <= room ? least : natural.map(() => 3), room);
}

/** `room` shared out: each gets at least `least`, at most `natural`, the narrow first. */
function share(natural: number[], least: number[], room: number): number[] {
  const widths = [...least];
  let left = room - least.reduce((a, b) => a + b, 0);
  const order = natural.map((w, i) => [w - least[i]!, i] as const).sort((a, b) => a[0] - b[0]);
  order.forEach(([want, i], k) => {
    const more = Math.min(want, Math.floor(left / (order.length - k)));
    widths[i]! += more;
    left -= more;
  });
  return widths;
}

const WARM_UP =
  '# a\n\n**b** `c` [d](https://e)\n\n- f\n\n| g | h |\n|---|---|\n| i | j |\n\n```js\nconst k = 1; // l\n```\n';

/**
 * A renderer that loads in the background: marked-terminal brings highlight.js and takes ~200 ms
 * to import, longer than a prompt should wait. ready() starts the load (once) and resolves when
 * it is done; until then, or if it fails, text is shown as received.
 */
export function deferredRenderer(
  load: () => Promise<Renderer>,
  fallback: Renderer = rawRenderer(),
): Renderer & { ready(): Promise<void> } {
  let current = fallback;
  let loading: Promise<void> | undefined;
  return {
    render: (text) => current.render(text),
    markdown: () => current.markdown?.(),
    ready: () =>
      (loading ??= load().then(
        (loaded) => {
          current = loaded;
        },
        () => {},
      )),
  };
}
