import type { Journal, LoadReport } from './journal.js';
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
import { BY_NAME, type ListOrder, NEWEST_FIRST, sortBy } from './paging.js';
import { VectorIndex, type VectorImage } from '../search/vector-index.js';
import { ChunkIndex, fold, type IndexImage } from '../search/chunk-index.js';

/** How many files' chunks a restart took from the stored index, and how many it indexed again. */
export interface IndexRestore {
  restored: number;
  indexed: number;
  /** Why a stored index image could not be used (it was rebuilt). */
  problems: string[];
}

/** What a file's chunks were indexed as: a new indexing gives a new stamp. */
const stampOf = (file: FileRecord) => file.indexedAt ?? '';

/**
 * The whole state of the local service. Every change goes through `commit`, which applies it
 * only once the journal holds it: what is visible has been acknowledged, and the reverse.
 */
export class Store {
  readonly workspaces = new Map<string, Workspace>();
  readonly keys = new Map<string, string>();
  readonly users = new Map<string, UserRecord>();
  readonly threads = new Map<string, ThreadRecord>();
  readonly messages = new Map<string, MessageRecord[]>();
  readonly files = new Map<string, FileRecord>();
  readonly webhooks = new Map<string, WebhookRecord>();
  readonly #chunks = new Map<string, Chunk[]>();
  /** The chunks stored so far of files indexed in parts (large documents), until their fileIndexed. */
  readonly #parts = new Map<string, Chunk[]>();
  readonly #indexes = new Map<string, ChunkIndex>();
  /** Per workspace, the chunk vectors (with an embeddings endpoint): a file is in them and its index, or in neither. */
  readonly #vectors = new Map<string, VectorIndex>();
  /** Vectors made for a file being indexed, until its fileIndexed puts them in with its chunks. */
  readonly #staged = new Map<string, { stamp: string; vectors: Float32Array[] }>();
  #vectorsChanged = false;
  #journal: Journal | undefined;
  /** While replaying, chunks are kept but not indexed: `#buildIndexes` does that once, at the end. */
  #replaying = false;
  /** The indexes changed since `indexImages` was last called. */
  #indexesChanged = false;
  /** Bumped by every commit: the sorted lists below are of one version. */
  #version = 0;
  #sortedAt = -1;
  readonly #sortedLists = new Map<string, unknown[]>();

  /**
   * Replays stored operations, then records every later change in the journal. The replayed
   * files are indexed from `images` (a stored index) where it still describes them, the rest
   * afresh.
   */
  attach(
    journal: Journal,
    options: {
      repair?: boolean;
      images?: Map<string, IndexImage>;
      vectorImages?: Map<string, VectorImage>;
    } = {},
  ): LoadReport & { index: IndexRestore; interrupted: number } {
    const report = journal.load(options);
    this.#replaying = true;
    for (const op of report.ops) this.#apply(op);
    this.#replaying = false;
    // A file whose indexing stopped part way is indexed again from the start.
    this.#parts.clear();
    const index = this.#buildIndexes(options.images ?? new Map());
    if (options.vectorImages) index.problems.push(...this.#restoreVectors(options.vectorImages));
    journal.open(this.snapshot());
    this.#journal = journal;
    // Replies that were being written when the service stopped: kept as they were, incomplete.
    let interrupted = 0;
    for (const list of this.messages.values())
      for (const m of list)
        if (m.pending) {
          const { pending: _, ...rest } = m;
          this.commit({ op: 'messageUpdate', message: { ...rest, incomplete: true } });
          interrupted++;
        }
    return { ...report, index, interrupted };
  }

  #buildIndexes(images: Map<string, IndexImage>): IndexRestore {
    const result: IndexRestore = { restored: 0, indexed: 0, problems: [] };
    const byWorkspace = new Map<string, FileRecord[]>();
    for (const file of this.files.values()) {
      if (file.deletedAt || !this.#chunks.has(file.id)) continue;
      const list = byWorkspace.get(file.workspaceId) ?? [];
      list.push(file);
      byWorkspace.set(file.workspaceId, list);
    }
    for (const [workspaceId, files] of byWorkspace) {
      let index = new ChunkIndex();
      const image = images.get(workspaceId);
      if (image) {
        try {
          index = ChunkIndex.restore(image, (id) => {
            const file = this.files.get(id);
            const chunks = this.#chunks.get(id);
            return file && chunks && !file.deletedAt && file.workspaceId === workspaceId
              ? { chunks, stamp: stampOf(file) }
              : undefined;
          });
        } catch (err) {
          result.problems.push(`workspace ${workspaceId}: ${(err as Error).message}`);
        }
      }
      for (const file of files) {
        if (index.stampOf(file.id) === stampOf(file)) result.restored++;
        else {
          index.add(this.#chunks.get(file.id)!, stampOf(file));
          result.indexed++;
        }
      }
      this.#indexes.set(workspaceId, index);
    }
    this.#indexesChanged = result.indexed > 0 || images.size !== byWorkspace.size;
    return result;
  }

  /** The stored vectors of the files they still describe; why an image could not be used. */
  #restoreVectors(images: Map<string, VectorImage>): string[] {
    const problems: string[] = [];
    for (const [workspaceId, image] of images) {
      try {
        this.#vectors.set(
          workspaceId,
          VectorIndex.restore(image, (id) => {
            const file = this.files.get(id);
            const chunks = this.#chunks.get(id);
            return file && chunks && !file.deletedAt && file.workspaceId === workspaceId
              ? { stamp: stampOf(file), chunks: chunks.length }
              : undefined;
          }),
        );
      } catch (err) {
        problems.push(`vectors of workspace ${workspaceId}: ${(err as Error).message}`);
      }
    }
    return problems;
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
    this.#vectorsChanged = true;
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

  /** Each workspace's vectors as an image to store, or nothing when none changed since the last call. */
  vectorImages(): Map<string, VectorImage> | undefined {
    if (!this.#vectorsChanged) return undefined;
    this.#vectorsChanged = false;
    return new Map([...this.#vectors].map(([id, vectors]) => [id, vectors.image()]));
  }

  /** Each workspace's index as an image to store, or nothing when none changed since the last call. */
  indexImages(): Map<string, IndexImage> | undefined {
    if (!this.#indexesChanged) return undefined;
    this.#indexesChanged = false;
    return new Map([...this.#indexes].map(([id, index]) => [id, index.image()]));
  }

  /** Applies `ops` once they are durable; throws StorageError (nothing applied) when they cannot be. */
  commit(...ops: Operation[]): void {
    this.#journal?.append(ops);
    this.#version++;
    for (const op of ops) this.#apply(op);
  }

  close(): void {
    this.#journal?.close();
  }

  /** The current state as a minimal list of operations (for compaction). */
  snapshot(): Operation[] {
    const ops: Operation[] = [];
    for (const workspace of this.workspaces.values()) ops.push({ op: 'workspace', workspace });
    for (const [key, workspaceId] of this.keys) ops.push({ op: 'key', key: { key, workspaceId } });
    for (const user of this.users.values()) ops.push({ op: 'user', user });
    for (const thread of this.threads.values()) {
      ops.push({ op: 'thread', thread });
      const messages = this.messages.get(thread.id);
      if (messages?.length) ops.push({ op: 'messages', messages });
    }
    for (const file of this.files.values()) {
      const chunks = this.#chunks.get(file.id);
      ops.push(chunks ? { op: 'fileIndexed', file, chunks } : { op: 'file', file });
    }
    for (const webhook of this.webhooks.values()) ops.push({ op: 'webhook', webhook });
    return ops;
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
        this.keys.set(op.key.key, op.key.workspaceId);
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
        if (op.file.indexingStatus === 'FAILED' && this.#chunks.delete(op.file.id) && !this.#replaying) {
          this.index(op.file.workspaceId).remove(op.file.id);
          this.#dropVectors(op.file.workspaceId, op.file.id);
          this.#indexesChanged = true;
        }
        break;
      case 'fileChunks': {
        const file = this.files.get(op.fileId);
        if (!file || file.deletedAt) break;
        const parts = this.#parts.get(op.fileId) ?? [];
        for (const chunk of op.chunks) parts.push(chunk);
        this.#parts.set(op.fileId, parts);
        if (!this.#replaying) this.index(file.workspaceId).append(op.chunks);
        break;
      }
      case 'fileIndexed': {
        const parts = this.#parts.get(op.file.id);
        this.#parts.delete(op.file.id);
        const chunks = parts ? parts.concat(op.chunks) : op.chunks;
        this.files.set(op.file.id, op.file);
        this.#chunks.set(op.file.id, chunks);
        if (!op.file.deletedAt && !this.#replaying) {
          const index = this.index(op.file.workspaceId);
          if (parts && index.isHidden(op.file.id)) {
            index.append(op.chunks);
            index.reveal(op.file.id, stampOf(op.file));
          } else index.add(chunks, stampOf(op.file));
          this.#indexesChanged = true;
          const staged = this.#staged.get(op.file.id);
          if (staged?.stamp === stampOf(op.file) && staged.vectors.length === chunks.length) {
            this.vectors(op.file.workspaceId).set(op.file.id, staged.stamp, staged.vectors);
            this.#vectorsChanged = true;
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
        if (!this.#replaying && this.index(file.workspaceId).has(op.id)) {
          this.index(file.workspaceId).remove(op.id);
          this.#indexesChanged = true;
        }
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
    this.#vectorsChanged = true;
  }

  /** Forgets the parts of a file whose indexing in parts will not finish (failed, queued again, deleted). */
  #dropParts(fileId: string): void {
    if (!this.#parts.delete(fileId) || this.#replaying) return;
    const file = this.files.get(fileId);
    if (file && this.index(file.workspaceId).isHidden(fileId)) this.index(file.workspaceId).remove(fileId);
  }

  workspaceForKey(key: string): Workspace | undefined {
    const id = this.keys.get(key);
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
