import type { ChunkVectors } from '../search/chunk-vectors.js';
import { now } from '../clock.js';
import { readFailure, type SeenFile, tooLarge } from './document-file.js';
import type { ExtractResult, FileToRead } from './extraction/protocol.js';
import { mimeTypeFor, READER_VERSION, readMimeTypeFor } from './extraction/document-types.js';
import { newId } from '../state/ids.js';
import type { Chunk, FileRecord, FileSource, IndexingError, Operation } from '../state/model.js';
import type { Store } from '../state/store.js';
import { StorageError } from '../state/storage-error.js';
import { FairQueue } from './fair-queue.js';
import { StoreTurns } from './store-turns.js';
import { sha256Sliced } from '../../util/hash.js';

/** How long to wait before trying again to store a change the disk refused. */
const STORAGE_RETRY_MS = 1000;
/**
 * A batch is at most this many files or bytes: its states are stored with one write each, and
 * indexing it holds the event loop ~13 ms (256 KiB: 25 ms, p95 38 ms), so a message never waits
 * long behind one (bench:scale, 20,000 documents: p95 while indexing 42 ms, 256 KiB 65 ms, index
 * all 8.6 s and 8.1 s). Marking files PROCESSING is cheap, so those batches are larger.
 */
const BATCH = { files: 500, bytes: 128 * 1024 };
const START_BATCH = { files: 1000, bytes: Infinity };
/**
 * Batches being read and extracted at once, per workspace (the worker reads the next while this
 * thread indexes one) and in all. A batch holds one workspace's files, and workspaces take turns:
 * one workspace's slow documents never hold another's back (the worker takes turns too).
 */
const IN_FLIGHT = 2;
const IN_FLIGHT_ALL = 8;
/**
 * A file whose chunks hold more text than this is stored and indexed a part at a time, each
 * part one write and a few milliseconds of indexing, with requests answered between parts.
 */
const PART_BYTES = 64 * 1024;
/** How many failures the progress names (the rest are counted). */
const NAMED_FAILURES = 100;
export const DEFAULT_MAX_FILE_BYTES = 100 * 1024 * 1024;

/**
 * Reads a document's text and chunks: the extraction worker, or in tests a function in this
 * thread. Workspaces take turns.
 */
export type ExtractDocument = (
  filename: string,
  /** Its bytes, or a docs-folder file to read (see readAndExtract). */
  input: Uint8Array | FileToRead,
  workspaceId: string,
  /** A scan's page about to be recognised (OCR). */
  onPage?: (page: number, pages: number) => void,
) => Promise<ExtractResult>;

export interface IndexerOptions {
  /** Pause before each pipeline step (PENDING -> PROCESSING -> done), so clients can see the states. */
  stepDelayMs: number;
  extract: ExtractDocument;
  /** Vectors for a file's chunks (an embeddings endpoint), or undefined when it fails: the file is then indexed without. */
  embed?: (chunks: Chunk[]) => Promise<Float32Array[] | undefined>;
  /** Where a file's vectors wait for its chunks to become searchable. */
  vectors?: Pick<ChunkVectors, 'stage'>;
  /** A change that could not be stored for a reason other than the disk (a defect): the batch is dropped. */
  onError?: (err: unknown) => void;
  /** Larger files FAIL as too_large without being read (default 100 MiB). */
  maxFileBytes?: number;
  onIndexed?: (file: FileRecord) => void;
  /** After each batch, and once more when the queue is empty. */
  onProgress?: (progress: IndexingProgress) => void;
  /** Whether requests are being handled: a batch is stored after them (see StoreTurns). */
  busy?: () => boolean;
}

/** A file that FAILED, as the console names it. */
export interface Failure {
  name: string;
  code: string;
  message: string;
}

/** Where indexing stands since the queue was last empty. */
export interface IndexingProgress {
  done: number;
  total: number;
  /** Bytes read and extracted. */
  bytesDone: number;
  /** The files' sizes as queued: of those done, and of all (what the time left is estimated by). */
  sizeDone: number;
  sizeTotal: number;
  /** Of `done`, those that FAILED, and the first of them by name. */
  failed: number;
  failures: Failure[];
  startedAt: number;
  /** No file waits any more. */
  idle: boolean;
  /** When the queue became empty. */
  finishedAt?: number;
  /** A scan whose pages are being recognised (OCR), and the page it is on. */
  scanning?: { name: string; page: number; pages: number };
}

/**
 * Where a file's bytes come from: an upload's, or a docs-folder file as the scan saw it, which
 * the extraction worker reads when its turn comes (nothing of it is held meanwhile but this).
 */
export type Content =
  { read: () => Promise<Buffer>; file?: undefined } | { file: SeenFile; read?: undefined };

type Job = Content & {
  id: string;
  workspaceId: string;
  generation: number;
  size: number;
  /** Where a docs-folder file came from, so a restart can tell it unchanged. */
  source?: { path: string; mtimeMs: number };
  /** Known to FAIL before it is read (a link out of the folder, a FIFO). */
  failure?: IndexingError;
  /** When the job may take its next step. */
  due: number;
};

/** Jobs taken for a step, with their records as stored (read with one query for all). */
type Batch = Map<Job, FileRecord>;

type Outcome = Extract<Operation, { op: 'fileIndexed' | 'file' | 'fileDeleted' }>;

export type Upload = Content & {
  filename: string;
  size: number;
  id?: string;
  source?: { path: string; mtimeMs: number };
  failure?: IndexingError;
  /** An upload (not a folder file): its record says so for good. */
  uploaded?: boolean;
};

/**
 * The indexing pipeline: an upload becomes PENDING, then PROCESSING, then COMPLETED or FAILED.
 * Files move through it in bounded batches, off the request path: one pump takes the files
 * whose pause is over, has their text read in the extraction worker, stores each batch's new
 * states in one write, and yields between batches. Nothing a document does ends the process.
 */
export class Indexer {
  /** Upload generation per file id: a re-upload makes the older job stop. */
  readonly #generation = new Map<string, number>();
  /** Docs-folder files queued or being indexed, by path: a scan meanwhile leaves them be. */
  readonly #inFlight = new Map<string, { id: string; mtimeMs: number; size: number }>();
  readonly #waiting = new JobQueue();
  /** By workspace, each in the order they fall due. */
  readonly #processing = new FairQueue<Job>();
  readonly #maxFileBytes: number;
  /** Batches being read and extracted, by workspace, and in all. */
  readonly #extracting = new Map<string, number>();
  #extractingAll = 0;
  #timer: NodeJS.Timeout | NodeJS.Immediate | undefined;
  #closed = false;
  #idleWaiters: (() => void)[] = [];
  /** Work under way that will queue files (see expecting). */
  #expected = 0;
  #progress: IndexingProgress = fresh(0);
  #idle = true;
  readonly #turns: StoreTurns;

  constructor(
    private readonly store: Store,
    private readonly options: IndexerOptions,
  ) {
    this.#maxFileBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
    this.#turns = new StoreTurns(options.busy);
  }

  /** Records an upload and queues it. Returns the PENDING record. */
  upload(workspaceId: string, filename: string, bytes: Buffer, id?: string): FileRecord {
    return this.enqueue(workspaceId, [
      { filename, size: bytes.length, read: () => Promise.resolve(bytes), id, uploaded: true },
    ])[0]!;
  }

  /** Records the uploads as PENDING with one write and queues them. */
  enqueue(workspaceId: string, uploads: Upload[]): FileRecord[] {
    const files = uploads.map((upload) => {
      const at = now();
      const id = upload.id ?? newId('file');
      // A new id has no record yet.
      const existing = upload.id === undefined ? undefined : this.store.storedFile(id);
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
        ...(upload.uploaded || existing?.uploaded ? { uploaded: true as const } : {}),
      };
      return file;
    });
    this.store.commit(...files.map((file) => ({ op: 'file' as const, file })));
    if (this.#idle) {
      this.#progress = fresh(Date.now());
      this.#idle = false;
    }
    const due = Date.now() + this.options.stepDelayMs;
    uploads.forEach((upload, i) => {
      const id = files[i]!.id;
      const generation = (this.#generation.get(id) ?? 0) + 1;
      this.#generation.set(id, generation);
      this.#waiting.push({
        id,
        workspaceId,
        generation,
        size: upload.size,
        ...(upload.file ? { file: upload.file } : { read: upload.read }),
        source: upload.source,
        failure: upload.failure,
        due,
      });
      if (upload.source)
        this.#inFlight.set(upload.source.path, { id, mtimeMs: upload.source.mtimeMs, size: upload.size });
      this.#progress.total++;
      this.#progress.sizeTotal += upload.size;
    });
    this.#wake(0);
    return files;
  }

  /** The docs-folder file queued at `path`, as it was when queued. */
  queued(path: string): { id: string; mtimeMs: number; size: number } | undefined {
    return this.#inFlight.get(path);
  }

  /** The paths of the docs-folder files queued or being indexed, with their file ids. */
  *queuedPaths(): Iterable<[path: string, id: string]> {
    for (const [path, { id }] of this.#inFlight) yield [path, id];
  }

  /** Resolves when no file is waiting in the pipeline, and no work that will queue some is under way. */
  idle(): Promise<void> {
    return this.#idle && this.#expected === 0
      ? Promise.resolve()
      : new Promise((resolve) => this.#idleWaiters.push(resolve));
  }

  /** Work that will queue files (a scan of the docs folder): until it ends, the pipeline is not idle. */
  async expecting(work: Promise<void>): Promise<void> {
    this.#expected++;
    try {
      await work;
    } finally {
      this.#expected--;
      // What it queued resolves the waiters once indexed; nothing queued, they go now.
      if (this.#idle && this.#expected === 0) for (const resolve of this.#idleWaiters.splice(0)) resolve();
    }
  }

  progress(): IndexingProgress {
    return { ...this.#progress, failures: [...this.#progress.failures], idle: this.#idle };
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
      if (this.#extractingAll < IN_FLIGHT_ALL) {
        const at = Date.now();
        const workspace = this.#processing.nextOwner(
          (ws, next) => next.due <= at && (this.#extracting.get(ws) ?? 0) < IN_FLIGHT,
        );
        if (workspace !== undefined) {
          const batch = this.#batch(
            { peek: () => this.#processing.peek(workspace), shift: () => this.#processing.shift(workspace) },
            BATCH,
          );
          if (batch.size) this.#extract(workspace, batch);
          return this.#wake(0);
        }
      }
      if (this.#startDue()) return this.#wake(0);
    } catch (err) {
      if (!(err instanceof StorageError)) throw err;
      return this.#wake(STORAGE_RETRY_MS);
    }
    // The next step to fall due, also while batches are in flight: a file behind a slow one of
    // another workspace goes when its pause is over (a workspace at its limit, when a batch ends).
    let next = this.#waiting.peek()?.due ?? Infinity;
    if (this.#extractingAll < IN_FLIGHT_ALL)
      for (const job of this.#processing.heads())
        if ((this.#extracting.get(job.workspaceId) ?? 0) < IN_FLIGHT) next = Math.min(next, job.due);
    if (Number.isFinite(next)) return this.#wake(Math.max(1, next - Date.now()));
    if (this.#extractingAll > 0) return;
    this.#idle = true;
    this.#progress.finishedAt = Date.now();
    this.options.onProgress?.(this.progress());
    if (this.#expected === 0) for (const resolve of this.#idleWaiters.splice(0)) resolve();
  }

  #extract(workspace: string, batch: Batch) {
    const count = (n: number) => {
      this.#extractingAll += n;
      const left = (this.#extracting.get(workspace) ?? 0) + n;
      if (left) this.#extracting.set(workspace, left);
      else this.#extracting.delete(workspace);
    };
    count(1);
    void this.#finish(batch)
      .catch((err: unknown) => this.options.onError?.(err))
      .finally(() => {
        count(-1);
        this.#wake(0);
      });
  }

  /** Takes from `queue` the first jobs that are due, up to a batch; drops those overtaken. */
  #batch(queue: Pick<JobQueue, 'peek' | 'shift'>, limit: { files: number; bytes: number }): Batch {
    const at = Date.now();
    const taken: Job[] = [];
    let bytes = 0;
    while ((queue.peek()?.due ?? Infinity) <= at && taken.length < limit.files && bytes < limit.bytes) {
      const job = queue.shift()!;
      taken.push(job);
      bytes += job.size;
    }
    const current = this.#current(taken);
    for (const job of taken) if (!current.has(job)) this.#count(job, 0);
    return current;
  }

  /**
   * Those of `jobs` still to be done, not deleted nor uploaded again since, with their records
   * (one query for all: a query per file per step was a tenth of indexing's time on this thread;
   * a record kept by each job waiting, ~250 bytes, was a tenth of the heap at 100,000 files).
   */
  #current(jobs: Iterable<Job>): Batch {
    const ours = [...jobs].filter((job) => this.#generation.get(job.id) === job.generation);
    if (!ours.length) return new Map();
    const live = this.store.liveFiles(ours.map((job) => job.id));
    return new Map(ours.flatMap((job) => (live.has(job.id) ? [[job, live.get(job.id)!] as const] : [])));
  }

  /** PENDING -> PROCESSING for a batch of due files. */
  #startDue(): boolean {
    const batch = this.#batch(this.#waiting, START_BATCH);
    if (!batch.size) return false;
    const at = now();
    const ops = [...batch.values()].map((record) => ({
      op: 'file' as const,
      file: { ...record, indexingStatus: 'PROCESSING' as const, indexingStartedAt: at, updatedAt: at },
    }));
    try {
      this.store.commit(...ops);
    } catch (err) {
      this.#waiting.unshift([...batch.keys()]);
      throw err;
    }
    const due = Date.now() + this.options.stepDelayMs;
    for (const job of batch.keys()) this.#processing.push(job.workspaceId, { ...job, due });
    return true;
  }

  /**
   * PROCESSING -> COMPLETED or FAILED for a batch: each file read and extracted, then the
   * outcomes of those still current stored with one write. Never rejects.
   */
  async #finish(taken: Batch): Promise<void> {
    const batch = [...taken.keys()];
    // The worker takes them in order; reading the next file overlaps extracting this one.
    const outcomes = await Promise.all([...taken].map(([job, record]) => this.#outcome(job, record)));
    for (const [i, outcome] of outcomes.entries())
      if (outcome.op.op === 'fileIndexed') await this.#storeParts(batch[i]!, outcome.op);
    if (this.#closed) return;
    let kept: { job: Job; outcome: { op: Outcome; bytes: number } }[];
    for (;;) {
      await this.#turns.next();
      if (this.#closed) return;
      // Taken again before each try: a file deleted or uploaded again while the disk refused
      // the write stays so (its parts are gone; it came back COMPLETED).
      const current = this.#current(batch);
      kept = batch.map((job, i) => ({ job, outcome: outcomes[i]! })).filter(({ job }) => current.has(job));
      try {
        this.store.commit(...kept.map(({ outcome }) => outcome.op));
        break;
      } catch (err) {
        if (!(err instanceof StorageError)) {
          // Nothing a document does may end the process.
          this.options.onError?.(err);
          break;
        }
        await new Promise((resolve) => setTimeout(resolve, STORAGE_RETRY_MS));
        if (this.#closed) return;
      }
    }
    const stored = new Set(kept.map(({ job }) => job));
    for (const job of batch) if (!stored.has(job)) this.#count(job, 0);
    for (const { job, outcome } of kept) {
      const { op } = outcome;
      if (op.op !== 'fileDeleted') {
        this.options.onIndexed?.(op.file);
        if (op.file.indexingStatus === 'FAILED') this.#failed(op.file);
      }
      this.#count(job, outcome.bytes);
    }
    this.options.onProgress?.(this.progress());
  }

  /**
   * Stores all but the last part of a large file's chunks (not searchable until its
   * fileIndexed), yielding between parts; leaves the last part in `op`.
   */
  async #storeParts(job: Job, op: Extract<Operation, { op: 'fileIndexed' }>): Promise<void> {
    const parts: Chunk[][] = [[]];
    let bytes = 0;
    for (const chunk of op.chunks) {
      if (bytes >= PART_BYTES) {
        parts.push([]);
        bytes = 0;
      }
      parts.at(-1)!.push(chunk);
      bytes += chunk.text.length;
    }
    if (parts.length === 1) return;
    op.chunks = parts.pop()!;
    for (const part of parts) {
      for (;;) {
        await this.#turns.next();
        if (this.#closed || !this.#current([job]).size) return;
        try {
          this.store.commit({ op: 'fileChunks', fileId: job.id, chunks: part });
          break;
        } catch (err) {
          if (!(err instanceof StorageError)) throw err;
          await new Promise((resolve) => setTimeout(resolve, STORAGE_RETRY_MS));
        }
      }
    }
  }

  #failed(file: FileRecord) {
    this.#progress.failed++;
    if (this.#progress.failures.length < NAMED_FAILURES)
      this.#progress.failures.push({
        name: file.originalFilename,
        code: file.indexingError?.code ?? 'unknown',
        message: file.indexingError?.message ?? '',
      });
  }

  #count(job: Job, bytes: number) {
    this.#progress.done++;
    this.#progress.bytesDone += bytes;
    this.#progress.sizeDone += job.size;
    const path = job.source?.path;
    if (path && this.#inFlight.get(path)?.id === job.id && this.#generation.get(job.id) === job.generation)
      this.#inFlight.delete(path);
  }

  /** What processing a file comes to: its chunks, why it failed, or (gone from the folder) its removal. */
  async #outcome(job: Job, current: FileRecord): Promise<{ op: Outcome; bytes: number }> {
    // Its batch was taken just now, of files still to be done; those overtaken meanwhile are
    // left out when the outcomes are stored.
    const at = () => now();
    if (job.failure) {
      // With its path, so that the next scan finds it refused already rather than recording it again.
      const source = job.source && { ...job.source, size: 0, sha256: '', reader: READER_VERSION };
      const file = failed({ ...current, ...(source ? { source } : {}) }, at(), job.failure);
      return { op: { op: 'file', file }, bytes: 0 };
    }
    let input: Buffer | FileToRead;
    try {
      if (job.size > this.#maxFileBytes) throw tooLarge(job.size, this.#maxFileBytes);
      if (job.file) input = { ...job.file, size: job.size, maxBytes: this.#maxFileBytes };
      else {
        input = await job.read();
        if (input.length > this.#maxFileBytes) throw tooLarge(input.length, this.#maxFileBytes);
      }
    } catch (err) {
      const failure = readFailure(err);
      if ('gone' in failure) return { op: { op: 'fileDeleted', id: job.id, at: at() }, bytes: 0 };
      return { op: { op: 'file', file: failed(current, at(), failure.error) }, bytes: 0 };
    }
    const name = current.originalFilename;
    const extraction = await this.options.extract(name, input, current.workspaceId, (page, pages) => {
      this.#progress.scanning = { name, page, pages };
    });
    if (this.#progress.scanning?.name === name) delete this.#progress.scanning;
    if (extraction.gone) return { op: { op: 'fileDeleted', id: job.id, at: at() }, bytes: 0 };
    // Read here, or by the worker; not read at all, it failed as the file it is.
    const read =
      input instanceof Buffer
        ? { size: input.length, sha256: job.source ? await sha256Sliced(input) : '' }
        : extraction.read;
    if (!read) {
      // The worker could not read it (or ended before it did): it failed as the file it is.
      const error = extraction.ok
        ? { code: 'unreadable', message: 'the file was not read' }
        : extraction.error;
      return { op: { op: 'file', file: failed(current, at(), error) }, bytes: 0 };
    }
    const source: FileSource | undefined = job.source && { ...job.source, ...read, reader: READER_VERSION };
    const base: FileRecord = { ...current, fileSize: read.size, ...(source ? { source } : {}) };
    // What an earlier reading recognised is not this one's.
    delete base.ocr;
    if (!extraction.ok)
      return { op: { op: 'file', file: failed(base, at(), extraction.error) }, bytes: read.size };
    const chunks: Chunk[] = extraction.chunks.map((chunk, n) => ({
      id: `${job.id}:${n}`,
      fileId: job.id,
      filename: current.originalFilename,
      text: chunk.text,
      ...(chunk.pages ? { pages: chunk.pages } : {}),
      ...(chunk.indexed ? { indexed: chunk.indexed } : {}),
    }));
    const completed: FileRecord = {
      ...base,
      indexingStatus: 'COMPLETED',
      mimeType: readMimeTypeFor(current.originalFilename),
      chunkCount: chunks.length,
      ...(extraction.ocr ? { ocr: extraction.ocr } : {}),
      updatedAt: at(),
      indexedAt: at(),
    };
    // COMPLETED only with its vectors, when there is an embeddings endpoint that answers.
    const vectors = this.options.embed && (await this.options.embed(chunks));
    if (vectors) this.options.vectors?.stage(job.id, vectors);
    return { op: { op: 'fileIndexed', file: completed, chunks }, bytes: read.size };
  }

  close(): void {
    this.#closed = true;
    clearTimeout(this.#timer as NodeJS.Timeout);
    clearImmediate(this.#timer as NodeJS.Immediate);
  }
}

const fresh = (startedAt: number): IndexingProgress => ({
  done: 0,
  total: 0,
  bytesDone: 0,
  sizeDone: 0,
  sizeTotal: 0,
  failed: 0,
  failures: [],
  startedAt,
  idle: false,
});

function failed(file: FileRecord, at: string, error: FileRecord['indexingError']): FileRecord {
  return { ...file, indexingStatus: 'FAILED', indexingError: error, updatedAt: at, indexedAt: null };
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
