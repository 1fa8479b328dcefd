import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** An opaque id such as `thr_7fK2pQ9xLm3a`: a type prefix and 14 random base62 characters. */
export function newId(prefix: string, length = 14): string {
  const bytes = randomBytes(length);
  let out = '';
  for (const byte of bytes) out += ALPHABET[byte % ALPHABET.length];
  return `${prefix}_${out}`;
}

export function newSecret(prefix: string): string {
  return `${prefix}_${randomBytes(24).toString('hex')}`;
}
