import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import type { IndexingError } from './model.js';

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
 * more than `maxBytes`. Throws DocumentReadError (why the file FAILs), or ENOENT when it is gone.
 */
export async function readDocumentFile(seen: SeenFile, maxBytes: number): Promise<Buffer> {
  let handle;
  try {
    handle = await open(seen.path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw err;
    if (code === 'ELOOP')
      throw new DocumentReadError({
        code: 'outside_folder',
        message: 'the file became a link; links are not followed',
      });
    throw new DocumentReadError({
      code: 'unreadable',
      message: `cannot read the file (${code ?? String(err)})`,
    });
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile())
      throw new DocumentReadError({
        code: 'not_regular',
        message: 'not a regular file (a device, FIFO or socket)',
      });
    if (stat.dev !== seen.dev || stat.ino !== seen.ino)
      throw new DocumentReadError({ code: 'outside_folder', message: 'the path now leads to another file' });
    if (stat.size > maxBytes) throw tooLarge(stat.size, maxBytes);
    const bytes = Buffer.allocUnsafe(stat.size);
    let read = 0;
    while (read < bytes.length) {
      const { bytesRead } = await handle.read(bytes, read, bytes.length - read, read);
      if (bytesRead === 0) break;
      read += bytesRead;
    }
    return bytes.subarray(0, read);
  } finally {
    await handle.close();
  }
}

export function tooLarge(size: number, maxBytes: number): DocumentReadError {
  return new DocumentReadError({
    code: 'too_large',
    message: `the file is ${formatBytes(size)}, over the limit of ${formatBytes(maxBytes)} (--max-file-size)`,
  });
}

export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  if (bytes < 1e6) return `${(bytes / 1e3).toFixed(1).replace(/\.0$/, '')} kB`;
  if (bytes < 1e9) return `${(bytes / 1e6).toFixed(1).replace(/\.0$/, '')} MB`;
  return `${(bytes / 1e9).toFixed(1).replace(/\.0$/, '')} GB`;
}
