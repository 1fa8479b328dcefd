import { formatBytes } from './document-file.js';
import { now } from '../clock.js';
import { newId } from '../state/ids.js';
import type { Indexer } from './indexer.js';
import type { FileRecord } from '../state/model.js';
import type { Store } from '../state/store.js';
import type { UploadStore } from './upload-store.js';

/** How much of an upload past the limit is still read, so the client hears it refused (file_too_large). */
const DRAIN_PAST_LIMIT = 16 * 1024 * 1024;

/** The longest file name an upload may have, in characters. */
const MAX_NAME = 255;

/** Uploads being received at once may hold this many times --max-file-size between them. */
export const UPLOADS_IN_FLIGHT = 4;

/** The slowest an upload's body may come on average: its deadline is the idle bound plus its size at this rate. */
export const UPLOAD_MIN_BYTES_PER_SECOND = 64 * 1024;

/** How long an upload of `bytes` may take to arrive, its idle bound included. */
export function uploadDeadlineMs(bytes: number, idleMs: number): number {
  return idleMs + Math.ceil((bytes / UPLOAD_MIN_BYTES_PER_SECOND) * 1000);
}

/**
 * The bytes of uploads being received, across all requests: each reserves its declared length
 * (or, without one, the most it may be) before a byte is read, and gives it back when it ends.
 * One workspace may hold at most half of the limit, so that another's uploads always have room.
 */
export class UploadBudget {
  #reserved = 0;
  readonly #byWorkspace = new Map<string, number>();
  readonly perWorkspace: number;
  constructor(readonly limit: number) {
    this.perWorkspace = Math.floor(limit / 2);
  }

  /** Reserves `bytes` for `workspaceId`; else (nothing reserved) why not: all of it, or the workspace's share, taken. */
  reserve(workspaceId: string, bytes: number): 'all' | 'workspace' | undefined {
    const mine = this.#byWorkspace.get(workspaceId) ?? 0;
    if (this.#reserved + bytes > this.limit) return 'all';
    if (mine + bytes > this.perWorkspace) return 'workspace';
    this.#reserved += bytes;
    this.#byWorkspace.set(workspaceId, mine + bytes);
    return undefined;
  }

  release(workspaceId: string, bytes: number): void {
    this.#reserved -= bytes;
    const left = (this.#byWorkspace.get(workspaceId) ?? 0) - bytes;
    if (left > 0) this.#byWorkspace.set(workspaceId, left);
    else this.#byWorkspace.delete(workspaceId);
  }
}

/** Characters that reorder how the text around them is shown ("\u202efdp.exe.md" shows as "dm.exe.pdf"). */
const BIDI_CONTROL = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
/** Characters that show as nothing (or as blank space: the Hangul fillers), so that two names look the same. */
const INVISIBLE = /[\u00ad\u115f\u180e\u200b-\u200d\u2060-\u2064\u3164\ufeff\uffa0]|\u034f|\u1160/g;
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

/** Why an upload was refused (http/refusals.ts gives each its status). */
export type UploadRefusal =
  'invalid_filename' | 'file_too_large' | 'uploads_busy' | 'storage_unavailable' | 'upload_incomplete';

/** An upload refused, nothing of it kept: `code` says why, the message says it to the user. */
export class UploadRefused extends Error {
  constructor(
    readonly code: UploadRefusal,
    message: string,
    /** When trying again may work (uploads_busy). */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

/** An upload over --max-file-size, saying the size and the limit. */
function uploadTooLarge(size: number | undefined, maxBytes: number): UploadRefused {
  return new UploadRefused(
    'file_too_large',
    `${size === undefined ? 'the file is' : `the file is ${formatBytes(size)},`} over the limit of ${formatBytes(maxBytes)} (kb serve --max-file-size)`,
  );
}

/** More uploads are being received than the service takes at once (from this workspace). */
function uploadsBusy(budget: UploadBudget, taken: 'all' | 'workspace'): UploadRefused {
  return new UploadRefused(
    'uploads_busy',
    taken === 'workspace'
      ? `uploads of ${formatBytes(budget.perWorkspace)} are being received for this workspace already (half of ${UPLOADS_IN_FLIGHT} × --max-file-size at most at once); try again shortly`
      : `uploads of ${formatBytes(budget.limit)} are being received already (${UPLOADS_IN_FLIGHT} × --max-file-size at most at once); try again shortly`,
    2,
  );
}

export interface UploadDeps {
  store: Store;
  indexer: Indexer;
  uploads: UploadStore;
  uploadBudget: UploadBudget;
  maxFileBytes: number;
  /**
   * An upload from which no byte comes for this long is ended (upload_incomplete), as is
   * one not complete by its deadline (uploadDeadlineMs).
   */
  uploadIdleMs: number;
}

/**
 * The one path every upload takes (the console's and POST /v1/files): its name checked, its
 * bytes written to disk as they arrive (UploadRefused past --max-file-size, past the uploads in
 * flight or when the disk refuses them), then queued like a file from the docs folder, read
 * from disk when its turn comes: PENDING, indexed by the same worker, FAILED with the same
 * codes, file.indexed delivered the same way.
 */
export async function acceptUpload(
  deps: UploadDeps,
  workspaceId: string,
  name: string,
  request: Request,
): Promise<FileRecord> {
  const problem = problemWithName(name);
  if (problem) throw new UploadRefused('invalid_filename', problem);
  const declared = Number(request.headers.get('content-length') ?? Number.NaN);
  const known = Number.isSafeInteger(declared) && declared >= 0;
  if (known && declared > deps.maxFileBytes) throw uploadTooLarge(declared, deps.maxFileBytes);
  const reserved = known ? declared : deps.maxFileBytes;
  const taken = deps.uploadBudget.reserve(workspaceId, reserved);
  if (taken) throw uploadsBusy(deps.uploadBudget, taken);
  const id = newId('file');
  let received;
  try {
    received = await deps.uploads.receive(
      id,
      request.body,
      deps.maxFileBytes,
      deps.maxFileBytes + DRAIN_PAST_LIMIT,
      deps.uploadIdleMs,
      uploadDeadlineMs(reserved, deps.uploadIdleMs),
    );
  } finally {
    deps.uploadBudget.release(workspaceId, reserved);
  }
  if ('tooLarge' in received) throw uploadTooLarge(undefined, deps.maxFileBytes);
  if ('storage' in received)
    throw new UploadRefused(
      'storage_unavailable',
      'the disk refused the upload (full, read-only, an I/O error)',
    );
  if ('aborted' in received)
    throw new UploadRefused(
      'upload_incomplete',
      'the upload ended (or stalled, or came too slowly) before its body did; nothing was kept',
    );
  try {
    return deps.indexer.enqueue(workspaceId, [
      {
        filename: name,
        size: received.size,
        read: () => deps.uploads.read(id, deps.maxFileBytes),
        id,
        uploaded: true,
      },
    ])[0]!;
  } catch (err) {
    deps.uploads.remove(id);
    throw err;
  }
}

/** Deletes a workspace file: its record (it leaves the search index with it) and any bytes kept. */
export function deleteFile(deps: { store: Store; uploads: UploadStore }, file: FileRecord): void {
  deps.store.commit({ op: 'fileDeleted', id: file.id, at: now() });
  deps.uploads.remove(file.id);
}

/**
 * Uploads kept with --data whose indexing a stop cut short are queued again, to be read from
 * disk when their turn comes; bytes whose file is gone are dropped. Returns how many were queued.
 */
export function resumeUploads(deps: UploadDeps): number {
  let queued = 0;
  for (const id of deps.uploads.ids()) {
    const file = deps.store.storedFile(id);
    if (!file || file.deletedAt) {
      deps.uploads.remove(id);
      continue;
    }
    if (file.indexingStatus !== 'PENDING' && file.indexingStatus !== 'PROCESSING') continue;
    deps.indexer.enqueue(file.workspaceId, [
      {
        filename: file.originalFilename,
        size: file.fileSize,
        read: () => deps.uploads.read(id, deps.maxFileBytes),
        id,
        uploaded: true,
      },
    ]);
    queued++;
  }
  return queued;
}
