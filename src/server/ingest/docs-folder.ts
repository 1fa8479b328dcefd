import { type FSWatcher, realpathSync, statSync, watch } from 'node:fs';
import { basename, resolve, sep } from 'node:path';
import { now } from '../clock.js';
import { readDocumentFile } from './document-file.js';
import { READER_VERSION } from './extraction/document-types.js';
import { scanFolder } from './folder-scan.js';
import { type Indexer, type Upload } from './indexer.js';
import { sha256Sliced } from '../../util/hash.js';
import type { FileRecord, Operation } from '../state/model.js';
import type { Store } from '../state/store.js';
import { StorageError } from '../state/storage-error.js';

/** How long to wait before trying again to store a change the disk refused. */
const STORAGE_RETRY_MS = 1000;
/** A new file is announced before its content is written: scan once things settle. */
const SETTLE_MS = 100;
/** How often the folder itself is looked at: removed, or removed and made again, it is followed anew. */
const ROOT_POLL_MS = 1000;
/**
 * A scan compares this many of the folder's files with their records (each looked up in the
 * database, a few milliseconds in all) before it lets other work run.
 */
const FILES_AT_A_TIME = 500;
/**
 * A scan queues this many files with one write (~10 ms) before it lets other work run: queuing
 * bench/scale.js's 20,000 at once held the event loop for 0.76 s.
 */
const QUEUED_AT_A_TIME = 250;
/** Stored paths read at a time to find the files gone from the folder. */
const PATHS_PAGE = 1000;

export interface DocsFolderOptions {
  /** kb serve's own files (the database, its -wal and -shm, the uploads folder), never documents even inside the folder. */
  isOwn: (path: string) => boolean;
  maxFileBytes: number;
  /** Whether bytes of an upload are kept under this file id. */
  isUpload: (fileId: string) => boolean;
  /** After each scan: how many entries were skipped (hidden, links within the folder, kb serve's own). */
  onScan?: (scan: { skipped: number; missing: boolean }) => void;
}

/**
 * A folder whose documents are the workspace's files: each file below it (subfolders too) is
 * indexed, one added, changed or removed later is indexed again or deleted, and a folder that
 * is removed and made again is followed again.
 */
export class DocsFolder {
  readonly #root: string;
  readonly #watchers = new Map<string, { watcher: FSWatcher; identity: string }>();
  #scanTimer: NodeJS.Timeout | undefined;
  #pollTimer: NodeJS.Timeout | undefined;
  #identity = '';
  #closed = false;
  #scanning = false;
  #again = false;

  constructor(
    private readonly store: Store,
    private readonly indexer: Indexer,
    private readonly workspaceId: string,
    dir: string,
    private readonly options: DocsFolderOptions,
  ) {
    // Paths below it are compared with kb serve's own files': both with the links on the way resolved.
    try {
      this.#root = realpathSync(dir);
    } catch {
      this.#root = resolve(dir);
    }
  }

  start(): void {
    this.#identity = identityOf(this.#root);
    this.#scan();
    this.#pollTimer = setInterval(() => {
      const identity = identityOf(this.#root);
      if (identity === this.#identity) return;
      this.#identity = identity;
      this.#scanSoon();
    }, ROOT_POLL_MS);
    this.#pollTimer.unref();
  }

  close(): void {
    this.#closed = true;
    clearTimeout(this.#scanTimer);
    clearInterval(this.#pollTimer);
    for (const { watcher } of this.#watchers.values()) watcher.close();
    this.#watchers.clear();
  }

  #scanSoon(): void {
    if (this.#closed) return;
    clearTimeout(this.#scanTimer);
    this.#scanTimer = setTimeout(() => this.#scan(), SETTLE_MS);
  }

  /**
   * Brings the workspace in line with the folder: a new file is indexed; one whose size or
   * mtime changed is read, and indexed again only when its content did; one gone is removed.
   * One scan at a time: asked for during one, another follows it.
   */
  #scan(): void {
    if (this.#closed) return;
    if (this.#scanning) {
      this.#again = true;
      return;
    }
    this.#scanning = true;
    void this.indexer.expecting(this.#bringInLine()).finally(() => {
      this.#scanning = false;
      if (!this.#again) return;
      this.#again = false;
      this.#scan();
    });
  }

  async #bringInLine(): Promise<void> {
    let scan;
    try {
      scan = await scanFolder(this.#root, this.options.isOwn, (dir) => this.#watch(dir));
    } catch {
      return this.#retry();
    }
    if (this.#closed) return;
    this.#unwatchAllBut(scan.folders);
    const prefix = this.#root + sep;
    const atPath = (path: string) => this.store.fileAtPath(this.workspaceId, path);
    const byNameAndSize = this.#storedWithoutSource();
    const uploads: Upload[] = [];
    const updates: Operation[] = [];
    const seen = new Set<string>();
    for (const entry of scan.refused) {
      seen.add(entry.path);
      const known = atPath(entry.path);
      if (known?.indexingError?.code === entry.error.code) continue;
      // Queued already as refused (a refusal is queued with no size and no time).
      const queued = this.indexer.queued(entry.path);
      if (queued && queued.size === 0 && queued.mtimeMs === 0) continue;
      uploads.push({
        filename: entry.name,
        size: 0,
        id: known?.id,
        read: () => Promise.resolve(Buffer.alloc(0)),
        source: { path: entry.path, mtimeMs: 0 },
        failure: entry.error,
      });
    }
    // Queued as they come, QUEUED_AT_A_TIME with one write, and the scan's entry of each file let
    // go once looked at (taken from the end of the list reversed): 100,000 files held both, all
    // of them, while the first were indexed (~25 MB).
    const queue = () => {
      if (uploads.length) this.indexer.enqueue(this.workspaceId, uploads.splice(0));
    };
    const files = scan.files.reverse();
    let compared = 0;
    for (let file = files.pop(); file; file = files.pop()) {
      if (uploads.length >= QUEUED_AT_A_TIME || ++compared % FILES_AT_A_TIME === 0) {
        if (!this.#stored(queue)) return this.#retry();
        await new Promise((resolve) => setImmediate(resolve));
        if (this.#closed) return;
      }
      seen.add(file.path);
      const queued = this.indexer.queued(file.path);
      if (queued && queued.mtimeMs === file.mtimeMs && queued.size === file.size) continue;
      // Stored by an older kb serve (no source yet): the same name and size is the same file
      // (never an upload: see #storedWithoutSource).
      const known = atPath(file.path) ?? byNameAndSize.get(`${file.size}:${file.name}`);
      // Settled, and read as this version reads: a file read by an older kb is read again.
      const settled =
        known &&
        (known.indexingStatus === 'COMPLETED' || known.indexingStatus === 'FAILED') &&
        known.source?.reader === READER_VERSION;
      if (settled && known.source?.size === file.size && known.source.mtimeMs === file.mtimeMs) continue;
      uploads.push({
        filename: file.name,
        size: file.size,
        // Queued, and stored without its path until indexed: changed meanwhile, it keeps its record.
        id: known?.id ?? queued?.id,
        file: { path: file.path, dev: file.dev, ino: file.ino },
        source: { path: file.path, mtimeMs: file.mtimeMs },
      });
      if (settled && known.source?.size === file.size) {
        // Touched, perhaps not changed: the content decides, once read.
        const upload = uploads.pop()!;
        void this.#unlessUnchanged(known, upload);
      }
    }
    // Stored with a path in the folder, and gone from it (such paths sort together, after `prefix`),
    // a page at a time with other work run between: 100,000 paths read at once held the event
    // loop for 160 ms.
    for (let after = prefix; after.startsWith(prefix);) {
      const page = this.store.sourcePaths(this.workspaceId, after, PATHS_PAGE);
      for (const [path, id] of page)
        if (path.startsWith(prefix) && !seen.has(path)) updates.push({ op: 'fileDeleted', id, at: now() });
      if (page.length < PATHS_PAGE) break;
      after = page.at(-1)![0];
      await new Promise((resolve) => setImmediate(resolve));
      if (this.#closed) return;
    }
    // Queued and not yet stored with its path (perhaps read already): gone, it is deleted too.
    for (const [path, id] of this.indexer.queuedPaths()) {
      if (seen.has(path) || !path.startsWith(prefix) || atPath(path)) continue;
      const file = this.store.storedFile(id);
      if (file && !file.deletedAt && file.workspaceId === this.workspaceId)
        updates.push({ op: 'fileDeleted', id, at: now() });
    }
    const stored = this.#stored(() => {
      // Of those still there: one may have been deleted meanwhile (DELETE /v1/files).
      const live = updates.filter(
        (op) => op.op !== 'fileDeleted' || !this.store.storedFile(op.id)?.deletedAt,
      );
      if (live.length) this.store.commit(...live);
      queue();
    });
    if (!stored) return this.#retry();
    this.options.onScan?.({ skipped: scan.skipped, missing: scan.missing });
  }

  /** Whether `write` was stored: false when the disk refused it (the scan is tried again later). */
  #stored(write: () => void): boolean {
    try {
      write();
      return true;
    } catch (err) {
      if (!(err instanceof StorageError)) throw err;
      return false;
    }
  }

  /** A touched file whose bytes are the ones indexed keeps its index (its new mtime is noted); else it is indexed again. */
  async #unlessUnchanged(known: FileRecord, upload: Upload): Promise<void> {
    let bytes: Buffer;
    try {
      bytes = upload.file
        ? await readDocumentFile(upload.file, this.options.maxFileBytes)
        : await upload.read();
    } catch {
      bytes = Buffer.alloc(0);
    }
    if (this.#closed) return;
    try {
      if (bytes.length && (await sha256Sliced(bytes)) === known.source?.sha256) {
        const source = { ...known.source, mtimeMs: upload.source!.mtimeMs };
        this.store.commit({ op: 'file', file: { ...known, source } });
      } else this.indexer.enqueue(this.workspaceId, [upload]);
    } catch (err) {
      if (!(err instanceof StorageError)) throw err;
      this.#retry();
    }
  }

  #retry(): void {
    clearTimeout(this.#scanTimer);
    this.#scanTimer = setTimeout(() => this.#scan(), STORAGE_RETRY_MS);
  }

  /**
   * Watches a folder the scan is about to list, unless it is watched already: so a change made
   * after the listing is seen. A folder removed and made again at the same path is another one:
   * the old one's watcher (which sees nothing any more) is closed.
   */
  #watch(dir: string): void {
    const identity = identityOf(dir);
    const watched = this.#watchers.get(dir);
    if (watched?.identity === identity) return;
    watched?.watcher.close();
    this.#watchers.delete(dir);
    if (identity === 'missing') return;
    try {
      const drop = () => {
        watcher.close();
        if (this.#watchers.get(dir)?.watcher === watcher) this.#watchers.delete(dir);
      };
      const watcher = watch(dir, { persistent: false }, (_event, name) => {
        // Named after the folder itself: it may be the folder that went (inotify says so),
        // and its watcher with it: the scan makes a new one.
        if (name === basename(dir)) drop();
        this.#scanSoon();
      });
      watcher.on('error', () => {
        drop();
        this.#scanSoon();
      });
      this.#watchers.set(dir, { watcher, identity });
    } catch {
      // Gone already, or out of watches: the root poll and the next scan still see changes.
    }
  }

  /** Closes the watchers of folders the last scan did not walk (gone). */
  #unwatchAllBut(folders: string[]): void {
    const walked = new Set(folders);
    for (const [dir, { watcher }] of this.#watchers) {
      if (walked.has(dir)) continue;
      watcher.close();
      this.#watchers.delete(dir);
    }
  }

  /**
   * The workspace's files stored by an older kb serve, which kept no source, by name and size
   * (a file stored with its path is found by it). An upload is never one of them, marked as such
   * or, from before uploads were marked, by its bytes kept beside --data.
   */
  #storedWithoutSource(): Map<string, FileRecord> {
    const byNameAndSize = new Map<string, FileRecord>();
    for (const file of this.store.filesWithoutSource(this.workspaceId)) {
      if (this.options.isUpload(file.id)) continue;
      const key = `${file.fileSize}:${file.originalFilename}`;
      if (!byNameAndSize.has(key)) byNameAndSize.set(key, file);
    }
    return byNameAndSize;
  }
}

/**
 * What the folder at `path` is: a new one made at the same path is another. Its inode alone
 * does not say (a folder removed and made again often gets the same number); its birth time does.
 */
function identityOf(path: string): string {
  const stat = statSync(path, { throwIfNoEntry: false });
  return stat ? `${stat.dev}:${stat.ino}:${stat.birthtimeMs}` : 'missing';
}
