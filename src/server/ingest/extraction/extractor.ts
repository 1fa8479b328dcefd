import { Worker } from 'node:worker_threads';
import { builtScript } from '../../../util/built-script.js';
import { FairQueue } from '../fair-queue.js';
import type { TextChunk } from './chunk.js';
import type { OcrSettings } from './ocr-languages.js';
import type { ExtractResult, FileRead, FileToRead, WorkerJob, WorkerMessage } from './protocol.js';

export interface ExtractorOptions {
  /** How long one document may take (default 60 s); then the worker is replaced and the file FAILs. */
  timeoutMs?: number;
  /** The worker's heap (default 1536 MB); a document that needs more FAILs, kb serve does not. */
  heapMb?: number;
  /** The worker script (tests plant their own). */
  script?: string;
  /** How long the worker may sit idle before it is ended, its memory given back (default 30 s). */
  idleMs?: number;
  /** Scanned pages and images are read by OCR with these settings; without, they are not. */
  ocr?: OcrSettings;
  /** --max-file-size: a .gz that unpacks to more FAILs as too_large. */
  maxFileBytes?: number;
}

/** A scan's page about to be recognised: its number and the document's pages. */
export type OnPage = (page: number, pages: number) => void;

interface Pending {
  id: number;
  filename: string;
  input: Uint8Array | FileToRead;
  /** Of a FileToRead, once the worker has read it. */
  read?: FileRead;
  resolve: (result: ExtractResult) => void;
  onPage?: OnPage;
}

/**
 * The worker's young generation (V8's default for its heap is larger): what a document's reading
 * leaves is collected sooner. Measured (see SERVE_V8_FLAGS): peak RSS indexing 20,000 generated
 * documents 184 → 176 MB (8 MB: 167 MB), bench:real's documents 435-458 → 386-418 MB, indexed
 * as fast (8 MB: a tenth slower, PDFs making more short-lived garbage).
 */
const YOUNG_GENERATION_MB = 16;
/** How long a new worker may take to start listening, beyond a document's own deadline. */
const START_GRACE_MS = 30_000;
/**
 * Documents sent to the worker at once: it takes them in order, and has the next at hand when
 * it ends one, rather than waiting for kb serve's event loop (busy storing a batch) to send it.
 * At 20,000 documents, sent one at a time, the worker sat idle for more than half the time.
 * More indexed faster (20,000 documents in 19 s with 33 rather than 23 s) but left the event loop
 * no pause: a message's p95 while indexing (bench:scale) went 31 ms with 2 to 46 with 4, 77 with
 * 9, 100 with 33.
 */
const SENT_AHEAD = 2;
/**
 * Beyond SENT_AHEAD, small documents are sent while those sent hold less than this (and are
 * fewer than MAX_SENT_AHEAD): a few kilobytes take the worker well under a millisecond, so two
 * of them left it idle for the whole of a batch's store (20,000 generated documents: the worker
 * sat idle half the time, busy only while kb serve's event loop was not). Measured with
 * bench:scale's 20,000 documents: 12.0 → 10.2 s (64 KB: 10.9 s).
 */
const SENT_AHEAD_BYTES = 256 * 1024;
const MAX_SENT_AHEAD = 128;
/**
 * A worker with nothing to read for this long is ended, and the next document starts another
 * (a few hundred milliseconds): what it holds (pdf.js, and the OCR engine once a scan came, ~145
 * MB) is given back to a kb serve that runs all day between uploads.
 */
const IDLE_MS = 30_000;
/**
 * Extraction off the event loop: one worker thread, started on the first document that needs
 * it, is sent documents in turn across owners (workspaces), a few at a time, and reads them in
 * order: one workspace's slow documents make another's wait behind at most SENT_AHEAD of them
 * (or small ones, SENT_AHEAD_BYTES in all). A document that takes longer
 * than the limit, or that makes the worker run out of memory or crash, FAILs (`extract_timeout`,
 * `extract_crashed`); the worker is replaced and the documents waiting go on.
 */
export class Extractor {
  readonly #timeoutMs: number;
  /** Whether the current worker has said it listens (see `#arm`). */
  #ready = false;
  readonly #heapMb: number;
  readonly #script: string;
  readonly #ocr: OcrSettings | undefined;
  readonly #maxFileBytes: number | undefined;
  #worker: Worker | undefined;
  /** Not yet sent, by owner. */
  readonly #waiting = new FairQueue<Pending>();
  /** Sent to the worker, in order: it works on the first. */
  #sent: Pending[] = [];
  /** Sent to a worker that was lost before it got to them: sent again first. */
  #resend: Pending[] = [];
  /** The chunks of the first one sent so far. */
  #received: TextChunk[] = [];
  #timer: NodeJS.Timeout | undefined;
  readonly #idleMs: number;
  #idleTimer: NodeJS.Timeout | undefined;
  #nextId = 0;
  #closed = false;

  constructor(options: ExtractorOptions = {}) {
    this.#timeoutMs = options.timeoutMs ?? 60_000;
    this.#heapMb = options.heapMb ?? 1536;
    this.#script = options.script ?? workerScript();
    this.#ocr = options.ocr;
    this.#maxFileBytes = options.maxFileBytes;
    this.#idleMs = options.idleMs ?? IDLE_MS;
  }

  /** Whether a worker is running (started by a document, ended when idle). */
  get running(): boolean {
    return this.#worker !== undefined;
  }

  /**
   * The chunks of a document, or why it has none. Never rejects. `owner` (a workspace) takes
   * turns with the others. Bytes in shared memory are read by the worker where they are (so they
   * must not change until this resolves); others are copied when the document's turn comes. A
   * file to read is read by the worker.
   */
  extract(
    filename: string,
    input: Uint8Array | FileToRead,
    owner = '',
    onPage?: OnPage,
  ): Promise<ExtractResult> {
    if (this.#closed) return Promise.resolve(failure('extract_crashed', 'kb serve is stopping'));
    return new Promise((resolve) => {
      this.#waiting.push(owner, { id: this.#nextId++, filename, input, resolve, onPage });
      this.#sendNext();
    });
  }

  /** The documents next in turn to the worker, while it has few enough (see SENT_AHEAD_BYTES). */
  #sendNext(): void {
    while (this.#wantsMore() && !this.#closed) {
      const owner = this.#resend.length ? undefined : this.#waiting.nextOwner();
      const pending = owner === undefined ? this.#resend.shift() : this.#waiting.shift(owner);
      if (!pending) return;
      this.#send(pending);
    }
  }

  #wantsMore(): boolean {
    if (this.#sent.length < SENT_AHEAD) return true;
    if (this.#sent.length >= MAX_SENT_AHEAD) return false;
    let bytes = 0;
    for (const { input } of this.#sent) bytes += input instanceof Uint8Array ? input.byteLength : input.size;
    return bytes < SENT_AHEAD_BYTES;
  }

  #send(pending: Pending): void {
    const { input: bytes } = pending;
    let job: WorkerJob;
    if (!(bytes instanceof Uint8Array)) {
      job = { id: pending.id, filename: pending.filename, file: bytes };
    } else if (bytes.buffer instanceof SharedArrayBuffer) {
      job = {
        id: pending.id,
        filename: pending.filename,
        bytes: bytes.buffer,
        offset: bytes.byteOffset,
        length: bytes.byteLength,
      };
    } else {
      // A copy the worker takes over whole: the caller's stays as it is.
      const copy = new Uint8Array(bytes.byteLength);
      copy.set(bytes);
      job = {
        id: pending.id,
        filename: pending.filename,
        bytes: copy.buffer,
        offset: 0,
        length: copy.byteLength,
      };
    }
    clearTimeout(this.#idleTimer);
    this.#sent.push(pending);
    const worker = this.#ensureWorker();
    if (this.#sent.length === 1) this.#arm();
    worker.postMessage(job, 'bytes' in job && job.bytes instanceof ArrayBuffer ? [job.bytes] : []);
  }

  close(): void {
    this.#closed = true;
    clearTimeout(this.#timer);
    clearTimeout(this.#idleTimer);
    const all = [...this.#sent.splice(0), ...this.#resend.splice(0), ...this.#waiting.drain()];
    for (const pending of all) pending.resolve(failure('extract_crashed', 'kb serve is stopping'));
    void this.#worker?.terminate();
    this.#worker = undefined;
  }

  #ensureWorker(): Worker {
    if (this.#worker) return this.#worker;
    const worker = new Worker(this.#script, {
      resourceLimits: { maxOldGenerationSizeMb: this.#heapMb, maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
      workerData: { ocr: this.#ocr, maxFileBytes: this.#maxFileBytes },
      stdout: true,
      stderr: true,
    });
    worker.unref();
    // What pdf.js and the like print is not kb serve's to show.
    worker.stdout.resume();
    worker.stderr.resume();
    this.#ready = false;
    worker.on('message', (message: WorkerMessage) => this.#receive(worker, message));
    worker.on('error', (err) => this.#lost(worker, failure('extract_crashed', describeCrash(err))));
    worker.on('exit', (code) =>
      this.#lost(worker, failure('extract_crashed', `the extraction worker exited (${code})`)),
    );
    this.#worker = worker;
    return worker;
  }

  /**
   * The deadline of the document the worker is on (the first sent), from when the worker listens
   * or ended the one before: its start (a new worker loading its modules on a busy machine) is
   * not the document's, but is bounded too.
   */
  #arm(): void {
    clearTimeout(this.#timer);
    if (!this.#sent.length) return this.#retireWhenIdle();
    const worker = this.#worker;
    const ms = this.#ready ? this.#timeoutMs : this.#timeoutMs + START_GRACE_MS;
    this.#timer = setTimeout(() => {
      if (worker === this.#worker)
        this.#lost(
          worker,
          failure('extract_timeout', `reading the text took longer than ${this.#timeoutMs / 1000} s`),
        );
    }, ms);
    this.#timer.unref();
  }

  #receive(worker: Worker, message: WorkerMessage): void {
    if (worker !== this.#worker) return;
    if ('ready' in message) {
      this.#ready = true;
      return this.#arm();
    }
    const current = this.#sent[0];
    if (current?.id !== message.id) return;
    if ('page' in message) {
      // A scan's pages each get the document's time: OCR bounds the whole itself (OcrSettings).
      this.#arm();
      return current.onPage?.(message.page, message.pages);
    }
    if ('read' in message) {
      current.read = message.read;
      return;
    }
    if ('chunks' in message) {
      for (const chunk of message.chunks) this.#received.push(chunk);
      return;
    }
    const chunks = this.#received;
    this.#received = [];
    this.#sent.shift();
    this.#arm();
    const { read } = current;
    current.resolve(
      message.gone
        ? { ok: false, gone: true }
        : message.error
          ? { ok: false, error: message.error, ...(read ? { read } : {}) }
          : { ok: true, chunks, ...(message.ocr ? { ocr: message.ocr } : {}), ...(read ? { read } : {}) },
    );
    this.#sendNext();
  }

  /** Ends the worker once it has had nothing to read for `idleMs` (see IDLE_MS). */
  #retireWhenIdle(): void {
    clearTimeout(this.#idleTimer);
    const worker = this.#worker;
    if (!worker) return;
    this.#idleTimer = setTimeout(() => {
      if (worker !== this.#worker || this.#sent.length) return;
      this.#worker = undefined;
      void worker.terminate();
    }, this.#idleMs);
    this.#idleTimer.unref();
  }

  /** The worker is gone (or is being put down): its document FAILs, the rest go to a new one. */
  #lost(worker: Worker | undefined, result: ExtractResult): void {
    if (!worker || worker !== this.#worker) return;
    this.#worker = undefined;
    clearTimeout(this.#timer);
    void worker.terminate();
    const [current, ...unread] = this.#sent.splice(0);
    this.#resend.unshift(...unread);
    this.#received = [];
    current?.resolve(current.read && !result.ok && !result.gone ? { ...result, read: current.read } : result);
    this.#sendNext();
  }
}

const failure = (code: string, message: string): ExtractResult => ({ ok: false, error: { code, message } });

function describeCrash(err: Error): string {
  if ((err as NodeJS.ErrnoException).code === 'ERR_WORKER_OUT_OF_MEMORY')
    return 'reading the text needed more memory than the extraction worker may use';
  return `the extraction worker crashed: ${err.message}`;
}

/** The built worker: dist/server/ingest/extraction/worker.js of this package, wherever this module runs from. */
function workerScript(): string {
  return builtScript('server', 'ingest', 'extraction', 'worker.js');
}
