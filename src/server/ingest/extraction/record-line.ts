/**
 * A table's row, or a record's fields, as one line of text: `Plan: Growth; Price: 29 dollars.`
 * A cell that is a label (`Default:`, Apache's directive boxes) runs into the next one; the line
 * ends as a sentence, unless its last cell ends one already ("Meaning: Any character.", not
 * "…character.."; re's scanf token "." is a value, and is ended).
 */
export function recordLine(cells: string[]): string {
  const row = cells.reduce(
    (text, cell) => (text ? `${text}${text.endsWith(':') ? ' ' : '; '}${cell}` : cell),
    '',
  );
  return ENDED.test(row) ? row : `${row}.`;
}

const ENDED = /[\p{L}\p{N})\]"'’”][.!?]$/u;

/**
 * Whether a table's row of cells names its columns: short names, no sentence, no figure (`Plan` |
 * `Price`, errcodes.txt's `sqlstate  E/W/S  errcode_macro_name  spec_name`); a figure or a code
 * is a row's (less(1)'s `8bcccbcc18b95.b`).
 */
export function namesColumns(cells: string[]): boolean {
  return cells.every((cell) => cell.split(' ').length <= 4 && !/[.!?]$/.test(cell) && !/\d/.test(cell));
}
