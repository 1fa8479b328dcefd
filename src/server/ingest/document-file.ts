import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import type { IndexingError } from '../state/model.js';

/** What the folder scan saw at a path: the file to be read there must still be this one. */
export interface SeenFile {
  path: string;
  dev: number;
  ino: number;
}

export class DocumentReadError extends Error {
  constructor(readonly error: IndexingError) {
    super(error.message);
  }
}

/**
 * The bytes of a file from the docs folder, read only if it is still the regular file the scan
 * saw there: opened without following a link (O_NOFOLLOW) or waiting on a FIFO (O_NONBLOCK),
 * checked by device and inode (a folder on the way swapped for a link leads elsewhere), and no
 * more than `maxBytes`. The bytes are in shared memory (see Extractor). Throws DocumentReadError (why the file FAILs), or ENOENT when it is gone.
 */
export async function readDocumentFile(seen: SeenFile, maxBytes: number): Promise<Buffer> {
  let handle;
  try {
    handle = await open(seen.path, OPEN_FLAGS);
  } catch (err) {
    throw openFailure(err);
  }
  try {
    const stat = await handle.stat();
    checkOpened(stat, seen, maxBytes);
    // Shared memory: the extraction worker reads it where it is, without a copy on this thread.
    return await readInto(handle, Buffer.from(new SharedArrayBuffer(stat.size)));
  } finally {
    await handle.close();
  }
}

/** readDocumentFile for the extraction worker, which reads the files it extracts: blocking, into its own memory. */
export function readDocumentFileSync(seen: SeenFile, maxBytes: number): Buffer {
  let fd;
  try {
    fd = openSync(seen.path, OPEN_FLAGS);
  } catch (err) {
    throw openFailure(err);
  }
  try {
    const stat = fstatSync(fd);
    checkOpened(stat, seen, maxBytes);
    const bytes = Buffer.allocUnsafe(stat.size);
    let read = 0;
    while (read < bytes.length) {
      const n = readSync(fd, bytes, read, bytes.length - read, read);
      if (n === 0) break;
      read += n;
    }
    return bytes.subarray(0, read);
  } finally {
    closeSync(fd);
  }
}

const OPEN_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/** What a failed read of a document comes to: the file is gone, or why it FAILs. */
export function readFailure(err: unknown): { gone: true } | { error: IndexingError } {
  if (err instanceof DocumentReadError) return { error: err.error };
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return { gone: true };
  return { error: { code: 'unreadable', message: `cannot read the file: ${code ?? String(err)}` } };
}

/** Why a file could not be opened: DocumentReadError, or the error itself when it is gone (ENOENT). */
function openFailure(err: unknown): unknown {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return err;
  if (code === 'ELOOP')
    return new DocumentReadError({
      code: 'outside_folder',
      message: 'the file became a link; links are not followed',
    });
  return new DocumentReadError({
    code: 'unreadable',
    message: `cannot read the file (${code ?? String(err)})`,
  });
}

function checkOpened(stat: Stats, seen: SeenFile, maxBytes: number): void {
  if (!stat.isFile())
    throw new DocumentReadError({
      code: 'not_regular',
      message: 'not a regular file (a device, FIFO or socket)',
    });
  if (stat.dev !== seen.dev || stat.ino !== seen.ino)
    throw new DocumentReadError({ code: 'outside_folder', message: 'the path now leads to another file' });
  if (stat.size > maxBytes) throw tooLarge(stat.size, maxBytes);
}

/** Fills `bytes` from the start of the file; fewer when the file is shorter now. */
export async function readInto(handle: FileHandle, bytes: Buffer): Promise<Buffer> {
  let read = 0;
  while (read < bytes.length) {
    const { bytesRead } = await handle.read(bytes, read, bytes.length - read, read);
    if (bytesRead === 0) break;
    read += bytesRead;
  }
  return bytes.subarray(0, read);
}

export function tooLarge(size: number, maxBytes: number): DocumentReadError {
  return new DocumentReadError({
    code: 'too_large',
    message: `the file is ${formatBytes(size)}, over the limit of ${formatBytes(maxBytes)} (--max-file-size)`,
  });
}

/** Sizes as --max-file-size takes them: powers of 1024. */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${unit ? value.toFixed(1).replace(/\.0$/, '') : value} ${units[unit]}`;
}
