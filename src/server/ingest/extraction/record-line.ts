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
