import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { UsageError } from '../errors.js';

/** An errno code in words, for a one-line error ("no such file or folder", not ENOENT). */
export function errnoText(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  const words: Record<string, string> = {
    ENOENT: 'no such file or folder',
    EACCES: 'permission denied',
    EPERM: 'permission denied',
    ENOSPC: 'the disk is full',
    EDQUOT: 'the disk quota is used up',
    EROFS: 'the file system is read-only',
    EISDIR: 'it is a folder',
    ENOTDIR: 'a part of the path is not a folder',
    ELOOP: 'too many links',
    EMFILE: 'too many open files',
  };
  return (code && words[code]) ?? (err as Error).message;
}

const limit = (bytes: number) =>
  bytes >= 1024 * 1024
    ? `${bytes / 1024 / 1024} MiB`
    : bytes >= 1024
      ? `${bytes / 1024} KiB`
      : `${bytes} bytes`;

/** Larger than any file kb reads from a user (a cases file, a secret, a payload, a body). */
const DEFAULT_MAX_BYTES = 64 * 1024 * 1024;

/**
 * A file the user named (`what` says which: "secret file", "--api-keys-file"), read whole. One
 * message for every way it can fail: missing, unreadable, a folder, larger than `maxBytes`
 * (checked before reading). `-` is not special here: callers that take stdin handle it.
 */
export function readUserFile(path: string, what: string, maxBytes = DEFAULT_MAX_BYTES): Buffer {
  const fail = failure(path, what);
  const fd = openUserFile(path, what, maxBytes);
  try {
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(64 * 1024);
      let n: number;
      try {
        n = readSync(fd, chunk, 0, chunk.length, null);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'EAGAIN')
          fail('not a regular file (nothing to read yet)');
        return fail(errnoText(err));
      }
      if (n === 0) break;
      total += n;
      if (total > maxBytes) fail(`more than the ${limit(maxBytes)} allowed`);
      chunks.push(chunk.subarray(0, n));
    }
    return Buffer.concat(chunks);
  } finally {
    closeSync(fd);
  }
}

/** Fails as readUserFile would for a file that is missing, unreadable, a folder or too large, reading nothing. */
export function checkUserFile(path: string, what: string, maxBytes = DEFAULT_MAX_BYTES): void {
  closeSync(openUserFile(path, what, maxBytes));
}

const failure =
  (path: string, what: string) =>
  (why: string): never => {
    throw new UsageError(`cannot read ${what} ${path}: ${why}`);
  };

/** The file opened for reading, once it is known not to be a folder or too large. */
function openUserFile(path: string, what: string, maxBytes: number): number {
  const fail = failure(path, what);
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (err) {
    return fail(errnoText(err));
  }
  try {
    const stat = fstatSync(fd);
    if (stat.isDirectory()) fail('it is a folder');
    if (stat.isFile() && stat.size > maxBytes)
      fail(`${stat.size} bytes, more than the ${limit(maxBytes)} allowed`);
    return fd;
  } catch (err) {
    closeSync(fd);
    throw err;
  }
}
