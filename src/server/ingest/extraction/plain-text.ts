import { drawnTableRecords, isTableRule, withDrawnTables } from './drawn-table.js';
import { LABEL_ROW } from '../../../util/term-item.js';
import { namesColumns, recordLine } from './record-line.js';
import { TERM_COLON_ITEM, TERM_ITEM } from '../../../util/term-item.js';
import { goesOnHyphenated } from './hyphenated.js';

/**
 * An info manual's node line (`File: libtool.info,  Node: Release numbers,  Prev: …,  Up: …`):
 * the links between its nodes, which its text as `info -o` saves it keeps above each heading.
 */
const INFO_NODE = /^\s*File: [^,\s]+\.info(?:-\d+)?(?:\.gz)?,\s+Node: [^,]+(?:,\s+(?:Next|Prev|Up): .+)?$/;

/** A man page's running head as `man` prints it: `NFSMOUNT.CONF(5)   File Formats Manual   NFSMOUNT.CONF(5)`. */
const MAN_HEAD = /^(\S+\(\d\w*\))[ \t]{2,}.*[ \t]{2,}(\S+\(\d\w*\))[ \t]*$/;

/**
 * A man page saved as text (`man -l page | col -b`) without its running head and foot: the foot,
 * its last line, ends with the page's name (`16 December 2020   NFSMOUNT.CONF(5)`) and was read
 * as a sentence of the last section (a new user's trial 42, K09).
 */
function withoutManHeadAndFoot(lines: string[]): string[] {
  const first = lines.findIndex((l) => l.trim() !== '');
  const head = first < 0 ? null : MAN_HEAD.exec(lines[first]!);
  if (!head || head[1] !== head[2]) return lines;
  const name = head[1]!;
  const runningLine = (line: string) => {
    const text = line.trimEnd();
    return text.endsWith(name) && /[ \t]{2,}$/.test(text.slice(0, -name.length));
  };
  return lines.filter((line, i) => i !== first && !runningLine(line));
}

/** A line this long, against the text's usual width, was filled to it and wrapped. */
const FULL_LINE = 0.75;
/** Texts narrower than this were not filled to a width: their lines are kept as written. */
const MIN_FILL_WIDTH = 40;

/**
 * Plain text with its paragraphs whole: a text filled to a width (an info manual, a man page
 * saved as text, an email) has a line end every 70 characters, which would cut its sentences. A
 * line that reaches near the usual width, or that the next line's first word would not have fit
 * on, continues on the next, unless that one starts an item
 * (a bullet, a number), is indented further (an example; but an item's wrapped lines, indented
 * to its text, go on), is a heading after a sentence's end,
 * or is a heading's underline; short
 * lines (headings, list items, the end of a paragraph) keep their ends. Underlines (`****`,
 * `====`) go: they only draw the heading above them. A program's options as `--help` prints
 * them have each option on a line of its own, its description under it (see withOptionsApart).
 */
export function unwrapText(text: string): string {
  const lines = withOptionsApart(
    withLiteralMarks(withoutManHeadAndFoot(text.split('\n').filter((l) => !INFO_NODE.test(l)))),
  );
  const lengths = lines.map((l) => l.trimEnd().length).filter((n) => n > 0);
  if (lengths.length < 3) return text;
  const width = lengths.sort((a, b) => a - b)[Math.floor(lengths.length * 0.9)]!;
  if (width < MIN_FILL_WIDTH) return withDrawnTables(dropUnderlines(lines)).join('\n');
  const out: string[] = [];
  let previous: string | undefined;
  let previousRow = false;
  const kept = dropUnderlines(lines);
  // A table drawn with pipes is read by its pipes, not as one laid out by spaces.
  const rows = new Map<number, string | null>([...tableRecords(kept), ...drawnTableRecords(kept)]);
  let previousText = '';
  /** The number of the paragraph's last numbered item (0: none). */
  let lastNumber = 0;
  const fill = paragraphWidths(kept, width);
  for (const [i, line] of kept.entries()) {
    // A drawn table's rule, header, or a row's line taken into the row above it.
    if (rows.get(i) === null) continue;
    const trimmed = line.trimEnd();
    // A comment's text where it stands: items and indents are read in it as outside one.
    const text = uncommented(trimmed);
    if (
      previous !== undefined &&
      trimmed &&
      // A row of a table laid out in columns is a line of its own, however long.
      !previousRow &&
      !rows.has(i) &&
      // A configuration file's comments join each other, never a setting (`create` under "# create
      // new (empty) log files…"), and not a setting commented out (`#compress`) nor an empty "#".
      isComment(previous) === isComment(trimmed) &&
      !NOT_PROSE_COMMENT.test(previous) &&
      !NOT_PROSE_COMMENT.test(trimmed) &&
      // A setting is a line of its own, commented out or not (`strict modes = yes` under `secrets
      // file = …`, systemd's `ExecReload=` under `ExecStart=`): no wrapped text.
      !SETTING.test(previousText) &&
      // Not the rest of a name cut at the line's end (`IRQBAL‐` / `ANCE_BANNED_CPUS=fc0`).
      (!SETTING.test(text) || goesOnHyphenated(previous, text.trimStart())) &&
      (previous.length >= FULL_LINE * fill[i]! || wouldNotFit(previous, trimmed, fill[i]!)) &&
      // Not a line set far to the right (Vim's help tags, `*zo*`): it is no wrapped text.
      indent(previous) < width / 2 &&
      // An option under another starts a row of its own (haveged's `--data, -d [] Data cache size
      // [KB], with fallback to 16` / `--inst, -i [] …`).
      !(OPTION_START.test(previous) && OPTION_START.test(trimmed)) &&
      // So does one set left of the description above it (certbot's `--help`: "Size of the RSA
      // key. (default: 2048)" / `--key-type {rsa,ecdsa}`, a new user's trial 41).
      !(OPTION_START.test(trimmed) && indent(text) < indent(previousText)) &&
      // An item starts a line, in a comment too (redis.conf's `#   * After 3600 seconds…`); so does
      // a term and a colon after a sentence's end (its `# always: fsync after every write…`).
      !startsItem(text, previous, lastNumber) &&
      !((/[.!?]$/.test(previous) || COLON_ITEM.test(previousText)) && COLON_ITEM.test(text)) &&
      !linedUp(previousText, text, LABEL_ROW, 2) &&
      !linedUp(previousText, text, TERM_AND_TEXT, 3) &&
      // A colon inside a parenthesis ends no line ("…at this time. (default:" / "ecdsa)").
      !(
        /[.!?:]$/.test(previous) &&
        !/\([^()]*:$/.test(previous) &&
        trimmed.trim().length < width / 2 &&
        !/[.!?]$/.test(trimmed)
      ) &&
      (indent(text) <= indent(previousText) + 1 || indent(text) === itemTextStart(previousText))
    ) {
      const joined = out[out.length - 1]!;
      const next = isComment(trimmed) ? trimmed.replace(COMMENT_MARK, '') : trimmed.trimStart();
      const hyphenated = goesOnHyphenated(previous, next);
      out[out.length - 1] = hyphenated ? `${joined.slice(0, -1)}${next}` : `${joined} ${next}`;
    } else {
      out.push(rows.get(i) ?? trimmed);
      const numbered = NUMBERED.exec(text);
      if (numbered) lastNumber = Number(numbered[1]);
    }
    if (!trimmed) lastNumber = 0;
    // The line as written, not as joined, decides whether the next continues it.
    previous = trimmed || undefined;
    previousText = text;
    previousRow = rows.has(i);
  }
  return out.join('\n');
}

/**
 * The width each line's paragraph was filled to: the text's usual width, or a paragraph's own
 * where it is narrower, of three lines or more (OpenVPN's management-notes.txt fills most of its
 * paragraphs to ~55 characters, and a few lines run to 200: its "If the hold flag is set on initial
 * startup or" / "restart, OpenVPN will hibernate…" had been kept as lines).
 */
function paragraphWidths(lines: string[], width: number): number[] {
  const widths = lines.map(() => width);
  let start = 0;
  lines.forEach((line, i) => {
    if (line.trim() && i + 1 < lines.length) return;
    const end = line.trim() ? i + 1 : i;
    const own = Math.max(...lines.slice(start, end).map((l) => l.trimEnd().length));
    if (end - start >= 3 && own >= MIN_FILL_WIDTH && own < width) widths.fill(own, start, end);
    start = i + 1;
  });
  return widths;
}

/** Where a line's cells start: its first character, and each after a gap of two spaces or more. */
function cellStarts(line: string): number[] {
  const laid = line.includes('\t') ? expandTabs(line) : line;
  return [...laid.trimEnd().matchAll(/(?:^ *| {2,})(?=\S)/g)].map((m) => m.index + m[0].length);
}

const cells = (line: string) => line.trim().split(/ {2,}|\t+/);

/** How many lines away a row may be from one it is aligned with (a class's heading between rows). */
const ROW_REACH = 2;

/**
 * The lines that are rows of a table laid out in columns by spaces (`23505    E    ERRCODE_UNIQUE_VIOLATION
 * unique_violation`): three cells or more, at least half of them (and two) starting where cells
 * of a line near it start. Prose justified to a width has its wider gaps where its words happen
 * to fall, seldom under each other.
 */
function tableRows(lines: string[]): Set<number> {
  // A comment's lines are no table's rows (smb.conf's settings commented out and aligned: `;   idmap config * :    backend = tdb`).
  const starts = lines.map((line) => (/^\s*[#;]/.test(line) ? [] : cellStarts(line).slice(1)));
  const columns = starts.map((cells) => new Set(cells));
  const aligned = (a: number[], b: Set<number> | undefined) => {
    const shared = b ? a.filter((start) => b.has(start)).length : 0;
    return shared >= 2 && shared * 2 >= a.length;
  };
  // Cells separated by tabs are a table's however wide they are (tzdata's zone1970.tab: a row's
  // first cell `CI,BF,GH,GM,…` runs past the tab stop its neighbours' second cells start at).
  const tabbed = lines.map((line) =>
    /^\s*[#;]/.test(line) ? 0 : line.split('\t').filter((c) => c.trim()).length,
  );
  const rows = new Set<number>();
  starts.forEach((cells, i) => {
    for (let d = 1; d <= ROW_REACH; d++)
      if (tabbed[i]! >= 3 && (tabbed[i - d]! >= 3 || tabbed[i + d]! >= 3)) return rows.add(i);
    if (cells.length < 2) return;
    for (let d = 1; d <= ROW_REACH; d++)
      if (aligned(cells, columns[i - d]) || aligned(cells, columns[i + d])) return rows.add(i);
  });
  // And a line of two cells or more next to a row of such a table, its second cell where one of
  // that row's starts, its first a word (/etc/services' `rsync\t\t873/tcp` between rows with a
  // comment): read down, then up, so that such lines next to each other are rows too.
  const nextRow = (i: number, j: number) =>
    !rows.has(i) &&
    rows.has(j) &&
    tabbed[i]! >= 2 &&
    tabbed[j]! >= 2 &&
    !/\s/.test(lines[i]!.trim().split('\t')[0]!) &&
    tabStops(lines[j]!).slice(1).includes(tabStops(lines[i]!)[1]!);
  for (let i = 1; i < lines.length; i++) if (nextRow(i, i - 1)) rows.add(i);
  for (let i = lines.length - 2; i >= 0; i--) if (nextRow(i, i + 1)) rows.add(i);
  return rows;
}

/**
 * Each row of a table laid out in columns (see tableRows) as one record, its values named by the
 * columns' header: the row of names that begins its table, or else the last comment before it
 * that names as many columns (errcodes.txt's `#  sqlstate  E/W/S  errcode_macro_name  spec_name`,
 * as a CSV's commented header). By line; a header row stays as written.
 */
function tableRecords(lines: string[]): Map<number, string> {
  const rows = tableRows(lines);
  const records = new Map<number, string>();
  /** The last comment naming columns, by their count. */
  const commented = new Map<number, string[]>();
  let header: string[] | undefined;
  let inTable = false;
  lines.forEach((line, i) => {
    if (!rows.has(i)) {
      if (/^\s*#/.test(line)) {
        const names = cells(line.replace(/^\s*#+/, ''));
        if (names.length >= 3 && namesColumns(names)) commented.set(names.length, names);
      }
      if (line.trim()) inTable = false;
      return;
    }
    const values = cells(line);
    if (!inTable) {
      inTable = true;
      header = namesColumns(values) ? values : commented.get(values.length);
      if (header === values) return records.set(i, line.trim());
    }
    const named = header
      ? values.map((value, k) => (header![k] ? `${header![k]}: ${value}` : value))
      : values;
    records.set(i, recordLine(named));
  });
  return records;
}

/**
 * An option and its description on one line, two spaces or more apart, as `--help` prints them
 * (argparse, getopt, a man page saved as text): `  -n, --names           Display column names…`.
 */
/** A line that starts with an option. */
const OPTION_START = /^\s*--?[A-Za-z][\w-]*(?:[ ,=[]|$)/;
/** An option's long form, a gap, and its short form after a comma (haveged's `--buffer     , -b`). */
const OPTION_FORMS_APART = /^(\s*--[A-Za-z0-9][\w-]*) {2,},\s*(?=-[A-Za-z0-9])/;
const OPTION_ROW = /^(\s{0,12})(--?[A-Za-z0-9?][^\s]*(?: [^\s]+)*?)( {2,})(\S.*)$/;
/**
 * Any term and its description so (Vim's help: `zR              Open all folds.`): a term of a
 * few words that ends no sentence; not a setting and its comment (`#work_mem = 4MB    # min 64kB`).
 */
const TERM_ROW = /^(\s{0,12})([^\s](?:[^\s]| (?! ))*?)( {2,})([^\s#].*)$/;
const MAX_TERM_WORDS = 4;
/** An option this long is a sentence that begins with a dash, not an option. */
const MAX_OPTION_LENGTH = 40;
const TAB = 8;

/**
 * In a list of options (two rows or more), or of any terms (two rows or more, and a description
 * that goes on under itself, which prose that puts two spaces between its sentences never does),
 * each row's term on a line of its own and its description under it, indented to where it was:
 * its wrapped lines, indented as far, join it as any wrapped text does, and the term heads its
 * definition as one on a line of its own does ("-c COLUMNS, --columns COLUMNS" / "A comma-separated
 * list…"). Tabs are read as stops every 8 columns.
 */
export function withOptionsApart(written: string[]): string[] {
  // The same lines when none changes: filled-prose.ts reads that as no list of options.
  const lines = written.some((line) => OPTION_FORMS_APART.test(line))
    ? written.map((line) => line.replace(OPTION_FORMS_APART, '$1, '))
    : written;
  const laid = lines.map((line) => (line.includes('\t') ? expandTabs(line) : line));
  const terms = laid.map((line) => {
    const row = TERM_ROW.exec(line.trimEnd());
    return row && isTerm(row[2]!) ? row : null;
  });
  const options = laid.map(optionRow);
  const column = (row: RegExpExecArray) => row[1]!.length + row[2]!.length + row[3]!.length;
  // The columns descriptions start at: those of the options, and of the terms whose description
  // goes on under itself. A justified line of prose ("The  postqueue(1)  command…") starts none.
  const columns = new Set<number>();
  if (options.filter(Boolean).length >= 2) for (const row of options) if (row) columns.add(column(row));
  const nextLines = nextNonBlank(laid);
  terms.forEach((row, i) => {
    if (!row) return;
    const next = nextLines[i];
    if (next !== undefined && indent(next) === column(row)) columns.add(column(row));
  });
  const apart = (row: RegExpExecArray | null | undefined) => !!row && columns.has(column(row));
  // A justified line of prose may line up with a list's descriptions by chance (rsyslog.conf(5)'s
  // "which  is  extremely  lossy…" under its modules' list, a new user's trial 38): a row whose
  // line goes on with the sentence of the line above it, as indented, is none, unless a row
  // beside it, or its description going on under it, says it is one of a list.
  const previousLines = nextNonBlank([...laid].reverse()).reverse();
  const rowAt = (line: string | undefined, at: number) => {
    if (line === undefined) return false;
    const row = optionRow(line) ?? TERM_ROW.exec(line.trimEnd());
    return !!row && column(row) === at;
  };
  const listed = (row: RegExpExecArray, i: number) =>
    indent(nextLines[i] ?? '') === column(row) ||
    rowAt(nextLines[i], column(row)) ||
    rowAt(previousLines[i], column(row));
  const goesOnAbove = (i: number) => {
    const above = laid[i - 1];
    return !!above?.trim() && indent(above) === indent(laid[i]!) && !/[.!?:]\s*$/.test(above);
  };
  const split = laid.map((_, i) =>
    apart(options[i])
      ? options[i]!
      : apart(terms[i]) && (listed(terms[i]!, i) || !goesOnAbove(i))
        ? terms[i]!
        : null,
  );
  if (split.filter(Boolean).length < 2) return lines;
  return laid.flatMap((line, i) => {
    const row = split[i];
    if (!row) return [line];
    const [, lead, term, gap, description] = row;
    return [`${lead}${term}`, `${' '.repeat(lead!.length + term!.length + gap!.length)}${description}`];
  });
}

function optionRow(line: string): RegExpExecArray | null {
  const row = OPTION_ROW.exec(line.trimEnd());
  return row && row[2]!.length <= MAX_OPTION_LENGTH ? row : null;
}

const isTerm = (term: string) =>
  // A comment's mark before a tab is none (rsyncd.conf's `#<TAB>max connections=10`).
  !/^[#;]+$/.test(term) &&
  // Nor a drawn table's cell (mkfs.btrfs(8)'s `│RAID0    │ 1`).
  !/^[|\u2500-\u257f]/.test(term) &&
  term.length <= MAX_OPTION_LENGTH &&
  term.split(' ').length <= MAX_TERM_WORDS &&
  !/[.!?,;:]["')\]]?$/.test(term);

/** Where a line's cells separated by tabs start, in columns (tabs stop every 8). */
function tabStops(line: string): number[] {
  const starts: number[] = [];
  let column = 0;
  line.split('\t').forEach((segment, k) => {
    if (k > 0) column += TAB - (column % TAB);
    const text = segment.trimStart();
    if (text.trim()) starts.push(column + segment.length - text.length);
    column += segment.length;
  });
  return starts;
}

function expandTabs(line: string): string {
  let out = '';
  for (const char of line) out += char === '\t' ? ' '.repeat(TAB - (out.length % TAB)) : char;
  return out;
}

/** A comment's line: marked with '#', or with ';' as an INI file's are (pgbouncer.ini's `;; Query for…`). */
const isComment = (line: string) => /^\s*[#;]/.test(line);
/** A comment's line with its marks as spaces: its text where it stands, indented as it is. */
const uncommented = (line: string) =>
  line.replace(/^(\s*)(#+|;+)/, (_, space: string, marks: string) => space + ' '.repeat(marks.length));
const COMMENT_MARK = /^\s*(?:#+|;+)\s*/;
/**
 * A comment that is no prose: an empty "#", or a setting commented out (`#compress`, `#dateext`,
 * `;pool_mode = session`).
 */
const NOT_PROSE_COMMENT = /^\s*(?:#|;+(?!;))(?!\s+\S)/;

/** A setting's line: a name of a word or three, then `=` (`max connections=10`, `ExecStart=/usr/bin/…`). */
const SETTING = /^\s*[A-Za-z_][\w.-]*(?: [A-Za-z_][\w.-]*){0,2}\s*=(?!=)/;

/**
 * A bullet (nroff's and asciidoc's `o` too, indented), a number or a FAQ's `Q:` / `A:`, with the
 * space after it, or a term and a dash
 * (pgbouncer.ini's `;;   transaction  - after transaction finishes`): the start of an item.
 */
/** A term in lower case, then a colon and what it is: `always: fsync after every write…`. */
const COLON_ITEM = new RegExp(String.raw`^\s*${TERM_COLON_ITEM}`, 'u');
const ITEM = new RegExp(
  String.raw`^\s*(?:(?:[*•·+-]|\*\)|(?<=^\s+)o(?=\s+\p{L})|\d+[.)]|[a-z][.)]|[QA]\d*[:)])\s+|${TERM_ITEM})`,
  'u',
);

const NUMBERED = /^\s*(\d+)[.)]\s/;

/** A term of a few words at the line's start, then the gap that lines its description up. */
const TERM_AND_TEXT = /^(\s*[^\s:]+(?: [^\s:]+){0,2})( {2,})\S/;

/**
 * Whether two lines are rows lined up in a column at one indent (`row` captures each one's lead
 * and the gap after it), one of them padded to the column by `padded` spaces or more: labels and
 * their values (cron's README.Debian: `user crontabs: /var/spool/cron/crontabs/*` / `log file:
 * Check your syslog settings…`: a new user's trial 39), and a program's subcommands and what each
 * does (certbot's `(default) run   Obtain & install a certificate…` / `certonly        Obtain or
 * renew…`: trial 41), which justified prose, padded with two spaces at most, is not.
 */
function linedUp(line: string, next: string, row: RegExp, padded: number): boolean {
  const [a, b] = [row.exec(expandTabs(line)), row.exec(expandTabs(next))];
  if (!a || !b || indent(a[1]!) !== indent(b[1]!)) return false;
  return (
    a[1]!.length + a[2]!.length === b[1]!.length + b[2]!.length &&
    (a[2]!.length >= padded || b[2]!.length >= padded)
  );
}

/**
 * Whether a line starts an item. A number after a line that ends in a word goes on with its
 * sentence ("…blocks packets on the UDP port" / "323. You need to amend…": chrony's FAQ, a new
 * user's trial 38), unless it is the next after the paragraph's last numbered item.
 */
function startsItem(text: string, previous: string, lastNumber: number): boolean {
  if (!ITEM.test(text)) return false;
  const numbered = NUMBERED.exec(text);
  return !numbered || !/[\p{L}\p{N}]$/u.test(previous) || Number(numbered[1]) === lastNumber + 1;
}

/** Where an item's text starts after its marker: its wrapped lines are indented to there. */
function itemTextStart(line: string): number {
  const marker = ITEM.exec(line);
  return marker ? marker[0].length : -1;
}
const UNDERLINE = /^\s*([*=~^#-])\1{2,}\s*$/;
/** A rule with scissors in it (`---%<---`, `--8<--`): a quote's frame, as a wiki draws it. */
const SCISSORS = /^\s*-+\s*(?:%<|8<|>%|>8|✂)\s*-*\s*$/;

/** Whether the next line's first word would have run past the width on this line: it was wrapped there. */
function wouldNotFit(line: string, next: string, width: number): boolean {
  const word = next.trimStart().split(/\s/, 1)[0]!;
  return line.length >= width / 2 && line.length + 1 + word.length > width;
}

function indent(line: string): number {
  return line.length - line.trimStart().length;
}

/** The lines less underlines and scissors rules: they only draw (a table's header rule stays). */
function dropUnderlines(lines: string[]): string[] {
  return lines.filter((l, i) => (!UNDERLINE.test(l) || isTableRule(lines, i)) && !SCISSORS.test(l));
}

/**
 * A man page saved as text (`man ls > ls.txt`, Debian's READMEs made with nroff) writes bold as
 * a letter struck twice (`P\bP`) and underline as `_\bP`: each is the letter struck last.
 */
export function withoutOverstrikes(text: string): string {
  return text.includes('\x08') ? text.replace(/[^\n\x08]\x08/g, '') : text;
}

/**
 * reStructuredText's mark of a literal block (a line ending with `::`, an indented block under
 * it) read as what it stands for: "file: ::" and "file::" as "file:", "engine.::" as "engine."
 * (lighttpd's ssl.txt: "…single PEM file: :: cat host.key…"). A `::` with no block under it is
 * the text's own (C++'s `std::`).
 */
function withLiteralMarks(lines: string[]): string[] {
  const nextLines = nextNonBlank(lines);
  return lines.map((line, i) => {
    if (!line.endsWith('::')) return line;
    const next = nextLines[i];
    if (next === undefined || indent(next) <= indent(line)) return line;
    const before = line.slice(0, -2);
    if (!before.trim()) return '';
    if (/\s$/.test(before)) return before.trimEnd();
    return /[.!?:]$/.test(before) ? before : `${before}:`;
  });
}

/**
 * Per line, the first line after it that is not blank: found once for all, as a search from each
 * line was quadratic (200,000 rows of a drawn table read in 92 s, now well under one).
 */
function nextNonBlank(lines: string[]): (string | undefined)[] {
  const next: (string | undefined)[] = new Array<string | undefined>(lines.length);
  let found: string | undefined;
  for (let i = lines.length - 1; i >= 0; i--) {
    next[i] = found;
    if (lines[i]!.trim()) found = lines[i];
  }
  return next;
}
