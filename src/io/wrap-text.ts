import wrapAnsi from 'wrap-ansi';

// wrap-ansi (and the string-width it uses) build Intl.Segmenter instances when loaded, which
// costs ~15 ms: this module is imported only where text is wrapped, on a terminal.

// Colour and hyperlink sequences, which take no room.
const ESCAPES = /\u001b\[[0-9;:]*m|\u001b\]8;[^\u0007\u001b]*(?:\u0007|\u001b\\)/g;
// Characters one column wide that NFC leaves alone (printable ASCII, Latin-1, punctuation, box
// drawing): a line of them alone is measured by its length.
const NARROW = /^[\u0020-\u007e\u00a0-\u00ac\u00ae-\u00ff\u2010-\u2027\u2030-\u205e\u2500-\u257f]*$/;

/** Whether `line` surely fits in `width` columns as it is (wrap-ansi would return it unchanged). */
function fits(line: string, width: number): boolean {
  const visible = line.includes('\u001b') ? line.replace(ESCAPES, '') : line;
  return visible.length <= width && NARROW.test(visible);
}

/**
 * Word-wraps text that may carry colour codes at `width` columns, breaking long words. Lines
 * that already fit are kept as they are without asking wrap-ansi, which measures every
 * character: a reply's rendered table took it ~10 ms.
 */
export function wrapText(text: string, width: number): string {
  return text
    .split('\n')
    .map((line) => (fits(line, width) ? line : broken(line, width)))
    .join('\n');
}

/**
 * wrap-ansi's lines, less the blank it leaves at each break, at the end of one line or the start
 * of the next (`trim: false` keeps them, to keep the line's own indent), around colour codes.
 */
function broken(line: string, width: number): string {
  const wrapped = wrapAnsi(line, width, { hard: true, trim: false });
  if (wrapped === line) return line;
  return wrapped
    .split('\n')
    .map((part, i) => (i > 0 ? part.replace(LEADING_BLANKS, '$1') : part).replace(TRAILING_BLANKS, '$1'))
    .join('\n');
}
const LEADING_BLANKS = /^((?:\u001b\[[0-9;:]*m)*)[ \t]+/;
const TRAILING_BLANKS = /[ \t]+((?:\u001b\[[0-9;:]*m)*)$/;

/** How many rows `line` takes on a terminal `columns` wide, which wraps it where it is full. */
export function rowsOf(line: string, columns: number): number {
  if (fits(line, columns)) return 1;
  return wrapAnsi(line, columns, { hard: true, wordWrap: false, trim: false }).split('\n').length;
}
