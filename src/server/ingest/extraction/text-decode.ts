/** How a document's bytes were read as text. */
export type Decoded = { ok: true; text: string } | { ok: false; reason: 'binary' };

/**
 * Text from bytes: a byte-order mark says UTF-8 or UTF-16; without one, UTF-8 when the bytes
 * are valid UTF-8, else windows-1252 (what a Latin-1 file from an older editor is), but UTF-8
 * where they are (a UTF-8 changelog with one Latin-1 name in it). Bytes with NULs in them are
 * data, not text, unless the NULs are few (see NUL_RATIO).
 */
export function decodeText(bytes: Uint8Array): Decoded {
  let text: string;
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf)
    text = new TextDecoder('utf-8').decode(bytes.subarray(3));
  else if (bytes[0] === 0xff && bytes[1] === 0xfe)
    text = new TextDecoder('utf-16le').decode(bytes.subarray(2));
  else if (bytes[0] === 0xfe && bytes[1] === 0xff)
    text = new TextDecoder('utf-16be').decode(bytes.subarray(2));
  else {
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      text = decodeMixed(bytes);
    }
  }
  if (!text.includes('\u0000')) return { ok: true, text };
  // Counted without a copy, and only up to the limit: data may be mostly NULs.
  let nuls = 0;
  for (let at = text.indexOf('\u0000'); at !== -1; at = text.indexOf('\u0000', at + 1))
    if (++nuls * NUL_RATIO > text.length) return { ok: false, reason: 'binary' };
  return { ok: true, text: text.replace(INFO_INDEX_MARK, '').replaceAll('\u0000', '') };
}

/**
 * More NULs than one in this many characters is data. Fewer are a text's markers: an info
 * manual's index entries (`\0\b[index\0\b]`, two NULs each in 192 kB of GNU units' manual).
 */
const NUL_RATIO = 1000;
/** Texinfo's mark of an index in an info manual, read as nothing. */
const INFO_INDEX_MARK = /\u0000\u0008\[(?:index|\/index)\u0000\u0008\]/g;

/** Each valid UTF-8 sequence as UTF-8 and each other byte as windows-1252: all of it windows-1252 when none is multi-byte. */
function decodeMixed(bytes: Uint8Array): string {
  if (!holdsMultiByteUtf8(bytes)) return decodeWindows1252(bytes);
  const utf8 = new TextDecoder('utf-8');
  const parts: string[] = [];
  let start = 0;
  for (let i = 0; i < bytes.length;) {
    const length = utf8SequenceAt(bytes, i);
    if (length) {
      i += length;
      continue;
    }
    parts.push(utf8.decode(bytes.subarray(start, i)), decodeWindows1252(bytes.subarray(i, i + 1)));
    start = ++i;
  }
  parts.push(utf8.decode(bytes.subarray(start)));
  return parts.join('');
}

function holdsMultiByteUtf8(bytes: Uint8Array): boolean {
  for (let i = 0; i < bytes.length;) {
    const length = utf8SequenceAt(bytes, i);
    if (length > 1) return true;
    i += length || 1;
  }
  return false;
}

/** The length of the valid UTF-8 sequence at `i` (1 for ASCII), or 0 for a byte that starts none. */
function utf8SequenceAt(bytes: Uint8Array, i: number): number {
  const lead = bytes[i]!;
  if (lead < 0x80) return 1;
  const form = utf8Lead(lead);
  if (!form || i + form.length > bytes.length) return 0;
  if (bytes[i + 1]! < form.low || bytes[i + 1]! > form.high) return 0;
  for (let k = 2; k < form.length; k++) if ((bytes[i + k]! & 0xc0) !== 0x80) return 0;
  return form.length;
}

/** A lead byte's sequence length and the range of the byte after it (RFC 3629: no overlong form, surrogate or code point past U+10FFFF). */
function utf8Lead(lead: number): { length: number; low: number; high: number } | undefined {
  if (lead >= 0xc2 && lead <= 0xdf) return { length: 2, low: 0x80, high: 0xbf };
  if (lead === 0xe0) return { length: 3, low: 0xa0, high: 0xbf };
  if (lead === 0xed) return { length: 3, low: 0x80, high: 0x9f };
  if (lead >= 0xe1 && lead <= 0xef) return { length: 3, low: 0x80, high: 0xbf };
  if (lead === 0xf0) return { length: 4, low: 0x90, high: 0xbf };
  if (lead >= 0xf1 && lead <= 0xf3) return { length: 4, low: 0x80, high: 0xbf };
  if (lead === 0xf4) return { length: 4, low: 0x80, high: 0x8f };
  return undefined;
}

/**
 * windows-1252 differs from Latin-1 in 0x80-0x9f (curly quotes, dashes, €). Node's TextDecoder
 * decodes that label as Latin-1 on some versions, so those 32 are mapped here (undefined ones
 * stay as they are, as WHATWG's decoder leaves them).
 */
const CP1252_HIGH =
  '\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f' +
  '\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178';

function decodeWindows1252(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    .toString('latin1')
    .replace(/[\u0080-\u009f]/g, (c) => CP1252_HIGH[c.charCodeAt(0) - 0x80]!);
}

/** How much of a file whose type kb does not know is looked at to tell text from data. */
const SNIFF_BYTES = 64 * 1024;
/** A text has tabs, line ends, form feeds, backspaces (nroff's bold) and escapes (a log's colours); other controls are data. */
const DATA_CONTROL = /[\u0001-\u0007\u000e-\u001a\u001c-\u001f\u007f-\u009f]/g;
/** More controls than one character in this many is data. */
const CONTROL_RATIO = 100;

/**
 * Whether bytes of no known type are text: their first 64 KiB decode as text-decode reads a
 * `.txt` (no NUL), cut at a character's end, with few control characters among them.
 */
export function looksLikeText(bytes: Uint8Array): boolean {
  let end = Math.min(bytes.length, SNIFF_BYTES);
  // Not inside a UTF-8 character: its continuation bytes would decode as windows-1252's controls.
  while (end < bytes.length && end > SNIFF_BYTES - 4 && (bytes[end]! & 0xc0) === 0x80) end--;
  const head = decodeText(bytes.subarray(0, end));
  if (!head.ok) return false;
  const controls = head.text.match(DATA_CONTROL)?.length ?? 0;
  return controls * CONTROL_RATIO <= head.text.length;
}
