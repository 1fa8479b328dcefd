import * as nodeFs from 'node:fs';
import { open, rename, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import { siblingTempPath } from './temp-path.js';

/** What an atomic write needs of node:fs (tests inject a disk that fills up). */
export type AtomicWriteFs = Pick<
  typeof nodeFs,
  'openSync' | 'writeSync' | 'fsyncSync' | 'closeSync' | 'renameSync' | 'unlinkSync'
>;

/**
 * Replaces `path` with `data` whole or not at all: written to a new file beside it (a name no
 * one can have planted, created exclusively, so never through a link), fsynced, then renamed
 * over it, and the directory fsynced so that the rename lasts. A link at `path` is replaced,
 * not followed. On failure nothing changes and the error (with its errno) is thrown.
 */
export function writeFileAtomic(
  path: string,
  data: string | Uint8Array,
  { mode = 0o600, fs = nodeFs }: { mode?: number; fs?: AtomicWriteFs } = {},
): void {
  const bytes = typeof data === 'string' ? Buffer.from(data) : data;
  const tmp = siblingTempPath(path);
  const fd = fs.openSync(tmp, 'wx', mode);
  try {
    writeAll(fs, fd, bytes, 0);
    fs.fsyncSync(fd);
    fs.closeSync(fd);
    fs.renameSync(tmp, path);
  } catch (err) {
    try {
      fs.closeSync(fd);
    } catch {
      // closed already
    }
    try {
      fs.unlinkSync(tmp);
    } catch {
      // never made, or renamed
    }
    throw err;
  }
  syncDirectory(fs, path);
}

/** writeFileAtomic off the event loop, for large files written from a server. */
export async function writeFileAtomicAsync(path: string, parts: Uint8Array[], mode = 0o600): Promise<void> {
  const total = parts.reduce((sum, part) => sum + part.byteLength, 0);
  const tmp = siblingTempPath(path);
  const file = await open(tmp, 'wx', mode);
  try {
    let written = 0;
    while (written < total) {
      const { bytesWritten } = await file.writev(from(parts, written));
      if (bytesWritten === 0) throw Object.assign(new Error('no progress writing'), { code: 'ENOSPC' });
      written += bytesWritten;
    }
    await file.sync();
    await file.close();
    await rename(tmp, path);
  } catch (err) {
    await file.close().catch(() => {});
    await unlink(tmp).catch(() => {});
    throw err;
  }
  syncDirectory(nodeFs, path);
}

/** Writes all of `data` at `position`; a short write continues, a write of nothing fails (ENOSPC). */
export function writeAll(
  fs: Pick<AtomicWriteFs, 'writeSync'>,
  fd: number,
  data: Uint8Array,
  position: number,
): void {
  for (let done = 0; done < data.length;) {
    const n = fs.writeSync(fd, data, done, data.length - done, position + done);
    if (n <= 0) throw Object.assign(new Error('no progress writing'), { code: 'ENOSPC' });
    done += n;
  }
}

function syncDirectory(fs: Pick<AtomicWriteFs, 'openSync' | 'fsyncSync' | 'closeSync'>, path: string): void {
  let fd: number | undefined;
  try {
    fd = fs.openSync(dirname(path), 'r');
    fs.fsyncSync(fd);
  } catch {
    // some file systems cannot fsync a directory; the rename itself has happened
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/** The parts from byte `offset` of them on. */
function from(parts: Uint8Array[], offset: number): Uint8Array[] {
  const rest: Uint8Array[] = [];
  for (const part of parts) {
    if (offset >= part.byteLength) offset -= part.byteLength;
    else {
      rest.push(offset ? part.subarray(offset) : part);
      offset = 0;
    }
  }
  return rest;
}
