import { createHash } from 'node:crypto';

/** Hashed this much at a time, so that a large file holds the event loop a few milliseconds at most. */
const SLICE = 4 * 1024 * 1024;

/** SHA-256 (hex) of `bytes`, yielding to other work between slices. */
export async function sha256Sliced(bytes: Uint8Array): Promise<string> {
  const hash = createHash('sha256');
  for (let at = 0; at < bytes.length; at += SLICE) {
    if (at > 0) await new Promise((resolve) => setImmediate(resolve));
    hash.update(bytes.subarray(at, at + SLICE));
  }
  return hash.digest('hex');
}
