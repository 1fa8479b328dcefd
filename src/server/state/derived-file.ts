import { createHash } from 'node:crypto';
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { writeFileAtomicAsync } from '../../util/write-atomic.js';

/**
 * A file of derived state kept next to --data (the search index, the vectors): the journal stays
 * the truth, so anything wrong with one (a link, a FIFO, another user's file, a damaged or
 * foreign one) means it is not read and what it held is rebuilt.
 *
 * Layout: a line `<magic>`, a line with the SHA-256 (hex) of everything after it, a line of JSON
 * (the header), then the binary body.
 */

/** Writes the file atomically (writeFileAtomicAsync), 0600 like the journal, off the event loop. */
export async function writeDerivedFile(
  path: string,
  magic: string,
  header: unknown,
  parts: Uint8Array[],
): Promise<void> {
  const headerLine = Buffer.from(`${JSON.stringify(header)}\n`);
  const hash = createHash('sha256').update(headerLine);
  for (const part of parts) hash.update(part);
  const head = Buffer.from(`${magic}${hash.digest('hex')}\n`);
  await writeFileAtomicAsync(path, [head, headerLine, ...parts]);
}

/**
 * The header and body of a derived file, or why it cannot be used; undefined when there is
 * none. The checksum is checked before the header is read.
 */
export function readDerivedFile(
  path: string,
  magic: string,
  maxBytes: number,
): { header: unknown; body: Buffer } | { problem: string } | undefined {
  let data: Buffer;
  try {
    const read = readOwnFile(path, maxBytes);
    if (read === undefined) return undefined;
    if (typeof read === 'string') return { problem: read };
    data = read;
  } catch (err) {
    return { problem: `cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})` };
  }
  if (data.subarray(0, magic.length).toString() !== magic) return { problem: 'not a file of this version' };
  const hashEnd = magic.length + 65;
  if (data[hashEnd - 1] !== 10) return { problem: 'no checksum' };
  const sum = data.subarray(magic.length, hashEnd - 1).toString();
  const rest = data.subarray(hashEnd);
  if (createHash('sha256').update(rest).digest('hex') !== sum) return { problem: 'checksum mismatch' };
  const end = rest.indexOf(10);
  if (end < 0) return { problem: 'no header' };
  try {
    return { header: JSON.parse(rest.subarray(0, end).toString()) as unknown, body: rest.subarray(end + 1) };
  } catch (err) {
    return { problem: (err as Error).message };
  }
}

/**
 * The file's bytes, if it is a regular file of this user's that no one else may write, not
 * reached through a link, and not larger than any index; else why not, or undefined when there
 * is none. Opened without waiting (a FIFO) and without following a link (/dev/zero).
 */
function readOwnFile(path: string, maxBytes: number): Buffer | string | undefined {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    if (code === 'ELOOP') return 'a link, not a file: not followed';
    throw err;
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) return 'not a regular file';
    if (typeof process.getuid === 'function' && stat.uid !== process.getuid())
      return 'owned by another user: not trusted';
    if (stat.mode & 0o022) return 'writable by other users: not trusted';
    if (stat.size > maxBytes) return `${stat.size} bytes, larger than kb serve writes`;
    const data = Buffer.allocUnsafe(stat.size);
    let read = 0;
    while (read < data.length) {
      const n = readSync(fd, data, read, data.length - read, read);
      if (n === 0) break;
      read += n;
    }
    return data.subarray(0, read);
  } finally {
    closeSync(fd);
  }
}
