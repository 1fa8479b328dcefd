import { constants, mkdirSync, readdirSync, unlinkSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomicAsync } from '../util/write-atomic.js';
import { formatBytes, readInto } from './document-file.js';
import { readBoundedBody } from './request-body.js';
import { ServiceError } from './http-errors.js';
import { now } from './clock.js';
import { newId } from './ids.js';
import type { Indexer } from './indexer.js';
import type { FileRecord } from './model.js';
import type { Store } from './store.js';

/** The folder beside --data where uploaded files' bytes are kept. */
export const uploadsDirFor = (dataFile: string) => `${dataFile}.uploads`;

/** How much of an upload past the limit is still read, so the client hears the 413. */
const DRAIN_PAST_LIMIT = 16 * 1024 * 1024;

/** The longest file name an upload may have, in characters. */
const MAX_NAME = 255;

/**
 * Where uploaded bytes are kept: with --data, one file per upload in a folder beside the
 * journal (0700; each file 0600, written whole then renamed), read back only if it is still a
 * regular file of this user's; without, nowhere (the indexer holds them until it has read them).
 */
export class UploadStore {
  constructor(readonly dir: string | undefined) {
    if (dir) mkdirSync(dir, { recursive: true, mode: 0o700 });
  }

  async save(fileId: string, bytes: Buffer): Promise<void> {
    if (this.dir) await writeFileAtomicAsync(join(this.dir, fileId), [bytes]);
  }

  /** The bytes of an upload kept before, or undefined when there are none to trust. */
  async read(fileId: string, maxBytes: number): Promise<Buffer | undefined> {
    if (!this.dir) return undefined;
    let handle;
    try {
      handle = await open(
        join(this.dir, fileId),
        constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK,
      );
    } catch {
      return undefined;
    }
    try {
      const stat = await handle.stat();
      const mine = typeof process.getuid !== 'function' || stat.uid === process.getuid();
      if (!stat.isFile() || !mine || stat.mode & 0o022 || stat.size > maxBytes) return undefined;
      return await readInto(handle, Buffer.alloc(stat.size));
    } finally {
      await handle.close();
    }
  }

  remove(fileId: string): void {
    if (!this.dir) return;
    try {
      unlinkSync(join(this.dir, fileId));
    } catch {
      // never kept, or gone
    }
  }

  /** Ids of the uploads kept, for a restart to pick up those not indexed yet. */
  ids(): string[] {
    if (!this.dir) return [];
    try {
      return readdirSync(this.dir).filter((name) => /^file_[\w-]+$/.test(name));
    } catch {
      return [];
    }
  }
}

/** Characters that reorder how the text around them is shown ("\u202efdp.exe.md" shows as "dm.exe.pdf"). */
const BIDI_CONTROL = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
/** Characters that show as nothing, so that two names look the same. */
const INVISIBLE = /[\u00ad\u180e\u200b-\u200d\u2060-\u2064\ufeff]/g;
/** Letters of scripts (Persian, Indic, ...) and emoji, which zero-width (non-)joiners join. */
const JOINS = /[\p{L}\p{M}\p{Extended_Pictographic}\p{Emoji_Modifier}\ufe0f]/u;

/** Why an upload's name cannot be used, or undefined when it can. */
export function problemWithName(name: string): string | undefined {
  if (!name.trim()) return 'the file has no name';
  if ([...name].length > MAX_NAME) return `the file name is longer than ${MAX_NAME} characters`;
  if (/[/\\]/.test(name)) return 'the file name may not contain / or \\';
  if (/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/.test(name))
    return 'the file name may not contain control characters';
  const bidi = BIDI_CONTROL.exec(name);
  if (bidi) return `the file name may not contain bidirectional controls (${codePoint(bidi[0])})`;
  const invisible = invisibleIn(name);
  if (invisible) return `the file name may not contain invisible characters (${codePoint(invisible)})`;
  if (name === '.' || name === '..') return 'the file name may not be . or ..';
  return undefined;
}

/**
 * The first invisible character in `name`. A zero-width joiner or non-joiner between two
 * non-ASCII letters or emoji is part of how that script or emoji is written, and is allowed.
 */
function invisibleIn(name: string): string | undefined {
  for (const match of name.matchAll(INVISIBLE)) {
    const c = match[0];
    const before = [...name.slice(0, match.index)].at(-1) ?? '';
    const after = [...name.slice(match.index + 1)][0] ?? '';
    const joining = (c === '\u200c' || c === '\u200d') && [before, after].every(isJoinable);
    if (!joining) return c;
  }
  return undefined;
}

const isJoinable = (c: string) => c > '\u007f' && JOINS.test(c);

const codePoint = (c: string) => `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;

/** An upload over --max-file-size: 413, saying the size and the limit. */
export function uploadTooLarge(size: number | undefined, maxBytes: number): ServiceError {
  return new ServiceError(
    413,
    'file_too_large',
    `${size === undefined ? 'the file is' : `the file is ${formatBytes(size)},`} over the limit of ${formatBytes(maxBytes)} (kb serve --max-file-size)`,
  );
}

/**
 * The one path every upload takes (the console's and POST /v1/files): its name checked, its
 * bytes kept (with --data), then queued like a file from the docs folder: PENDING, indexed by
 * the same worker, FAILED with the same codes, file.indexed delivered the same way.
 */
export async function acceptUpload(
  deps: { store: Store; indexer: Indexer; uploads: UploadStore; maxFileBytes: number },
  workspaceId: string,
  name: string,
  bytes: Buffer,
): Promise<FileRecord> {
  const problem = problemWithName(name);
  if (problem) throw new ServiceError(422, 'invalid_filename', problem);
  if (bytes.length > deps.maxFileBytes) throw uploadTooLarge(bytes.length, deps.maxFileBytes);
  const id = newId('file');
  await deps.uploads.save(id, bytes);
  return deps.indexer.upload(workspaceId, name, bytes, id);
}

/** Deletes a workspace file: its record (it leaves the search index with it) and any bytes kept. */
export function deleteFile(deps: { store: Store; uploads: UploadStore }, file: FileRecord): void {
  deps.store.commit({ op: 'fileDeleted', id: file.id, at: now() });
  deps.uploads.remove(file.id);
}

/**
 * Uploads kept with --data whose indexing a stop cut short are queued again; bytes whose file
 * is gone are dropped. Returns how many were queued.
 */
export async function resumeUploads(deps: {
  store: Store;
  indexer: Indexer;
  uploads: UploadStore;
  maxFileBytes: number;
}): Promise<number> {
  let queued = 0;
  for (const id of deps.uploads.ids()) {
    const file = deps.store.files.get(id);
    if (!file) {
      deps.uploads.remove(id);
      continue;
    }
    if (file.indexingStatus !== 'PENDING' && file.indexingStatus !== 'PROCESSING') continue;
    const bytes = await deps.uploads.read(id, deps.maxFileBytes);
    if (!bytes) continue;
    deps.indexer.enqueue(file.workspaceId, [
      { filename: file.originalFilename, size: bytes.length, read: () => Promise.resolve(bytes), id },
    ]);
    queued++;
  }
  return queued;
}

/**
 * An upload's body, refused (413) past `maxBytes`: by its declared length before a byte is
 * read, else once it has arrived past the limit.
 */
export async function readUploadBody(request: Request, maxBytes: number): Promise<Buffer> {
  const declared = Number(request.headers.get('content-length') ?? Number.NaN);
  if (Number.isFinite(declared) && declared > maxBytes) throw uploadTooLarge(declared, maxBytes);
  const read = await readBoundedBody(request, maxBytes, maxBytes + DRAIN_PAST_LIMIT);
  if ('tooLarge' in read) throw uploadTooLarge(undefined, maxBytes);
  return read.bytes;
}
