import { type Database, openDatabase } from './database.js';
import type {
  FileRecord,
  MessageRecord,
  Operation,
  ThreadRecord,
  UserRecord,
  WebhookRecord,
  Workspace,
} from './model.js';
import { dropLeftoverParts, type SearchListener, writeOperations } from './operations.js';
import { hashKey } from './api-keys.js';
import {
  countFiles,
  countFailedFiles,
  everyFile,
  fileAtPath,
  fileById,
  type FileFilter,
  filesOf,
  filesWithoutSource,
  loadRecords,
  sourcePaths,
  liveFiles,
} from './records.js';
import { StorageError } from './storage-error.js';
import { BY_NAME, type Listing, type ListOrder, NEWEST_FIRST, sortBy } from './paging.js';
import { fold } from '../../util/fold.js';

/** Told when commits start failing for the storage (the error), and when one succeeds again (undefined). */
export type StorageListener = (failure: StorageError | undefined) => void;

/**
 * The whole state of the local service, kept in its database (see state/operations.ts) and, as
 * a cache, in the maps below; files (there may be 100,000) only in the database, read by the
 * queries below. Every change goes through `commit`, which applies it only once its transaction
 * is on disk: what is visible has been acknowledged, and the reverse.
 */
export class Store {
  readonly workspaces = new Map<string, Workspace>();
  /** API keys by their SHA-256 (hashKey): workspace ids. */
  readonly keys = new Map<string, string>();
  readonly users = new Map<string, UserRecord>();
  readonly threads = new Map<string, ThreadRecord>();
  readonly messages = new Map<string, MessageRecord[]>();
  readonly webhooks = new Map<string, WebhookRecord>();
  /** Replies that were being written when the service stopped: kept as they were, incomplete. */
  readonly interrupted: number;
  readonly #db: Database;
  readonly #search: SearchListener | undefined;
  readonly #onStorage: StorageListener | undefined;
  /** Whether the last commit failed for the storage: said once, and once more when one succeeds. */
  #storageFailing = false;
  /** Bumped by every commit: the sorted lists below are of one version. */
  #version = 0;
  #sortedAt = -1;
  readonly #sortedLists = new Map<string, unknown[]>();

  /**
   * The state held in `db` (by default a new in-memory database). `search` is told, inside each
   * transaction, which chunks become searchable and which stop being.
   */
  constructor(
    db: Database = openDatabase(),
    options: { search?: SearchListener; onStorage?: StorageListener } = {},
  ) {
    this.#db = db;
    this.#search = options.search;
    this.#onStorage = options.onStorage;
    db.transaction(() => dropLeftoverParts(db, this.#search))();
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
    for (const w of records.webhooks) this.webhooks.set(w.id, w);
  }

  /** Applies `ops` once their transaction is on disk; throws StorageError (nothing applied) when it cannot be. */
  commit(...ops: Operation[]): void {
    // After close (kb serve stopping): refused like a write the disk could not take.
    if (!this.#db.open) throw new StorageError('the database is closed');
    try {
      writeOperations(this.#db, ops, this.#search);
    } catch (err) {
      if (err instanceof StorageError && !this.#storageFailing) {
        this.#storageFailing = true;
        this.#onStorage?.(err);
      }
      throw err;
    }
    if (this.#storageFailing) {
      this.#storageFailing = false;
      this.#onStorage?.(undefined);
    }
    this.#version++;
    for (const op of ops) this.#apply(op);
  }

  close(): void {
    if (!this.#db.open) return;
    // libsql's close leaves every change in FILE-wal: a copy of FILE alone after a clean stop
    // would be empty. Moved into FILE here, best effort (a full disk keeps them in the -wal).
    try {
      if (!this.#db.memory) this.#db.prepare('PRAGMA wal_checkpoint(TRUNCATE)').raw().get();
    } catch {
      // SQLite applies the -wal at the next open.
    }
    this.#db.close();
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
          const thread = this.threads.get(message.threadId);
          if (thread && thread.updatedAt < message.createdAt)
            this.threads.set(thread.id, { ...thread, updatedAt: message.createdAt });
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
      case 'fileIndexed':
      case 'fileChunks':
      case 'fileDeleted':
        // In the database alone.
        break;
      case 'webhook':
        this.webhooks.set(op.webhook.id, op.webhook);
        break;
      case 'webhookDeleted':
        this.webhooks.delete(op.id);
        break;
    }
  }

  workspaceForKey(key: string): Workspace | undefined {
    const id = this.keys.get(hashKey(key));
    return id ? this.workspaces.get(id) : undefined;
  }

  thread(workspaceId: string, id: string): ThreadRecord | undefined {
    const thread = this.threads.get(id);
    return thread?.workspaceId === workspaceId ? thread : undefined;
  }

  /** The workspace's file of that id, unless deleted. */
  file(workspaceId: string, id: string): FileRecord | undefined {
    const file = fileById(this.#db, id);
    return file?.workspaceId === workspaceId && !file.deletedAt ? file : undefined;
  }

  /** The file of that id in any workspace, deleted or not (a deleted one has deletedAt). */
  storedFile(id: string): FileRecord | undefined {
    return fileById(this.#db, id);
  }

  /** The files of these ids that are there and not deleted, by id. */
  liveFiles(ids: string[]): Map<string, FileRecord> {
    return liveFiles(this.#db, ids);
  }

  /**
   * A page of the workspace's files (not deleted; of `status` if given), newest first
   * (NEWEST_FIRST): up to `limit` after the record whose key is `after`, from the database's
   * indexes (keyset paging: a page costs the same wherever it is).
   */
  filesAfter(filter: FileFilter, after: string[] | undefined, limit: number): FileRecord[] {
    return filesOf(this.#db, filter, { after, limit });
  }

  /** How many of the workspace's files are waiting to be read or being read: not searched yet. */
  countIndexingFiles(workspaceId: string): number {
    return (['PENDING', 'PROCESSING'] as const).reduce(
      (n, status) => n + countFiles(this.#db, { workspaceId, status }),
      0,
    );
  }

  /** How many of the workspace's files FAILED (see countFailedFiles). */
  countFailedFiles(workspaceId: string): number {
    return countFailedFiles(this.#db, workspaceId);
  }

  /** How many files the workspace has (not deleted; of `status` if given). */
  countFiles(filter: FileFilter): number {
    return countFiles(this.#db, filter);
  }

  /** The workspace's files (not deleted), newest first, as a window of them reads them (the web console). */
  fileListing(workspaceId: string): Listing<FileRecord> {
    const filter = { workspaceId };
    return {
      total: () => countFiles(this.#db, filter),
      before: (key, inclusive) => countFiles(this.#db, filter, { key, inclusive }),
      slice: (offset, limit) => filesOf(this.#db, filter, { offset, limit }),
    };
  }

  /** The workspace's file (not deleted) from the docs folder's `path`. */
  fileAtPath(workspaceId: string, path: string): FileRecord | undefined {
    return fileAtPath(this.#db, workspaceId, path);
  }

  /** Up to `limit` of the workspace's files (not deleted) from a docs folder, [path, id], by path after `after`. */
  sourcePaths(workspaceId: string, after: string, limit: number): [path: string, id: string][] {
    return sourcePaths(this.#db, workspaceId, after, limit);
  }

  /** The workspace's files (not deleted) stored without a source and not as uploads (by an older kb serve). */
  filesWithoutSource(workspaceId: string): FileRecord[] {
    return filesWithoutSource(this.#db, workspaceId);
  }

  /** Every file, deleted ones too, in the order they were made: all in memory at once, for tests and tools. */
  everyFile(): FileRecord[] {
    return everyFile(this.#db);
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
