import { createHash } from 'node:crypto';
import { type FSWatcher, readdirSync, readFileSync, statSync, watch } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { now } from './clock.js';
import { chunkText, extractText, mimeTypeFor } from './extract.js';
import { newId } from './ids.js';
import type { Chunk, FileRecord, FileSource, Operation } from './model.js';
import type { Store } from './store.js';
import { StorageError } from './journal.js';

/** How long to wait before trying again to store a change the disk refused. */
const STORAGE_RETRY_MS = 1000;
/**
 * A batch is at most this many files or bytes: its states are stored with one write each, and
 * indexing it holds the event loop for a few milliseconds at most, so a message never waits
 * behind more than one batch. Marking files PROCESSING is cheap, so those batches are larger.
 */
const BATCH = { files: 200, bytes: 64 * 1024 };
const START_BATCH = { files: 1000, bytes: Infinity };

export interface IndexerOptions {
  /** Pause before each pipeline step (PENDING -> PROCESSING -> done), so clients can see the states. */
  stepDelayMs: number;
  onIndexed?: (file: FileRecord) => void;
  /** After each batch, and once more when the queue is empty. */
  onProgress?: (progress: IndexingProgress) => void;
}

/** Where indexing stands since the queue was last empty. */
export interface IndexingProgress {
  done: number;
  total: number;
  bytesDone: number;
  startedAt: number;
  /** No file waits any more. */
  idle: boolean;
  /** When the queue became empty. */
  finishedAt?: number;
}

interface Job {
  id: string;
  generation: number;
  size: number;
  /** The file's bytes: an upload's, or read from the docs folder when its turn comes. */
  read: () => Buffer;
  /** Where a docs-folder file came from, so a restart can tell it unchanged. */
  source?: { path: string; mtimeMs: number };
  /** When the job may take its next step. */
  due: number;
}

type Outcome = Extract<Operation, { op: 'fileIndexed' | 'file' | 'fileDeleted' }>;

export interface Upload {
  filename: string;
  size: number;
  read: () => Buffer;
  id?: string;
  source?: { path: string; mtimeMs: number };
}

/**
 * The indexing pipeline: an upload becomes PENDING, then PROCESSING, then COMPLETED or FAILED.
 * Files move through it in bounded batches, off the request path: one pump takes the files
 * whose pause is over, stores each batch's new states in one write, and yields between batches.
 */
export class Indexer {
  readonly #watchers: FSWatcher[] = [];
  /** Upload generation per file id: a re-upload makes the older job stop. */
  readonly #generation = new Map<string, number>();
  /** Docs-folder files queued or being indexed, by path: a scan meanwhile leaves them be. */
  readonly #inFlight = new Map<string, { id: string; mtimeMs: number; size: number }>();
  readonly #waiting = new JobQueue();
  readonly #processing = new JobQueue();
  #timer: NodeJS.Timeout | NodeJS.Immediate | undefined;
  #scanTimer: NodeJS.Timeout | undefined;
  #closed = false;
  #idleWaiters: (() => void)[] = [];
  #progress: IndexingProgress = { done: 0, total: 0, bytesDone: 0, startedAt: 0, idle: true };

  constructor(
    private readonly store: Store,
    private readonly options: IndexerOptions,
  ) {}

  /** Records an upload and queues it. Returns the PENDING record. */
  upload(workspaceId: string, filename: string, bytes: Buffer, id?: string): FileRecord {
    return this.enqueue(workspaceId, [{ filename, size: bytes.length, read: () => bytes, id }])[0]!;
  }

  /** Records the uploads as PENDING with one write and queues them. */
  enqueue(workspaceId: string, uploads: Upload[]): FileRecord[] {
    const files = uploads.map((upload) => {
      const at = now();
      const id = upload.id ?? newId('file');
      const existing = this.store.files.get(id);
      const file: FileRecord = {
        id,
        workspaceId,
        originalFilename: upload.filename,
        fileSize: upload.size,
        mimeType: mimeTypeFor(upload.filename),
        indexingStatus: 'PENDING',
        createdAt: existing?.createdAt ?? at,
        updatedAt: at,
        indexingStartedAt: null,
        indexedAt: null,
        chunkCount: 0,
        indexingError: null,
        ...(existing?.source ? { source: existing.source } : {}),
      };
      return file;
    });
    this.store.commit(...files.map((file) => ({ op: 'file' as const, file })));
    if (this.#progress.idle)
      this.#progress = { done: 0, total: 0, bytesDone: 0, startedAt: Date.now(), idle: false };
    const due = Date.now() + this.options.stepDelayMs;
    uploads.forEach((upload, i) => {
      const id = files[i]!.id;
      const generation = (this.#generation.get(id) ?? 0) + 1;
      this.#generation.set(id, generation);
      this.#waiting.push({
        id,
        generation,
        size: upload.size,
        read: upload.read,
        source: upload.source,
        due,
      });
      if (upload.source)
        this.#inFlight.set(upload.source.path, { id, mtimeMs: upload.source.mtimeMs, size: upload.size });
      this.#progress.total++;
    });
    this.#wake(0);
    return files;
  }

  /** Resolves when no file is waiting in the pipeline. */
  idle(): Promise<void> {
    return this.#progress.idle
      ? Promise.resolve()
      : new Promise((resolve) => this.#idleWaiters.push(resolve));
  }

  progress(): IndexingProgress {
    return { ...this.#progress };
  }

  #wake(delayMs: number) {
    if (this.#closed || this.#timer) return;
    const run = () => {
      this.#timer = undefined;
      this.#pump();
    };
    // The next batch as soon as the events that came in meanwhile are handled (a timer of 0
    // would idle a millisecond per batch).
    this.#timer = delayMs > 0 ? setTimeout(run, delayMs) : setImmediate(run);
  }

  /** One batch of whichever step is due, then again (after the events that came in meanwhile). */
  #pump() {
    try {
      const moved = this.#finishDue() || this.#startDue();
      if (moved) return this.#wake(0);
    } catch (err) {
      if (!(err instanceof StorageError)) throw err;
      return this.#wake(STORAGE_RETRY_MS);
    }
    const next = Math.min(this.#waiting.peek()?.due ?? Infinity, this.#processing.peek()?.due ?? Infinity);
    if (Number.isFinite(next)) return this.#wake(Math.max(1, next - Date.now()));
    this.#progress.idle = true;
    this.#progress.finishedAt = Date.now();
    this.options.onProgress?.(this.progress());
    for (const resolve of this.#idleWaiters.splice(0)) resolve();
  }

  /** Takes from `queue` the first jobs that are due, up to a batch; drops those overtaken. */
  #batch(queue: JobQueue, limit: { files: number; bytes: number }): Job[] {
    const at = Date.now();
    const batch: Job[] = [];
    let bytes = 0;
    while ((queue.peek()?.due ?? Infinity) <= at && batch.length < limit.files && bytes < limit.bytes) {
      const job = queue.shift()!;
      if (this.#current(job)) {
        batch.push(job);
        bytes += job.size;
      } else this.#count(job, 0);
    }
    return batch;
  }

  #current(job: Job): FileRecord | undefined {
    const file = this.store.files.get(job.id);
    return file && !file.deletedAt && this.#generation.get(job.id) === job.generation ? file : undefined;
  }

  /** PENDING -> PROCESSING for a batch of due files. */
  #startDue(): boolean {
    const batch = this.#batch(this.#waiting, START_BATCH);
    if (!batch.length) return false;
    const at = now();
    const ops = batch.map((job) => ({
      op: 'file' as const,
      file: {
        ...this.#current(job)!,
        indexingStatus: 'PROCESSING' as const,
        indexingStartedAt: at,
        updatedAt: at,
      },
    }));
    try {
      this.store.commit(...ops);
    } catch (err) {
      this.#waiting.unshift(batch);
      throw err;
    }
    const due = Date.now() + this.options.stepDelayMs;
    for (const job of batch) this.#processing.push({ ...job, due });
    return true;
  }

  /** PROCESSING -> COMPLETED or FAILED for a batch of due files. */
  #finishDue(): boolean {
    const batch = this.#batch(this.#processing, BATCH);
    if (!batch.length) return false;
    const outcomes = batch.map((job) => this.#outcome(job, this.#current(job)!));
    try {
      this.store.commit(...outcomes.map((o) => o.op));
    } catch (err) {
      this.#processing.unshift(batch);
      throw err;
    }
    batch.forEach((job, i) => {
      const { op } = outcomes[i]!;
      if (op.op !== 'fileDeleted') this.options.onIndexed?.(op.file);
      this.#count(job, outcomes[i]!.bytes);
    });
    this.options.onProgress?.(this.progress());
    return true;
  }

  #count(job: Job, bytes: number) {
    this.#progress.done++;
    this.#progress.bytesDone += bytes;
    const path = job.source?.path;
    if (path && this.#inFlight.get(path)?.id === job.id && this.#generation.get(job.id) === job.generation)
      this.#inFlight.delete(path);
  }

  /** What processing a file comes to: its chunks, why it failed, or (gone from the folder) its removal. */
  #outcome(job: Job, current: FileRecord): { op: Outcome; bytes: number } {
    const at = now();
    let bytes: Buffer;
    try {
      bytes = job.read();
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT')
        return { op: { op: 'fileDeleted', id: job.id, at }, bytes: 0 };
      const message = `cannot read the file: ${(err as NodeJS.ErrnoException).code ?? String(err)}`;
      return { op: { op: 'file', file: failed(current, at, { code: 'unreadable', message }) }, bytes: 0 };
    }
    const source: FileSource | undefined = job.source && {
      ...job.source,
      size: bytes.length,
      sha256: sha256(bytes),
    };
    const base = { ...current, fileSize: bytes.length, ...(source ? { source } : {}) };
    const extraction = extractText(current.originalFilename, bytes);
    if (!extraction.ok)
      return { op: { op: 'file', file: failed(base, at, extraction.error) }, bytes: bytes.length };
    const chunks: Chunk[] = chunkText(extraction.text).map((text, n) => ({
      id: `${job.id}:${n}`,
      fileId: job.id,
      filename: current.originalFilename,
      text,
    }));
    const completed: FileRecord = {
      ...base,
      indexingStatus: 'COMPLETED',
      chunkCount: chunks.length,
      updatedAt: at,
      indexedAt: at,
    };
    return { op: { op: 'fileIndexed', file: completed, chunks }, bytes: bytes.length };
  }

  /** Ingests every file in `dir`, then each file added, changed or removed later. */
  watchFolder(workspaceId: string, dir: string): void {
    this.#scan(workspaceId, resolve(dir));
    // A new file is announced before its content is written: scan once things settle.
    const watcher = watch(dir, { persistent: false }, () => {
      clearTimeout(this.#scanTimer);
      this.#scanTimer = setTimeout(() => this.#scan(workspaceId, resolve(dir)), 100);
    });
    watcher.on('error', () => {});
    this.#watchers.push(watcher);
  }

  /**
   * Brings the workspace in line with `dir`: a new file is indexed; one whose size or mtime
   * changed is read, and indexed again only when its content did; one gone is removed.
   */
  #scan(workspaceId: string, dir: string) {
    let names: string[];
    try {
      names = readdirSync(dir).filter((name) => !name.startsWith('.'));
    } catch {
      return;
    }
    const { byPath, byNameAndSize } = this.#storedSources(workspaceId, dir);
    const uploads: Upload[] = [];
    const updates: Operation[] = [];
    const seen = new Set<string>();
    for (const name of names.sort()) {
      const path = join(dir, name);
      try {
        const stat = statSync(path);
        if (!stat.isFile()) continue;
        seen.add(path);
        const queued = this.#inFlight.get(path);
        if (queued && queued.mtimeMs === stat.mtimeMs && queued.size === stat.size) continue;
        // Stored by an older kb serve (no source yet): the same name and size is the same file.
        const known = byPath.get(path) ?? byNameAndSize.get(`${stat.size}:${name}`);
        const settled = known && (known.indexingStatus === 'COMPLETED' || known.indexingStatus === 'FAILED');
        if (settled && known.source?.size === stat.size && known.source.mtimeMs === stat.mtimeMs) continue;
        if (known && !known.source && settled) {
          updates.push(withSource(known, path, stat.mtimeMs, readFileSync(path)));
          continue;
        }
        if (known?.source && settled && known.source.size === stat.size) {
          // Touched, perhaps not changed: the content decides.
          const bytes = readFileSync(path);
          const same = sha256(bytes) === known.source.sha256;
          if (same) {
            updates.push(withSource(known, path, stat.mtimeMs, bytes));
            continue;
          }
        }
        uploads.push({
          filename: name,
          size: stat.size,
          id: known?.id,
          read: () => readFileSync(path),
          source: { path, mtimeMs: stat.mtimeMs },
        });
      } catch {
        // Vanished or unreadable between listing and reading: picked up by the next scan.
      }
    }
    for (const [path, file] of byPath) {
      if (!seen.has(path)) updates.push({ op: 'fileDeleted', id: file.id, at: now() });
    }
    try {
      if (updates.length) this.store.commit(...updates);
      for (let i = 0; i < uploads.length; i += 1000) this.enqueue(workspaceId, uploads.slice(i, i + 1000));
    } catch (err) {
      if (!(err instanceof StorageError)) throw err;
      // Once the disk has room again.
      clearTimeout(this.#scanTimer);
      this.#scanTimer = setTimeout(() => this.#scan(workspaceId, dir), STORAGE_RETRY_MS);
    }
  }

  /** The workspace's stored files from `dir`: by path, and (for older records) by name and size. */
  #storedSources(workspaceId: string, dir: string) {
    const byPath = new Map<string, FileRecord>();
    const byNameAndSize = new Map<string, FileRecord>();
    for (const file of this.store.files.values()) {
      if (file.workspaceId !== workspaceId || file.deletedAt) continue;
      if (file.source && dirname(file.source.path) === dir) byPath.set(file.source.path, file);
      else if (!file.source) {
        const key = `${file.fileSize}:${file.originalFilename}`;
        if (!byNameAndSize.has(key)) byNameAndSize.set(key, file);
      }
    }
    return { byPath, byNameAndSize };
  }

  close(): void {
    this.#closed = true;
    clearTimeout(this.#timer as NodeJS.Timeout);
    clearImmediate(this.#timer as NodeJS.Immediate);
    clearTimeout(this.#scanTimer);
    for (const watcher of this.#watchers) watcher.close();
  }
}

function failed(file: FileRecord, at: string, error: FileRecord['indexingError']): FileRecord {
  return { ...file, indexingStatus: 'FAILED', indexingError: error, updatedAt: at, indexedAt: at };
}

/** `file` with its source recorded as `path` as it is now (same content, new mtime). */
function withSource(file: FileRecord, path: string, mtimeMs: number, bytes: Buffer): Operation {
  const source = {
    path,
    mtimeMs,
    size: bytes.length,
    sha256: sha256(bytes),
  };
  return { op: 'file', file: { ...file, source } };
}

/** Jobs in the order they fall due (each queue's pause is the same for all): first in, first out. */
class JobQueue {
  #jobs: Job[] = [];
  #head = 0;

  push(job: Job): void {
    this.#jobs.push(job);
  }

  peek(): Job | undefined {
    return this.#jobs[this.#head];
  }

  shift(): Job | undefined {
    const job = this.#jobs[this.#head++];
    if (this.#head > 1024 && this.#head * 2 > this.#jobs.length) {
      this.#jobs = this.#jobs.slice(this.#head);
      this.#head = 0;
    }
    return job;
  }

  /** Puts a batch back at the front (its changes could not be stored). */
  unshift(jobs: Job[]): void {
    this.#jobs = [...jobs, ...this.#jobs.slice(this.#head)];
    this.#head = 0;
  }
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
