import { type Database, prepared as statement } from './database.js';
import { hashKey, keyHint } from './api-keys.js';
import type { Chunk, FileRecord, IndexedTerms, MessageRecord, Operation } from './model.js';
import { isStorageFailure, StorageError } from './storage-error.js';

/** A chunk as the chunks table holds it: what a search index keeps of it. */
export interface ChunkRow {
  rowid: number;
  /** The chunk's id (`fileId:n`). */
  id: string;
  workspaceId: string;
  fileId: string;
  n: number;
  filename: string;
  text: string;
  pages?: [first: number, last: number];
  /** The chunk's terms for the search index, when made already (not stored). */
  indexed?: IndexedTerms;
}

/**
 * Told, inside the transaction that makes the change, which chunks are staged (a large file's
 * part, stored before its file is indexed: it is indexed then, so that the file's last step
 * does not index all of it at once), which become searchable (a file's fileIndexed: its rows,
 * with the parts staged for it) and which stop being (re-indexed, FAILED or deleted files and
 * dropped parts: called before their rows are deleted, so they can still be read). A throw
 * rolls the whole change back.
 */
export interface SearchListener {
  staged(rows: ChunkRow[]): void;
  searchable(rows: ChunkRow[], partsOf?: { workspaceId: string; fileId: string }): void;
  withdrawn(rowids: number[]): void;
}

/**
 * Progress that a crash may lose without losing anything acknowledged: a large file's parts
 * (its fileIndexed is durable, and makes them durable) and a reply's text so far (its
 * completion is durable). Committed alone, they are written with synchronous=NORMAL.
 */
const UNSYNCED = new Set<Operation['op']>(['fileChunks', 'messageText']);

/**
 * Writes `ops` in one transaction, on disk when this returns; throws StorageError (nothing
 * written) when the storage cannot take it.
 */
export function writeOperations(db: Database, ops: Operation[], listener?: SearchListener): void {
  const relaxed = ops.every((op) => UNSYNCED.has(op.op));
  try {
    if (relaxed) db.exec('PRAGMA synchronous=NORMAL');
    db.exec('BEGIN IMMEDIATE');
    try {
      for (const op of ops) writeOperation(db, op, listener);
      db.exec('COMMIT');
    } catch (err) {
      // SQLite may have rolled back already (some I/O errors do); the first error is the one to report.
      try {
        if (db.inTransaction) db.exec('ROLLBACK');
      } catch {
        // reported by err
      }
      throw err;
    }
  } catch (err) {
    if (isStorageFailure(err)) throw new StorageError(err);
    throw err;
  } finally {
    if (relaxed) db.exec('PRAGMA synchronous=FULL');
  }
}

const json = (value: unknown) => (value === undefined || value === null ? null : JSON.stringify(value));
const flag = (value: boolean | undefined) => (value ? 1 : 0);

/** The SQL for one operation, inside the caller's transaction. */
export function writeOperation(db: Database, op: Operation, listener?: SearchListener): void {
  const run = (sql: string, ...params: unknown[]) => statement(db, sql).run(...params);
  switch (op.op) {
    case 'workspace': {
      const w = op.workspace;
      run(
        `INSERT INTO workspaces (id, name, created_at) VALUES (?, ?, ?)
         ON CONFLICT(id) DO UPDATE SET name = excluded.name`,
        w.id,
        w.name,
        w.createdAt,
      );
      break;
    }
    case 'key':
      run(
        `INSERT INTO api_keys (key_hash, workspace_id, hint) VALUES (?, ?, ?)
         ON CONFLICT(key_hash) DO UPDATE SET workspace_id = excluded.workspace_id`,
        hashKey(op.key.key),
        op.key.workspaceId,
        keyHint(op.key.key),
      );
      break;
    case 'user': {
      const u = op.user;
      run(
        `INSERT INTO users (id, workspace_id, name, email, created_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT(id) DO UPDATE SET name = excluded.name, email = excluded.email`,
        u.id,
        u.workspaceId,
        u.name,
        u.email,
        u.createdAt,
      );
      break;
    }
    case 'thread': {
      const t = op.thread;
      run(
        `INSERT INTO threads (id, workspace_id, title, status, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT(id) DO UPDATE SET title = excluded.title, status = excluded.status, updated_at = excluded.updated_at`,
        t.id,
        t.workspaceId,
        t.title,
        t.status,
        t.createdAt,
        t.updatedAt,
      );
      break;
    }
    case 'threadStatus':
      run('UPDATE threads SET status = ?, updated_at = ? WHERE id = ?', op.status, op.at, op.id);
      break;
    case 'messages':
      for (const m of op.messages) {
        run(
          `INSERT INTO messages (id, thread_id, role, content, created_at, sources, drawn_from, incomplete, pending)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          ...messageColumns(m),
        );
        // A thread's updatedAt is its last activity.
        run(
          'UPDATE threads SET updated_at = ? WHERE id = ? AND updated_at < ?',
          m.createdAt,
          m.threadId,
          m.createdAt,
        );
      }
      break;
    case 'messageUpdate': {
      const [id, , ...columns] = messageColumns(op.message);
      run(
        `UPDATE messages SET role = ?, content = ?, created_at = ?, sources = ?, drawn_from = ?,
         incomplete = ?, pending = ? WHERE id = ?`,
        ...columns,
        id,
      );
      break;
    }
    case 'messageText':
      run('UPDATE messages SET content = ? WHERE id = ? AND pending = 1', op.content, op.id);
      break;
    case 'messageDeleted':
      run('DELETE FROM messages WHERE id = ?', op.id);
      break;
    case 'file':
      writeFile(db, op.file);
      if (op.file.indexingStatus !== 'PROCESSING') dropParts(db, op.file.id, listener);
      // A file indexed again that failed this time has no chunks any more.
      if (op.file.indexingStatus === 'FAILED') dropLiveChunks(db, op.file.id, listener);
      break;
    case 'fileChunks': {
      const workspaceId = statement(db, 'SELECT workspace_id FROM files WHERE id = ? AND deleted_at IS NULL')
        .raw()
        .get(op.fileId) as [string] | undefined;
      if (!workspaceId) break;
      const rows = insertChunks(db, workspaceId[0], op.fileId, op.chunks, {
        live: false,
        from: storedParts(db, op.fileId),
      });
      listener?.staged(rows);
      break;
    }
    case 'fileIndexed': {
      const file = op.file;
      writeFile(db, file);
      dropLiveChunks(db, file.id, listener);
      if (file.deletedAt) {
        dropParts(db, file.id, listener);
        break;
      }
      const stored = storedParts(db, file.id);
      if (stored === 0) {
        // The whole file in this change (most are): its rows go in live.
        const rows = insertChunks(db, file.workspaceId, file.id, op.chunks, { live: true, from: 0 });
        listener?.searchable(rows);
        break;
      }
      run('UPDATE chunks SET live = 1 WHERE file_id = ? AND live = 0', file.id);
      const rows = insertChunks(db, file.workspaceId, file.id, op.chunks, { live: true, from: stored });
      listener?.searchable(rows, { workspaceId: file.workspaceId, fileId: file.id });
      break;
    }
    case 'fileDeleted':
      run('UPDATE files SET deleted_at = ?, updated_at = ? WHERE id = ?', op.at, op.at, op.id);
      dropLiveChunks(db, op.id, listener);
      dropParts(db, op.id, listener);
      break;
    case 'webhook': {
      const w = op.webhook;
      run(
        `INSERT INTO webhooks (id, workspace_id, url, events, secret, is_active, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT(id) DO UPDATE SET url = excluded.url, events = excluded.events, secret = excluded.secret,
         is_active = excluded.is_active`,
        w.id,
        w.workspaceId,
        w.url,
        JSON.stringify(w.events),
        w.secret,
        flag(w.isActive),
        w.createdAt,
      );
      break;
    }
    case 'webhookDeleted':
      run('DELETE FROM webhooks WHERE id = ?', op.id);
      break;
  }
}

function messageColumns(m: MessageRecord): unknown[] {
  return [
    m.id,
    m.threadId,
    m.role,
    m.content,
    m.createdAt,
    json(m.sources),
    json(m.drawnFrom),
    flag(m.incomplete),
    flag(m.pending),
  ];
}

function writeFile(db: Database, f: FileRecord): void {
  statement(
    db,
    `INSERT INTO files (id, workspace_id, original_filename, file_size, mime_type, indexing_status,
       created_at, updated_at, indexing_started_at, indexed_at, chunk_count, indexing_error, ocr,
       deleted_at, source, uploaded)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT(id) DO UPDATE SET original_filename = excluded.original_filename,
       file_size = excluded.file_size, mime_type = excluded.mime_type,
       indexing_status = excluded.indexing_status, updated_at = excluded.updated_at,
       indexing_started_at = excluded.indexing_started_at, indexed_at = excluded.indexed_at,
       chunk_count = excluded.chunk_count, indexing_error = excluded.indexing_error,
       ocr = excluded.ocr, deleted_at = excluded.deleted_at, source = excluded.source,
       uploaded = excluded.uploaded`,
  ).run(
    f.id,
    f.workspaceId,
    f.originalFilename,
    f.fileSize,
    f.mimeType,
    f.indexingStatus,
    f.createdAt,
    f.updatedAt,
    f.indexingStartedAt,
    f.indexedAt,
    f.chunkCount,
    json(f.indexingError),
    json(f.ocr),
    f.deletedAt ?? null,
    json(f.source),
    flag(f.uploaded),
  );
}

/** How many parts of the file are stored and not live yet (a large file's, or a stop's leftovers). */
function storedParts(db: Database, fileId: string): number {
  // The last one's number, not a count: a large file has thousands, each stored with this.
  const last = statement(
    db,
    'SELECT n FROM chunks WHERE file_id = ? AND live = 0 ORDER BY rowid DESC LIMIT 1',
  )
    .raw()
    .get(fileId) as [number] | undefined;
  return last ? Number(last[0]) + 1 : 0;
}

/**
 * Writes `chunks` as the file's rows numbered `from` on (after its parts stored before): live,
 * or as parts (not searchable until the file's fileIndexed). Returns the rows written.
 */
function insertChunks(
  db: Database,
  workspaceId: string,
  fileId: string,
  chunks: Chunk[],
  { live, from }: { live: boolean; from: number },
): ChunkRow[] {
  let n = from;
  const insert = statement(
    db,
    `INSERT INTO chunks (id, file_id, workspace_id, n, filename, text, page_first, page_last, live)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  return chunks.map((c) => {
    const row: ChunkRow = {
      rowid: 0,
      id: c.id,
      workspaceId,
      fileId,
      n: n++,
      filename: c.filename,
      text: c.text,
    };
    if (c.pages) row.pages = c.pages;
    if (c.indexed) row.indexed = c.indexed;
    const { lastInsertRowid } = insert.run(
      row.id,
      fileId,
      workspaceId,
      row.n,
      row.filename,
      row.text,
      c.pages?.[0] ?? null,
      c.pages?.[1] ?? null,
      flag(live),
    );
    row.rowid = Number(lastInsertRowid);
    return row;
  });
}

/** Deletes the file's parts not live yet, telling the listener first. */
function dropParts(db: Database, fileId: string, listener: SearchListener | undefined): void {
  dropPartsWhere(db, listener, 'file_id = ? AND live = 0', fileId);
}

/**
 * Deletes every file's parts not live yet (a stop cut their indexing short: those files are
 * indexed again from the start), telling the listener first.
 */
export function dropLeftoverParts(db: Database, listener: SearchListener | undefined): void {
  dropPartsWhere(db, listener, 'live = 0');
}

function dropPartsWhere(
  db: Database,
  listener: SearchListener | undefined,
  where: string,
  ...params: unknown[]
): void {
  const rowids = statement(db, `SELECT rowid FROM chunks WHERE ${where}`)
    .raw()
    .all(...params) as [number][];
  if (!rowids.length) return;
  listener?.withdrawn(rowids.map((r) => Number(r[0])));
  statement(db, `DELETE FROM chunks WHERE ${where}`).run(...params);
}

/** Deletes the file's live rows (a previous indexing), telling the listener first. */
function dropLiveChunks(db: Database, fileId: string, listener: SearchListener | undefined): void {
  if (listener) {
    const rowids = statement(db, 'SELECT rowid FROM chunks WHERE file_id = ? AND live = 1 ORDER BY rowid')
      .raw()
      .all(fileId) as [number][];
    // A file indexed for the first time has none: nothing to delete.
    if (!rowids.length) return;
    listener.withdrawn(rowids.map((r) => Number(r[0])));
  }
  statement(db, 'DELETE FROM chunks WHERE file_id = ? AND live = 1').run(fileId);
}
