import { unwrapText, withOptionsApart } from './plain-text.js';
import type { HeadingMark } from './formats.js';

/**
 * A <pre> block is prose filled to a width when most of its lines are this long, its words are
 * this share of what is between its spaces, and its code marks (`=`, brackets, quotes…) this share
 * of its characters at most, with a sentence ending inside: measured on the <pre> blocks of
 * haproxy's manuals (prose: 90 % of them hold 81 % words or more, half of them 1.2 % code marks or
 * fewer) against the code of bench:real's and two new-user trials' HTML (Python's examples, ffmpeg's
 * commands, SQL: 57 % words at most, or more marks).
 */
const PROSE = { width: 60, words: 0.75, marks: 0.03 };
const PROSE_WORD = /^[A-Za-z][a-z]*[,.;:]?$/;
const CODE_MARK = /[=(){}[\]<>;"'`#$|\\]/g;

/**
 * The lines with those of each <pre> block of prose filled to a width joined (haproxy's manual is
 * its text file in <pre>: "…This value should not exceed the" / "global maxconn."), as a text
 * file's are (`unwrapText`), and so are those of a program's options as `--help` prints them
 * (csvkit's pages), read by their columns, and a man page as `man` prints it (Postfix's HTML
 * manuals), read as a text file is; a block of code keeps its lines. One pass: a page may hold many.
 */
export function joinFilledProse(
  lines: string[],
  headings: HeadingMark[],
  depths: number[],
  preOf: number[],
  /** The <pre> lines as written, their spaces kept. */
  preLines: ReadonlyMap<number, string> = new Map(),
): { lines: string[]; headings: HeadingMark[]; depths: number[] } {
  const out = { lines: [] as string[], headings: [] as HeadingMark[], depths: [] as number[] };
  for (let start = 0; start < lines.length;) {
    const block = preOf[start]!;
    let end = start + 1;
    if (block) while (end < lines.length && preOf[end] === block) end++;
    const run = lines.slice(start, end);
    const written = block ? run.map((line, i) => preLines.get(start + i) ?? line) : run;
    if (block && (isManPage(written) || withOptionsApart(written) !== written))
      // Read as a text file is, its headings by their shape.
      for (const line of unwrapText(written.join('\n')).split('\n')) {
        const tidy = line.replace(/\s+/g, ' ').trim();
        if (!tidy) continue;
        out.lines.push(tidy);
        out.headings.push(undefined);
        out.depths.push(depths[start]!);
      }
    else if (block && isFilledProse(run))
      for (const line of unwrapText(run.join('\n')).split('\n')) {
        out.lines.push(line);
        out.headings.push(false);
        out.depths.push(depths[start]!);
      }
    else
      for (let i = start; i < end; i++) {
        out.lines.push(lines[i]!);
        out.headings.push(headings[i]);
        out.depths.push(depths[i]!);
      }
    start = end;
  }
  return out;
}

/** A man page's first line as `man` prints it: "POSTQUEUE(1)      …      POSTQUEUE(1)". */
const MAN_HEADER = /^\s*([\w.:+-]+)\((\w+)\)\s{2,}.*\b\1\(\2\)\s*$/;

/** A man page as `man` prints it, whole in a <pre> (Postfix's HTML manuals). */
function isManPage(run: string[]): boolean {
  const first = run.find((line) => line.trim());
  return first !== undefined && MAN_HEADER.test(first);
}

function isFilledProse(run: string[]): boolean {
  if (run.length < 3 || run.filter((line) => line.length >= PROSE.width).length * 2 < run.length)
    return false;
  const text = run.join(' ');
  const tokens = text.split(' ');
  return (
    tokens.filter((t) => PROSE_WORD.test(t)).length >= PROSE.words * tokens.length &&
    (text.match(CODE_MARK)?.length ?? 0) <= PROSE.marks * text.length &&
    /\p{Ll}[.!?] \p{Lu}/u.test(text)
  );
}
