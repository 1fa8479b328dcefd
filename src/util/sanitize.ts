// C0/C1 controls and ESC sequences (CSI, OSC, DCS ...) that could move the cursor, retitle
// the window or hide text when a hostile server string reaches the terminal.
const ESCAPE_SEQUENCE =
  /\u001b(?:\[[0-?]*[ -/]*[@-~]|\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|[PX^_][^\u001b]*(?:\u001b\\)?|[@-Z\\-_])|\u009b[0-?]*[ -/]*[@-~]/g;
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/** Text safe for a terminal: escape sequences and control characters removed, newlines and tabs kept. */
export function sanitizeText(text: string): string {
  return text.replace(ESCAPE_SEQUENCE, '').replace(CONTROL, '');
}

/** One-line text for a table cell or a tab-separated field. */
export function sanitizeField(text: string): string {
  return sanitizeText(text).replace(/[\t\r\n]+/g, ' ');
}
