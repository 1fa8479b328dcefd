import { type FSWatcher, readdirSync, readFileSync, statSync, watch } from 'node:fs';
import { basename, join } from 'node:path';
import { now } from './clock.js';
import { chunkText, extractText, mimeTypeFor } from './extract.js';
import { newId } from './ids.js';
import type { Chunk, FileRecord } from './model.js';
import type { Store } from './store.js';
import { StorageError } from './journal.js';

/** How long to wait before trying again to store a change the disk refused. */
const STORAGE_RETRY_MS = 1000;

export interface IndexerOptions {
  /** Pause before each pipeline step (PENDING -> PROCESSING -> done), so clients can see the states. */
  stepDelayMs: number;
  onIndexed?: (file: FileRecord) => void;
}

/** The indexing pipeline: an upload becomes PENDING, then PROCESSING, then COMPLETED or FAILED. */
export class Indexer {
  readonly #timers = new Set<NodeJS.Timeout>();
  readonly #watchers: FSWatcher[] = [];
  /** Source path -> file id, so a changed document replaces its record. */
  readonly #sources = new Map<string, { id: string; mtimeMs: number; size: number }>();
  /** Upload generation per file id: a re-upload makes the older pipeline stop. */
  readonly #generation = new Map<string, number>();
  #scanTimer: NodeJS.Timeout | undefined;
  #pending = 0;
  #idleWaiters: (() => void)[] = [];

  constructor(
    private readonly store: Store,
    private readonly options: IndexerOptions,
  ) {}

  /** Records an upload and runs the pipeline on it. Returns the PENDING record. */
  upload(workspaceId: string, filename: string, bytes: Buffer, id = newId('file')): FileRecord {
    const at = now();
    const existing = this.store.files.get(id);
    const file: FileRecord = {
      id,
      workspaceId,
      originalFilename: filename,
      fileSize: bytes.length,
      mimeType: mimeTypeFor(filename),
      indexingStatus: 'PENDING',
      createdAt: existing?.createdAt ?? at,
      updatedAt: at,
      indexingStartedAt: null,
      indexedAt: null,
      chunkCount: 0,
      indexingError: null,
    };
    this.store.commit({ op: 'file', file });
    const generation = (this.#generation.get(id) ?? 0) + 1;
    this.#generation.set(id, generation);
    this.#pending++;
    this.#later(() => this.#process(file.id, bytes, generation));
    return file;
  }

  /** Runs `step` after the step delay; when its change cannot be stored (a full disk), again later. */
  #later(step: () => void, delayMs = this.options.stepDelayMs) {
    const timer = setTimeout(() => {
      this.#timers.delete(timer);
      try {
        step();
      } catch (err) {
        if (!(err instanceof StorageError)) throw err;
        this.#later(step, STORAGE_RETRY_MS);
      }
    }, delayMs);
    this.#timers.add(timer);
  }

  #current(id: string, generation: number) {
    const file = this.store.files.get(id);
    return file && !file.deletedAt && this.#generation.get(id) === generation ? file : undefined;
  }

  #process(id: string, bytes: Buffer, generation: number) {
    const file = this.#current(id, generation);
    if (!file) return this.#done();
    const started = {
      ...file,
      indexingStatus: 'PROCESSING' as const,
      indexingStartedAt: now(),
      updatedAt: now(),
    };
    this.store.commit({ op: 'file', file: started });
    this.#later(() => {
      const current = this.#current(id, generation);
      if (!current) return this.#done();
      const extraction = extractText(current.originalFilename, bytes);
      const at = now();
      if (!extraction.ok) {
        const failed: FileRecord = {
          ...current,
          indexingStatus: 'FAILED',
          indexingError: extraction.error,
          updatedAt: at,
          indexedAt: at,
        };
        this.store.commit({ op: 'file', file: failed });
        this.options.onIndexed?.(failed);
        return this.#done();
      }
      const chunks: Chunk[] = chunkText(extraction.text).map((text, n) => ({
        id: `${id}:${n}`,
        fileId: id,
        filename: current.originalFilename,
        text,
      }));
      const completed: FileRecord = {
        ...current,
        indexingStatus: 'COMPLETED',
        chunkCount: chunks.length,
        updatedAt: at,
        indexedAt: at,
      };
      this.store.commit({ op: 'fileIndexed', file: completed, chunks });
      this.options.onIndexed?.(completed);
      this.#done();
    });
  }

  #done() {
    this.#pending--;
    if (this.#pending === 0) for (const resolve of this.#idleWaiters.splice(0)) resolve();
  }

  /** Resolves when no file is waiting in the pipeline. */
  idle(): Promise<void> {
    return this.#pending === 0
      ? Promise.resolve()
      : new Promise((resolve) => this.#idleWaiters.push(resolve));
  }

  /** Ingests every file in `dir`, then each file added or changed later. */
  watchFolder(workspaceId: string, dir: string): void {
    this.#scan(workspaceId, dir);
    // A new file is announced before its content is written: scan once things settle.
    const watcher = watch(dir, { persistent: false }, () => {
      clearTimeout(this.#scanTimer);
      this.#scanTimer = setTimeout(() => this.#scan(workspaceId, dir), 100);
    });
    watcher.on('error', () => {});
    this.#watchers.push(watcher);
  }

  #scan(workspaceId: string, dir: string) {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return;
    }
    // Files stored before (from --data), by name and size: looked up once per scan, not once
    // per file (which made a scan of n files take n² steps).
    const stored = new Map<string, FileRecord>();
    for (const file of this.store.files.values()) {
      const key = `${file.fileSize}:${file.originalFilename}`;
      if (file.workspaceId === workspaceId && !stored.has(key)) stored.set(key, file);
    }
    for (const name of names.sort()) {
      if (name.startsWith('.')) continue;
      const path = join(dir, name);
      try {
        const stat = statSync(path);
        if (!stat.isFile()) continue;
        const known = this.#sources.get(path);
        if (known && known.mtimeMs === stat.mtimeMs && known.size === stat.size) continue;
        // A file already stored under the same name and size is not ingested again.
        const before = known ? undefined : stored.get(`${stat.size}:${name}`);
        if (before && (before.indexingStatus === 'COMPLETED' || before.indexingStatus === 'FAILED')) {
          this.#sources.set(path, { id: before.id, mtimeMs: stat.mtimeMs, size: stat.size });
          continue;
        }
        const existing = known ?? before;
        const bytes = readFileSync(path);
        const file = this.upload(workspaceId, basename(path), bytes, existing?.id);
        this.#sources.set(path, { id: file.id, mtimeMs: stat.mtimeMs, size: stat.size });
      } catch (err) {
        // A file that vanished or cannot be read between listing and reading is picked up next
        // time; one that could not be stored, once the disk has room again.
        if (err instanceof StorageError) {
          clearTimeout(this.#scanTimer);
          this.#scanTimer = setTimeout(() => this.#scan(workspaceId, dir), STORAGE_RETRY_MS);
        }
      }
    }
  }

  close(): void {
    clearTimeout(this.#scanTimer);
    for (const timer of this.#timers) clearTimeout(timer);
    for (const watcher of this.#watchers) watcher.close();
  }
}
