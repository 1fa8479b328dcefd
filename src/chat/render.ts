import { importPackage } from '../import-package.js';
import { sanitizeText } from '../util/sanitize.js';

export interface Renderer {
  render(markdown: string): string;
  /** Resolves once render() gives its final output (see deferredRenderer). */
  ready?(): Promise<void>;
}

/** The text as received, less anything that could drive the terminal. */
export function rawRenderer(): Renderer {
  return { render: (text) => `${sanitizeText(text).trimEnd()}\n` };
}

/** Markdown for the terminal, wrapped to `width`; raw mode prints the text as received. */
export async function createRenderer(options: {
  width: number;
  raw: boolean;
  color: boolean;
}): Promise<Renderer> {
  if (options.raw) return rawRenderer();
  const [{ Marked }, { markedTerminal }, { wrapText }] = await Promise.all([
    importPackage<typeof import('marked')>('marked'),
    importPackage<typeof import('marked-terminal')>('marked-terminal'),
    import('../io/wrap-text.js'),
  ]);
  const width = Math.max(20, Math.min(options.width, 120));
  // marked-terminal's options are typed loosely upstream
  const extension = markedTerminal({
    width,
    reflowText: true,
    tab: 2,
    showSectionPrefix: false,
  } as never) as never;
  const marked = new Marked(extension);
  return {
    render: (text) => {
      const clean = sanitizeText(text);
      let out: string;
      try {
        out = marked.parse(clean, { async: false }) as string;
      } catch {
        out = clean;
      }
      return `${wrapText(out.trimEnd(), width)}\n`;
    },
  };
}

/**
 * A renderer that loads in the background: marked-terminal brings highlight.js and takes ~200 ms
 * to import, longer than a prompt should wait. ready() starts the load (once) and resolves when
 * it is done; until then, or if it fails, text is shown as received.
 */
export function deferredRenderer(load: () => Promise<Renderer>): Renderer & { ready(): Promise<void> } {
  let current = rawRenderer();
  let loading: Promise<void> | undefined;
  return {
    render: (text) => current.render(text),
    ready: () =>
      (loading ??= load().then(
        (loaded) => {
          current = loaded;
        },
        () => {},
      )),
  };
}
