import { type Database, openDatabase } from './database.js';
import type {
  Chunk,
  FileRecord,
  MessageRecord,
  Operation,
  ThreadRecord,
  UserRecord,
  WebhookRecord,
  Workspace,
} from './model.js';
import { allLiveRows, type SearchListener, writeOperations } from './operations.js';
import { hashKey } from './api-keys.js';
import { loadRecords } from './records.js';
import { StorageError } from './storage-error.js';
import { BY_NAME, type ListOrder, NEWEST_FIRST, sortBy } from './paging.js';
import { VectorIndex } from '../search/vector-index.js';
import { ChunkIndex, fold } from '../search/chunk-index.js';

/** What a file's chunks were indexed as: a new indexing gives a new stamp. */
const stampOf = (file: FileRecord) => file.indexedAt ?? '';

/**
 * The whole state of the local service, kept in its database (see state/operations.ts) and, as
 * a cache, in the maps below. Every change goes through `commit`, which applies it only once
 * its transaction is on disk: what is visible has been acknowledged, and the reverse.
 */
export class Store {
  readonly workspaces = new Map<string, Workspace>();
  /** API keys by their SHA-256 (hashKey): workspace ids. */
  readonly keys = new Map<string, string>();
  readonly users = new Map<string, UserRecord>();
  readonly threads = new Map<string, ThreadRecord>();
  readonly messages = new Map<string, MessageRecord[]>();
  readonly files = new Map<string, FileRecord>();
  readonly webhooks = new Map<string, WebhookRecord>();
  /** Replies that were being written when the service stopped: kept as they were, incomplete. */
  readonly interrupted: number;
  readonly #db: Database;
  readonly #search: SearchListener | undefined;
  readonly #chunks = new Map<string, Chunk[]>();
  /** The chunks stored so far of files indexed in parts (large documents), until their fileIndexed. */
  readonly #parts = new Map<string, Chunk[]>();
  readonly #indexes = new Map<string, ChunkIndex>();
  /** Per workspace, the chunk vectors (with an embeddings endpoint): a file is in them and its index, or in neither. */
  readonly #vectors = new Map<string, VectorIndex>();
  /** Vectors made for a file being indexed, until its fileIndexed puts them in with its chunks. */
  readonly #staged = new Map<string, { stamp: string; vectors: Float32Array[] }>();
  /** Bumped by every commit: the sorted lists below are of one version. */
  #version = 0;
  #sortedAt = -1;
  readonly #sortedLists = new Map<string, unknown[]>();

  /**
   * The state held in `db` (by default a new in-memory database). `search` is told, inside each
   * transaction, which chunks become searchable and which stop being.
   */
  constructor(db: Database = openDatabase(), options: { search?: SearchListener } = {}) {
    this.#db = db;
    this.#search = options.search;
    // Parts of a file whose indexing stopped part way: it is indexed again from the start.
    db.prepare('DELETE FROM chunks WHERE live = 0').run();
    this.#load();
    let interrupted = 0;
    for (const list of this.messages.values())
      for (const m of list)
        if (m.pending) {
          const { pending: _, ...rest } = m;
          this.commit({ op: 'messageUpdate', message: { ...rest, incomplete: true } });
          interrupted++;
        }
    this.interrupted = interrupted;
  }

  #load(): void {
    const records = loadRecords(this.#db);
    for (const w of records.workspaces) this.workspaces.set(w.id, w);
    for (const [hash, workspaceId] of records.keys) this.keys.set(hash, workspaceId);
    for (const u of records.users) this.users.set(u.id, u);
    for (const t of records.threads) {
      this.threads.set(t.id, t);
      this.messages.set(t.id, []);
    }
    for (const m of records.messages) this.messages.get(m.threadId)?.push(m);
    for (const f of records.files) this.files.set(f.id, f);
    for (const w of records.webhooks) this.webhooks.set(w.id, w);
    for (const row of allLiveRows(this.#db)) {
      const chunk: Chunk = { id: row.id, fileId: row.fileId, filename: row.filename, text: row.text };
      if (row.pages) chunk.pages = row.pages;
      const list = this.#chunks.get(row.fileId);
      if (list) list.push(chunk);
      else this.#chunks.set(row.fileId, [chunk]);
    }
    for (const file of this.files.values()) {
      const chunks = this.#chunks.get(file.id);
      if (file.deletedAt || !chunks) continue;
      this.index(file.workspaceId).add(chunks, stampOf(file));
    }
  }

  vectors(workspaceId: string): VectorIndex {
    let vectors = this.#vectors.get(workspaceId);
    if (!vectors) {
      vectors = new VectorIndex();
      this.#vectors.set(workspaceId, vectors);
    }
    return vectors;
  }

  /** Vectors for a file being indexed under `stamp`: they go in with its fileIndexed, or not at all. */
  stageVectors(fileId: string, stamp: string, vectors: Float32Array[]): void {
    this.#staged.set(fileId, { stamp, vectors });
  }

  /** Vectors made later for a file already indexed (after a restart, or once the endpoint answers again). */
  addVectors(fileId: string, stamp: string, vectors: Float32Array[]): boolean {
    const file = this.files.get(fileId);
    const chunks = this.#chunks.get(fileId);
    if (!file || file.deletedAt || !chunks || stampOf(file) !== stamp || chunks.length !== vectors.length)
      return false;
    this.vectors(file.workspaceId).set(fileId, stamp, vectors);
    return true;
  }

  /** The indexed files (of every workspace) that have no vectors yet, with their chunks. */
  *unembedded(): Generator<{ file: FileRecord; chunks: Chunk[] }> {
    for (const file of this.files.values()) {
      const chunks = this.#chunks.get(file.id);
      if (file.deletedAt || !chunks?.length || file.indexingStatus !== 'COMPLETED') continue;
      if (this.vectors(file.workspaceId).stampOf(file.id) !== stampOf(file)) yield { file, chunks };
    }
  }

  /** A chunk by its file and number. */
  chunk(fileId: string, n: number): Chunk | undefined {
    return this.#chunks.get(fileId)?.[n];
  }

  /** Applies `ops` once their transaction is on disk; throws StorageError (nothing applied) when it cannot be. */
  commit(...ops: Operation[]): void {
    // After close (kb serve stopping): refused like a write the disk could not take.
    if (!this.#db.open) throw new StorageError('the database is closed');
    writeOperations(this.#db, ops, this.#search);
    this.#version++;
    for (const op of ops) this.#apply(op);
  }

  close(): void {
    if (this.#db.open) this.#db.close();
  }

  index(workspaceId: string): ChunkIndex {
    let index = this.#indexes.get(workspaceId);
    if (!index) {
      index = new ChunkIndex();
      this.#indexes.set(workspaceId, index);
    }
    return index;
  }

  #apply(op: Operation): void {
    switch (op.op) {
      case 'workspace':
        this.workspaces.set(op.workspace.id, op.workspace);
        break;
      case 'key':
        this.keys.set(hashKey(op.key.key), op.key.workspaceId);
        break;
      case 'user':
        this.users.set(op.user.id, op.user);
        break;
      case 'thread':
        this.threads.set(op.thread.id, op.thread);
        if (!this.messages.has(op.thread.id)) this.messages.set(op.thread.id, []);
        break;
      case 'threadStatus': {
        const thread = this.threads.get(op.id);
        if (thread) this.threads.set(op.id, { ...thread, status: op.status, updatedAt: op.at });
        break;
      }
      case 'messages':
        for (const message of op.messages) {
          const list = this.messages.get(message.threadId) ?? [];
          list.push(message);
          this.messages.set(message.threadId, list);
        }
        break;
      case 'messageUpdate': {
        const list = this.messages.get(op.message.threadId);
        const at = list?.findIndex((m) => m.id === op.message.id) ?? -1;
        if (at >= 0) list![at] = op.message;
        break;
      }
      case 'messageText': {
        const message = this.messages.get(op.threadId)?.find((m) => m.id === op.id);
        if (message?.pending) message.content = op.content;
        break;
      }
      case 'messageDeleted': {
        const list = this.messages.get(op.threadId);
        const at = list?.findIndex((m) => m.id === op.id) ?? -1;
        if (at >= 0) list!.splice(at, 1);
        break;
      }
      case 'file':
        this.files.set(op.file.id, op.file);
        if (op.file.indexingStatus !== 'PROCESSING') this.#dropParts(op.file.id);
        // A file indexed again that failed this time has no chunks any more.
        if (op.file.indexingStatus === 'FAILED' && this.#chunks.delete(op.file.id)) {
          this.index(op.file.workspaceId).remove(op.file.id);
          this.#dropVectors(op.file.workspaceId, op.file.id);
        }
        break;
      case 'fileChunks': {
        const file = this.files.get(op.fileId);
        if (!file || file.deletedAt) break;
        const parts = this.#parts.get(op.fileId) ?? [];
        for (const chunk of op.chunks) parts.push(chunk);
        this.#parts.set(op.fileId, parts);
        this.index(file.workspaceId).append(op.chunks);
        break;
      }
      case 'fileIndexed': {
        const parts = this.#parts.get(op.file.id);
        this.#parts.delete(op.file.id);
        const chunks = parts ? parts.concat(op.chunks) : op.chunks;
        this.files.set(op.file.id, op.file);
        this.#chunks.set(op.file.id, chunks);
        if (!op.file.deletedAt) {
          const index = this.index(op.file.workspaceId);
          if (parts && index.isHidden(op.file.id)) {
            index.append(op.chunks);
            index.reveal(op.file.id, stampOf(op.file));
          } else index.add(chunks, stampOf(op.file));
          const staged = this.#staged.get(op.file.id);
          if (staged?.stamp === stampOf(op.file) && staged.vectors.length === chunks.length) {
            this.vectors(op.file.workspaceId).set(op.file.id, staged.stamp, staged.vectors);
          } else this.#dropVectors(op.file.workspaceId, op.file.id);
        }
        this.#staged.delete(op.file.id);
        break;
      }
      case 'fileDeleted': {
        const file = this.files.get(op.id);
        if (!file) break;
        this.#dropParts(op.id);
        this.files.set(op.id, { ...file, deletedAt: op.at, updatedAt: op.at });
        if (this.index(file.workspaceId).has(op.id)) this.index(file.workspaceId).remove(op.id);
        // Leaves both indexes at once.
        this.#dropVectors(file.workspaceId, op.id);
        this.#staged.delete(op.id);
        this.#chunks.delete(op.id);
        break;
      }
      case 'webhook':
        this.webhooks.set(op.webhook.id, op.webhook);
        break;
      case 'webhookDeleted':
        this.webhooks.delete(op.id);
        break;
    }
  }

  #dropVectors(workspaceId: string, fileId: string): void {
    const vectors = this.#vectors.get(workspaceId);
    if (vectors?.stampOf(fileId) === undefined) return;
    vectors.remove(fileId);
  }

  /** Forgets the parts of a file whose indexing in parts will not finish (failed, queued again, deleted). */
  #dropParts(fileId: string): void {
    if (!this.#parts.delete(fileId)) return;
    const file = this.files.get(fileId);
    if (file && this.index(file.workspaceId).isHidden(fileId)) this.index(file.workspaceId).remove(fileId);
  }

  workspaceForKey(key: string): Workspace | undefined {
    const id = this.keys.get(hashKey(key));
    return id ? this.workspaces.get(id) : undefined;
  }

  thread(workspaceId: string, id: string): ThreadRecord | undefined {
    const thread = this.threads.get(id);
    return thread?.workspaceId === workspaceId ? thread : undefined;
  }

  file(workspaceId: string, id: string): FileRecord | undefined {
    const file = this.files.get(id);
    return file?.workspaceId === workspaceId && !file.deletedAt ? file : undefined;
  }

  webhook(workspaceId: string, id: string): WebhookRecord | undefined {
    const webhook = this.webhooks.get(id);
    return webhook?.workspaceId === workspaceId ? webhook : undefined;
  }

  /**
   * The workspace's threads, newest first. Lists are kept sorted between changes, so that paging
   * through a large one costs a search per page, not a sort.
   */
  listThreads(workspaceId: string, status?: string): ThreadRecord[] {
    return this.#sorted<ThreadRecord>(`threads ${workspaceId} ${status ?? ''}`, NEWEST_FIRST, () =>
      [...this.threads.values()].filter(
        (t) => t.workspaceId === workspaceId && (!status || t.status === status),
      ),
    );
  }

  listFiles(workspaceId: string, status?: string): FileRecord[] {
    return this.#sorted<FileRecord>(`files ${workspaceId} ${status ?? ''}`, NEWEST_FIRST, () =>
      [...this.files.values()].filter(
        (f) => f.workspaceId === workspaceId && !f.deletedAt && (!status || f.indexingStatus === status),
      ),
    );
  }

  listUsers(workspaceId: string, q?: string): UserRecord[] {
    const needle = q ? fold(q.trim()) : '';
    return this.#sorted<UserRecord>(`users ${workspaceId} ${needle}`, BY_NAME, () =>
      [...this.users.values()].filter(
        (u) =>
          u.workspaceId === workspaceId &&
          (!needle || fold(u.name).includes(needle) || fold(u.email).includes(needle)),
      ),
    );
  }

  listWebhooks(workspaceId: string): WebhookRecord[] {
    return this.#sorted<WebhookRecord>(`webhooks ${workspaceId}`, NEWEST_FIRST, () =>
      [...this.webhooks.values()].filter((w) => w.workspaceId === workspaceId),
    );
  }

  /** `select()` in `order`, made again only after a change (the caller must not change it). */
  #sorted<T>(key: string, order: ListOrder<T>, select: () => T[]): T[] {
    if (this.#sortedAt !== this.#version) {
      this.#sortedLists.clear();
      this.#sortedAt = this.#version;
    }
    let list = this.#sortedLists.get(key) as T[] | undefined;
    if (!list) {
      list = sortBy(select(), order);
      // A few at a time: a search for every word typed would otherwise keep them all.
      if (this.#sortedLists.size >= 64) this.#sortedLists.clear();
      this.#sortedLists.set(key, list);
    }
    return list;
  }
}
