import { goesOnHyphenated } from './hyphenated.js';
/** A piece of text on a PDF page, as pdf.js gives it (`getTextContent().items`). */
export interface PdfTextItem {
  str: string;
  /** [a, b, c, d, x, y]: the text's matrix; its origin and scale. */
  transform: number[];
  width: number;
  hasEOL?: boolean;
}

interface Line {
  text: string;
  x0: number;
  x1: number;
  y: number;
  size: number;
}

/** A list's item starts a line of its own, whatever the line before it. */
const ITEM = /^(?:[•·▪‣◦*–-]|\d+[.)])\s/;

/** A line that starts with an option (`--delay=N …`, `-v, --verbose …`). */
const OPTION_START = /^--?[A-Za-z]/;

/**
 * A list of options as `--help` prints them (postgrey(8): `--dbdir=PATH put db files in PATH…` /
 * `--delay=N greylist for N seconds…`), each on a line of its own however far it reaches: an option
 * under another option's line, or left of a wrapped line of a description (indented under its
 * text). Not a sentence wrapped before an option it names, under the sentence's own first line.
 */
const nextOption = (before: Line, line: Line): boolean =>
  OPTION_START.test(line.text) &&
  (line.x0 < before.x0 - line.size / 2 ||
    (Math.abs(line.x0 - before.x0) <= line.size / 2 && OPTION_START.test(before.text)));

/** Lines closer than this many font sizes (baseline to baseline) can be one paragraph's. */
const PARAGRAPH_LEADING = 1.45;
/** A line reaching this far across the text's width was wrapped because it was full. */
const FULL_LINE = 0.85;

/**
 * A PDF page's text with its paragraphs whole: the text items are gathered into lines by their
 * baseline, and a line that runs to the right margin continues on the next when that one follows
 * at a line's distance (a paragraph wrapped by the layout), so that a sentence is not cut at
 * every line end. A short line (a heading, an option's name, a paragraph's end) ends its line.
 */
export function pdfPageText(items: PdfTextItem[]): string {
  const lines = linesOf(items);
  if (!lines.length) return '';
  const left = Math.min(...lines.map((l) => l.x0));
  const right = Math.max(...lines.map((l) => l.x1));
  const full = left + FULL_LINE * (right - left);
  let out = lines[0]!.text;
  for (let i = 1; i < lines.length; i++) {
    const before = lines[i - 1]!;
    const line = lines[i]!;
    const drop = before.y - line.y;
    const wrapped =
      before.x1 >= full &&
      drop > 0 &&
      drop <= PARAGRAPH_LEADING * before.size &&
      !/[:;]$/.test(before.text) &&
      !ITEM.test(line.text) &&
      !nextOption(before, line);
    if (!wrapped) out += `\n${line.text}`;
    // A word hyphenated at the line's end is whole again.
    else if (goesOnHyphenated(before.text, line.text)) out = out.slice(0, -1) + line.text;
    else out += ` ${line.text}`;
  }
  return out;
}

/**
 * Glyphs a PDF names for a character it does not hold: groff -Tpdf draws `~` and `^` with the
 * font's accents `tilde` and `circumflex` (pdf.js gives U+02DC, U+02C6: `˜/.ssh/id_rsa`), `*`
 * as `asteriskmath` (U+2217: `ssh_config.d/∗.conf`), a URL's `<…>` as `angleleft`/`angleright`
 * (U+2329, U+232A), and TeX and groff set `-` as a minus (U+2212: `−1`, `−16`). A search or a
 * command typed with the ASCII character must find them.
 */
const GLYPHS: Record<string, string> = {
  '\u02dc': '~',
  '\u02c6': '^',
  '\u2217': '*',
  '\u2329': '<',
  '\u232a': '>',
  '\u2212': '-',
};
const GLYPH = new RegExp(`[${Object.keys(GLYPHS).join('')}]`, 'gu');

/** The items gathered into lines, in the order the page draws them. */
function linesOf(items: PdfTextItem[]): Line[] {
  const lines: Line[] = [];
  let current: Line | undefined;
  for (const item of items) {
    const [a = 0, b = 0, , , x = 0, y = 0] = item.transform;
    const size = Math.hypot(a, b) || 1;
    if (!item.str) {
      if (item.hasEOL) current = undefined;
      continue;
    }
    if (current && Math.abs(current.y - y) <= size * 0.5 && x >= current.x1 - size) {
      const gap = x - current.x1;
      const joined = /\s$/.test(current.text) || /^\s/.test(item.str) || gap < size * 0.15;
      current.text += joined ? item.str : ` ${item.str}`;
      current.x1 = Math.max(current.x1, x + item.width);
      current.size = Math.max(current.size, size);
    } else {
      if (current) current.text = current.text.trim();
      current = { text: item.str, x0: x, x1: x + item.width, y, size };
      lines.push(current);
    }
    if (item.hasEOL) current = undefined;
  }
  for (const line of lines)
    line.text = line.text
      .replace(/\s+/g, ' ')
      .replace(GLYPH, (g) => GLYPHS[g]!)
      // groff sets a man page's ``quote'' as two single quotes each side.
      .replace(/\u2018\u2018/g, '\u201c')
      .replace(/\u2019\u2019/g, '\u201d')
      .trim();
  return lines.filter((l) => l.text);
}

/**
 * A line at the top or bottom of this many pages, its numbers aside, is a running header or
 * footer: a book's (bashref's "Chapter 3: Basic Shell Features 45") names its chapter, so it
 * recurs on that chapter's pages only.
 */
const RUNNING_PAGES = 3;

/**
 * The pages without their running headers and footers ("LS(1) User Commands LS(1)", "Debian
 * Reference 230 / 233"): a first or last line that recurs on several pages, its numbers aside, is
 * the layout's, not the text's, and would otherwise start every page's first sentence. Of two
 * pages (a short man page), only when their first lines are the same.
 */
export function withoutRunningLines(pages: string[]): string[] {
  const shape = (line: string) => line.replace(/\d+/g, '#').trim();
  const count = (lines: (string | undefined)[]) => {
    const counts = new Map<string, number>();
    for (const line of lines) if (line) counts.set(shape(line), (counts.get(shape(line)) ?? 0) + 1);
    return counts;
  };
  const lines = pages.map((page) => page.split('\n'));
  const tops = count(lines.map((l) => l[0]));
  const bottoms = count(lines.map((l) => (l.length > 1 ? l.at(-1) : undefined)));
  const headed = lines.length === 2 && lines[0]![0] === lines[1]![0] && lines[0]!.length > 1;
  const least = headed ? 2 : RUNNING_PAGES;
  // Not a line that introduces what follows ("Syntax:", "Example:" at a page's end).
  const running = (counts: Map<string, number>, line: string | undefined) =>
    line !== undefined && !line.endsWith(':') && (counts.get(shape(line)) ?? 0) >= least;
  return lines.map((l) => {
    let kept = l;
    if (running(tops, kept[0])) kept = kept.slice(1);
    if (kept.length > 1 && running(bottoms, kept.at(-1))) kept = kept.slice(0, -1);
    return kept.join('\n');
  });
}

/** A page's last line that a page break cuts: prose of a few words, ending in a word or a comma. */
const CUT_LINE = /^(?:\S+\s+){5,}\S*[\p{L}\p{N},]$/u;
/**
 * What the next page's first line says to end that sentence: lower case, or a figure (mke2fs(8)'s
 * "The default percentage is" / "5%."; not a list's number alone, `2.`), up to its end mark.
 */
const NEXT_PAGE_ENDS = /^(?:\p{Ll}[^.!?]*|\p{N}[^.!?\n]*[^\p{N}\s.!?])[.!?](?=\s|$)[ \t]*/u;

/**
 * The most of a paragraph's rest that goes with the sentence a page break cuts: a few sentences
 * (xinetd.conf(5)'s "…after it has been" / "disabled. The default for this setting is 50 incoming
 * connections and the interval is 10 seconds."); a longer rest is cited on its own page.
 */
const PARAGRAPH_REST = 400;

/**
 * The pages with a sentence a page break cuts whole on the page it starts on (gpg-agent(1): "…which
 * is only run every few" / "seconds."): an answer from that page had ended mid-sentence, and the
 * next page began with the tail of it. The rest of that paragraph goes with it when short: on a
 * page of its own it is without what it is about (an option's default, without the option).
 * Pages without their running lines (see withoutRunningLines).
 */
export function withSentencesWhole(pages: string[]): string[] {
  const joined = [...pages];
  for (let i = 0; i + 1 < joined.length; i++) {
    const page = joined[i]!;
    const next = joined[i + 1]!;
    const lastLine = page.slice(page.lastIndexOf('\n') + 1);
    const end = NEXT_PAGE_ENDS.exec(next);
    if (!end || !CUT_LINE.test(lastLine) || end[0].includes('\n')) continue;
    const lineEnd = next.indexOf('\n') === -1 ? next.length : next.indexOf('\n');
    const moved = lineEnd <= PARAGRAPH_REST ? lineEnd : end[0].length;
    joined[i] = `${page} ${next.slice(0, moved).trimEnd()}`;
    joined[i + 1] = next.slice(moved).replace(/^\n/, '');
  }
  return joined;
}
