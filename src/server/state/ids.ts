import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** An opaque id such as `thr_7fK2pQ9xLm3a`: a type prefix and 14 random base62 characters. */
export function newId(prefix: string, length = 14): string {
  let out = '';
  for (let i = 0; i < length; i++) out += ALPHABET[randomByte() % ALPHABET.length];
  return `${prefix}_${out}`;
}

// Random bytes drawn a pool at a time: one system call per 4 kB, not one per id (20,000 files
// from --docs are 20,000 ids).
let pool = Buffer.alloc(0);
let used = 0;
function randomByte(): number {
  if (used === pool.length) {
    pool = randomBytes(4096);
    used = 0;
  }
  return pool[used++]!;
}

export function newSecret(prefix: string): string {
  return `${prefix}_${randomBytes(24).toString('hex')}`;
}
