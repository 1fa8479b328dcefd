import { closeSync, fsyncSync, openSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { siblingTempPath } from './temp-path.js';

/**
 * Replaces `path` with `data` whole or not at all: written to a new file beside it (a name no
 * one can have planted, created exclusively, so never through a link), fsynced, then renamed
 * over it. A link at `path` is replaced, not followed. On failure nothing changes and the error
 * (with its errno) is thrown.
 */
export function writeFileAtomic(path: string, data: string | Uint8Array, mode = 0o600): void {
  const bytes = typeof data === 'string' ? Buffer.from(data) : data;
  const tmp = siblingTempPath(path);
  const fd = openSync(tmp, 'wx', mode);
  try {
    for (let at = 0; at < bytes.length;) {
      const n = writeSync(fd, bytes, at, bytes.length - at);
      if (n <= 0) throw Object.assign(new Error('no progress writing'), { code: 'ENOSPC' });
      at += n;
    }
    fsyncSync(fd);
    closeSync(fd);
    renameSync(tmp, path);
  } catch (err) {
    try {
      closeSync(fd);
    } catch {
      // closed already
    }
    try {
      unlinkSync(tmp);
    } catch {
      // never made, or renamed
    }
    throw err;
  }
}
