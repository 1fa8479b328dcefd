// What a hostile string could use to act on a terminal: ESC sequences (CSI, OSC, DCS, ...) that
// move the cursor, retitle the window or hide text, the same as one-byte C1 controls, other
// C0/C1 controls, and invisible characters that reorder or hide what is shown (bidi controls,
// zero-width characters).
const ESCAPE_SEQUENCE =
  /\u001b(?:\[[0-?]*[ -/]*[@-~]|\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|[PX^_][^\u001b]*(?:\u001b\\)?|[@-Z\\-_])|\u009b[0-?]*[ -/]*[@-~]|[\u009d\u0090\u0098\u009e\u009f][^\u0007\u001b\u009c]*(?:\u0007|\u009c|\u001b\\)?/g;
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
const INVISIBLE = /[\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g;
const LINE_SEPARATORS = /[\u2028\u2029]/g;

/** Text safe for a terminal: escape sequences, controls and invisible characters removed; newlines and tabs kept. */
export function sanitizeText(text: string): string {
  return text
    .replace(ESCAPE_SEQUENCE, '')
    .replace(CONTROL, '')
    .replace(INVISIBLE, '')
    .replace(LINE_SEPARATORS, '\n');
}

// The start of an escape sequence at the end of a text, where what comes next could still make
// it longer: ESC alone, a CSI without its final byte, an OSC/DCS/... string not yet terminated.
const INCOMPLETE_SEQUENCE =
  /(?:\u001b(?:\[[0-?]*[ -/]*|\][^\u0007\u001b]*|[PX^_][^\u001b]*)?|\u009b[0-?]*[ -/]*|[\u009d\u0090\u0098\u009e\u009f][^\u0007\u001b\u009c]*)$/;

/**
 * sanitizeText for a text that arrives in pieces (a streamed reply): what push returns, joined
 * with end(), is sanitizeText of the whole, however it was split. A trailing sequence that may
 * not be complete yet is held back until the next piece, so one split across two pieces is
 * removed whole rather than leaving its printable half (`[2J`) on the screen.
 */
export function streamSanitizer(): { push(text: string): string; end(): string } {
  let held = '';
  return {
    push(text) {
      const pending = held + text;
      const at = pending.search(INCOMPLETE_SEQUENCE);
      held = at === -1 ? '' : pending.slice(at);
      return sanitizeText(at === -1 ? pending : pending.slice(0, at));
    },
    end() {
      const rest = sanitizeText(held);
      held = '';
      return rest;
    },
  };
}

/** One-line text for a table cell or a tab-separated field. */
export function sanitizeField(text: string): string {
  return sanitizeText(text).replace(/[\t\r\n]+/g, ' ');
}

/** A copy of `value` with every string in it (keys included) sanitised for a terminal. */
export function sanitizeDeep<T>(value: T): T {
  if (typeof value === 'string') return sanitizeText(value) as T;
  if (Array.isArray(value)) return value.map((v) => sanitizeDeep(v)) as T;
  if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    const copy: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) copy[sanitizeText(k)] = sanitizeDeep(v);
    return copy as T;
  }
  return value;
}

// Characters JSON.stringify leaves as they are but a terminal may act on (C1 controls) or that
// hide or reorder text. JSON's structure is ASCII, so these occur only inside strings, where
// \u escapes mean the same to any JSON parser.
const JSON_UNSAFE =
  /[\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g;

/** JSON text that is safe to show on a terminal and parses to exactly `value`. */
export function safeJson(value: unknown, indent?: number): string {
  return JSON.stringify(value ?? null, null, indent).replace(
    JSON_UNSAFE,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
