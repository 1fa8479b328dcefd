import { constants, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, unlinkSync } from 'node:fs';
import { sweepTemps, UPLOAD_TEMP } from './leftovers.js';
import { type FileHandle, open, rename } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ReadableStreamDefaultReader, ReadableStreamReadResult } from 'node:stream/web';
import { siblingTempPath } from '../../util/temp-path.js';
import { UnsafeDatabaseFile } from '../state/database.js';
import { DocumentReadError, readInto } from './document-file.js';

/** The folder beside --data where uploaded files' bytes are kept. */
export const uploadsDirFor = (dataFile: string) => `${dataFile}.uploads`;

/**
 * FILE.uploads, when it exists, is a folder of this user's that not every user can write to, reached
 * without a link: its bytes are read back to be indexed again, so whoever can replace them
 * chooses what the answers are drawn from. Reading by others is left as an older kb made it.
 */
export function checkUploadsDir(dir: string): void {
  const stat = lstatSync(dir, { throwIfNoEntry: false });
  if (!stat) return;
  if (stat.isSymbolicLink())
    throw new UnsafeDatabaseFile(
      dir,
      'is a symbolic link, which kb serve does not follow: give the real path',
    );
  if (!stat.isDirectory()) throw new UnsafeDatabaseFile(dir, 'is not a folder: move it away');
  if (typeof process.getuid === 'function' && stat.uid !== process.getuid())
    throw new UnsafeDatabaseFile(dir, 'belongs to another user: run kb serve as its owner, or serve a copy');
  if (stat.mode & 0o002)
    throw new UnsafeDatabaseFile(
      dir,
      `can be written by every user (mode ${(stat.mode & 0o777).toString(8)}); chmod 700 it`,
    );
}

/** An upload's bytes, kept under its file id. */
const KEPT = /^file_[\w-]+$/;

/** How a receive ended when it did not keep the bytes. */
export type ReceiveFailure =
  | { tooLarge: true }
  /** The client went away before the body ended, sent nothing for `idleMs`, or not all of it by the deadline. */
  | { aborted: true }
  /** The disk refused them (full, read-only, an I/O error): the errno. */
  | { storage: string };

/**
 * Where uploaded bytes are written as they arrive and read back when their turn to be indexed
 * comes: with --data, a folder beside the database, kept until the file is deleted; without, a
 * folder of this process's own in the OS temporary folder, each upload's bytes removed once
 * indexed and the folder at close. The folder is 0700, each file 0600, received into a temp
 * file (created exclusively, never through a link), fsynced, then renamed to its file id; read
 * back only if it is still a regular file of this user's.
 */
export class UploadStore {
  readonly dir: string;
  /** The bytes stay until their file is deleted (--data), not only until indexed. */
  readonly keeps: boolean;

  constructor(dir: string | undefined) {
    this.keeps = dir !== undefined;
    if (dir) mkdirSync(dir, { recursive: true, mode: 0o700 });
    this.dir = dir ?? mkdtempSync(join(tmpdir(), 'kb-serve-uploads-'));
  }

  /**
   * Writes `body` to the file kept for `fileId`, up to `maxBytes`. Past that (or once the disk
   * has refused a write) the rest is still read, to `drainBytes` in all, so that a client still
   * sending hears the answer; nothing is kept then. A body from which no byte comes for
   * `idleMs` is given up: a client that declares a size and stalls would otherwise hold its
   * share of the uploads in flight until Node's request timeout (5 min); so is one not ended
   * within `deadlineMs`, which a byte now and then would otherwise keep going. Returns the size
   * kept, or why nothing was.
   */
  async receive(
    fileId: string,
    body: ReadableStream<Uint8Array> | null,
    maxBytes: number,
    drainBytes: number,
    idleMs: number,
    deadlineMs: number = Infinity,
  ): Promise<{ size: number } | ReceiveFailure> {
    const deadline = Date.now() + deadlineMs;
    const path = join(this.dir, fileId);
    const tmp = siblingTempPath(path);
    let failure: ReceiveFailure | undefined;
    const refused = (err: unknown) => {
      failure ??= { storage: (err as NodeJS.ErrnoException).code ?? String(err) };
    };
    let file: FileHandle | undefined;
    try {
      file = await open(tmp, 'wx', 0o600);
    } catch (err) {
      refused(err);
    }
    let size = 0;
    let kept = false;
    try {
      const reader = body?.getReader();
      while (reader) {
        const next = await withinIdle(reader, Math.max(0, Math.min(idleMs, deadline - Date.now())));
        if (!next) {
          failure = { aborted: true };
          break;
        }
        if (next.done) break;
        size += next.value.byteLength;
        if (size > drainBytes) {
          await reader.cancel();
          break;
        }
        if (size > maxBytes) failure ??= { tooLarge: true };
        if (!failure) await writeAll(file!, next.value).catch(refused);
      }
      if (!failure) {
        try {
          await file!.sync();
          await file!.close();
          file = undefined;
          await rename(tmp, path);
          kept = true;
        } catch (err) {
          refused(err);
        }
      }
    } finally {
      await file?.close().catch(() => {});
      if (!kept) removeQuietly(tmp);
    }
    return failure ?? { size };
  }

  /**
   * The bytes of an upload, in shared memory (the extraction worker reads them where they are).
   * Throws DocumentReadError when they are gone or not to be trusted.
   */
  async read(fileId: string, maxBytes: number): Promise<Buffer> {
    const gone = () =>
      new DocumentReadError({ code: 'unreadable', message: 'the uploaded bytes are no longer kept' });
    let handle;
    try {
      handle = await open(
        join(this.dir, fileId),
        constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK,
      );
    } catch {
      throw gone();
    }
    try {
      const stat = await handle.stat();
      const mine = typeof process.getuid !== 'function' || stat.uid === process.getuid();
      if (!stat.isFile() || !mine || stat.mode & 0o022 || stat.size > maxBytes) throw gone();
      return await readInto(handle, Buffer.from(new SharedArrayBuffer(stat.size)));
    } finally {
      await handle.close();
    }
  }

  remove(fileId: string): void {
    removeQuietly(join(this.dir, fileId));
  }

  /** Bytes the indexer has read, when they are only held until then (no --data). */
  indexed(fileId: string): void {
    if (!this.keeps) this.remove(fileId);
  }

  /** Whether bytes are kept under `fileId` (looked at without following a link). */
  has(fileId: string): boolean {
    return KEPT.test(fileId) && lstatSync(join(this.dir, fileId), { throwIfNoEntry: false }) !== undefined;
  }

  /** Ids of the uploads kept, for a restart to pick up those not indexed yet. */
  ids(): string[] {
    try {
      return readdirSync(this.dir).filter((name) => KEPT.test(name));
    } catch {
      return [];
    }
  }

  /** Removes what receives cut short by a crash left (see sweepTemps). */
  sweep(): number {
    return sweepTemps(this.dir, UPLOAD_TEMP);
  }

  /** Without --data, the folder goes with the process. */
  close(): void {
    if (!this.keeps) rmSync(this.dir, { recursive: true, force: true });
  }
}

async function writeAll(file: FileHandle, bytes: Uint8Array): Promise<void> {
  for (let done = 0; done < bytes.byteLength;) {
    const { bytesWritten } = await file.write(bytes, done, bytes.byteLength - done);
    if (bytesWritten === 0) throw Object.assign(new Error('no progress writing'), { code: 'ENOSPC' });
    done += bytesWritten;
  }
}

function removeQuietly(path: string): void {
  if (!path) return;
  try {
    unlinkSync(path);
  } catch {
    // never made, or gone
  }
}

/** The next chunk of `reader`, or undefined (the reader cancelled) when it fails or none comes within `idleMs`. */
async function withinIdle(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  idleMs: number,
): Promise<ReadableStreamReadResult<Uint8Array> | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const idle = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), idleMs);
  });
  try {
    const next = await Promise.race([reader.read().catch(() => undefined), idle]);
    if (!next) await reader.cancel().catch(() => {});
    return next;
  } finally {
    clearTimeout(timer);
  }
}
