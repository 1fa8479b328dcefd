/** How a document's bytes were read as text. */
export type Decoded = { ok: true; text: string } | { ok: false; reason: 'binary' };

/**
 * Text from bytes: a byte-order mark says UTF-8 or UTF-16; without one, UTF-8 when the bytes
 * are valid UTF-8, else windows-1252 (what a Latin-1 file from an older editor is). Bytes with
 * NULs in them are data, not text.
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
      text = new TextDecoder('windows-1252').decode(bytes);
    }
  }
  return text.includes('\u0000') ? { ok: false, reason: 'binary' } : { ok: true, text };
}
