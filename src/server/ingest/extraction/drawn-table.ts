import { namesColumns, recordLine } from './record-line.js';

/** A line of a drawn table: its cells between pipes (`| idle_kicks | 64u | Number of… |`). */
const ROW = /^\s*\|.*\|\s*$/;
/** A rule across a drawn table (`|-----+-----|`, `+=====+=====+`), or its frame. */
const RULE = /^\s*[|+][-=+:| ]*[-=][-=+:| ]*[|+]\s*$/;

/**
 * The rows of tables drawn with pipes and rules (Emacs and Markdown pipe tables, reStructuredText's
 * grid tables, memcached's protocol.txt), as records named by the header row: `Name: idle_kicks;
 * Type: 64u; Meaning: Number of connections closed due to reaching their idle timeout.`. A
 * cell's text wrapped onto the lines under it is joined: in a table whose rows are parted by
 * rules, every line between two rules; else the lines whose first cell is empty. By line: the
 * record on its row's first line, null on the lines it takes in (continuations, rules, the header).
 */
export function drawnTableRecords(drawn: string[]): Map<number, string | null> {
  const records = new Map<number, string | null>();
  const lines = drawn.map(inAscii);
  for (let start = 0; start < lines.length; start++) {
    const unframed = unframedTable(lines, start);
    if (unframed) {
      read(unframed, start, records);
      start += unframed.length - 1;
      continue;
    }
    if (!isDrawn(lines[start]!)) continue;
    let end = start;
    while (end + 1 < lines.length && isDrawn(lines[end + 1]!)) end++;
    const block = lines.slice(start, end + 1);
    if (block.filter((line) => !RULE.test(line)).length >= 2) read(block, start, records);
    start = end;
  }
  return records;
}

/** The lines with each drawn table read as its records (see drawnTableRecords). */
export function withDrawnTables(lines: string[]): string[] {
  const records = drawnTableRecords(lines);
  return lines.flatMap((line, i) => {
    const record = records.get(i);
    return record === null ? [] : [record ?? line];
  });
}

const isDrawn = (line: string) => ROW.test(line) || RULE.test(line);

/**
 * A table drawn with the box-drawing characters (tbl's, as `man` renders it: `│RAID1C3  │ 3 │`,
 * `├────┼────┤`, a new user's trial 40) drawn as the ASCII tables are: its lines, its corners and
 * its crossings as pipes, dashes and pluses.
 */
function inAscii(line: string): string {
  return /[\u2500-\u257f]/.test(line) ? line.replace(BOX, (c) => BOX_ASCII[c] ?? '+') : line;
}
const BOX = /[\u2500-\u257f]/g;
const BOX_ASCII: Record<string, string> = Object.fromEntries([
  ...[...'─━┄┅┈┉╌╍╴╶╸╺╼╾'].map((c) => [c, '-']),
  ...[...'═'].map((c) => [c, '=']),
  ...[...'│┃┆┇┊┋╎╏║╵╷╹╻╽╿'].map((c) => [c, '|']),
]);

/** A rule under a header of pipes between its cells only (doveadm-pw(1)'s `----…`). */
const HEADER_RULE = /^\s*[-=][-=+| ]*[-=]\s*$/;
const pipes = (line: string) => line.split('|').length - 1;

/** Whether line `at` is the rule under an unframed table's header (see unframedTable): no underline. */
export function isTableRule(lines: string[], at: number): boolean {
  return at > 0 && unframedTable(lines, at - 1) !== undefined;
}

/**
 * A table drawn with pipes between its cells only, its header ruled off, as doveadm-pw(1) draws
 * its rounds (`Scheme | Minimum | Maximum | Default` / `----` / `SHA512-CRYPT | 1000 | … | 5000`),
 * from `start`: its lines framed as a drawn table's, read as one. Its rows have as many pipes as
 * its header, which names columns (a command's pipes do not: `ps aux | grep sshd`).
 */
function unframedTable(lines: string[], start: number): string[] | undefined {
  const header = lines[start]!;
  const count = pipes(header);
  if (count === 0 || ROW.test(header) || !HEADER_RULE.test(lines[start + 1] ?? '')) return undefined;
  const frame = (line: string) => `|${line.trim()}|`;
  if (!namesColumns(cellsOf(frame(header)))) return undefined;
  let end = start + 2;
  while (end < lines.length && pipes(lines[end]!) === count && !ROW.test(lines[end]!)) end++;
  if (end === start + 2) return undefined;
  return lines.slice(start, end).map(frame);
}

function read(block: string[], first: number, records: Map<number, string | null>): void {
  const rules = block.flatMap((line, i) => (RULE.test(line) ? [i] : []));
  const data = block.flatMap((line, i) => (RULE.test(line) ? [] : [i]));
  // The header: the first row, when a rule is under it; its cells may wrap over the lines above
  // that rule (mkfs.btrfs(8)'s `│ Space  uti‐ │` / `│ lization │`).
  const headerRule = rules.find((r) => r > data[0]!);
  const headerLines = headerRule === undefined ? [] : data.filter((i) => i < headerRule);
  const headerRows = headerLines.map((i) => cellsOf(block[i]!));
  const headerCells = headerRows.length
    ? headerRows.reduce((joined, cells, i) => joinCells(joined, cells, headerRows[i - 1]!))
    : undefined;
  const headed = data.length > headerLines.length && !!headerCells && namesColumns(headerCells);
  const header = headed ? headerCells : undefined;
  // Rows parted by rules: a rule between two rows of the body.
  const body = headed ? data.slice(headerLines.length) : data;
  const ruled = rules.some((r) => r > body[0]! && r < body.at(-1)!);
  let row: { line: number; cells: string[]; last: string[] } | undefined;
  const flush = () => {
    if (!row) return;
    const named = row.cells.map((cell, k) => (header?.[k] ? `${header[k]}: ${cell}` : cell));
    records.set(first + row.line, recordLine(named.filter((_, k) => row!.cells[k])));
    row = undefined;
  };
  block.forEach((line, i) => {
    records.set(first + i, null);
    if (RULE.test(line)) {
      if (ruled) flush();
      return;
    }
    if (headed && i <= headerLines.at(-1)!) return;
    const cells = cellsOf(line);
    const continues = row && (ruled || !cells[0]);
    if (!continues) {
      flush();
      row = { line: i, cells, last: cells };
      return;
    }
    row!.cells = joinCells(row!.cells, cells, row!.last);
    row!.last = cells;
  });
  flush();
}

/**
 * Each cell's text with the next line's of its column after it: a word hyphenated at the cell's
 * edge on the line before (`last`: `uti‐` / `lization`) whole again. Concatenated (a rope), not
 * joined, and the hyphen looked for in that line, not the rope: a row of many lines costs each
 * line once.
 */
function joinCells(cells: string[], next: string[], last: string[]): string[] {
  return cells.map((cell, k) => {
    const more = next[k];
    if (!cell || !more) return cell || (more ?? '');
    return /\p{L}\u2010$/u.test(last[k] ?? '') && /^\p{Ll}/u.test(more)
      ? `${cell.slice(0, -1)}${more}`
      : `${cell} ${more}`;
  });
}

function cellsOf(line: string): string[] {
  return line
    .trim()
    .slice(1, -1)
    .split('|')
    .map((cell) => cell.replace(/\s+/g, ' ').trim());
}
