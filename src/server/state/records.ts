import type { Database } from './database.js';
import type {
  FileRecord,
  MessageRecord,
  ThreadRecord,
  ThreadRecordStatus,
  UserRecord,
  WebhookRecord,
  Workspace,
} from './model.js';

/** Every record in the database but the files (see loadFiles), each table in the order its rows were made. */
export interface Records {
  workspaces: Workspace[];
  /** API keys by their hash. */
  keys: [keyHash: string, workspaceId: string][];
  users: UserRecord[];
  threads: ThreadRecord[];
  messages: MessageRecord[];
  webhooks: WebhookRecord[];
}

/** Rows as arrays of columns (libsql's row objects carry more than their columns). */
const rows = (db: Database, sql: string) => db.prepare(sql).raw().all() as unknown[][];
const text = (v: unknown) => v as string;
const parsed = <T>(v: unknown): T | undefined => (v === null ? undefined : (JSON.parse(v as string) as T));

export function loadRecords(db: Database): Records {
  return {
    workspaces: rows(db, 'SELECT id, name, created_at FROM workspaces ORDER BY rowid').map(
      ([id, name, createdAt]) => ({ id: text(id), name: text(name), createdAt: text(createdAt) }),
    ),
    keys: rows(db, 'SELECT key_hash, workspace_id FROM api_keys ORDER BY rowid').map(([hash, ws]) => [
      text(hash),
      text(ws),
    ]),
    users: rows(db, 'SELECT id, workspace_id, name, email, created_at FROM users ORDER BY rowid').map(
      ([id, workspaceId, name, email, createdAt]) => ({
        id: text(id),
        workspaceId: text(workspaceId),
        name: text(name),
        email: text(email),
        createdAt: text(createdAt),
      }),
    ),
    threads: rows(
      db,
      'SELECT id, workspace_id, title, status, created_at, updated_at FROM threads ORDER BY rowid',
    ).map(([id, workspaceId, title, status, createdAt, updatedAt]) => ({
      id: text(id),
      workspaceId: text(workspaceId),
      title: text(title),
      status: status as ThreadRecordStatus,
      createdAt: text(createdAt),
      updatedAt: text(updatedAt),
    })),
    messages: rows(
      db,
      `SELECT id, thread_id, role, content, created_at, sources, drawn_from, incomplete, pending
       FROM messages ORDER BY seq`,
    ).map(toMessage),
    webhooks: rows(
      db,
      'SELECT id, workspace_id, url, events, secret, is_active, created_at FROM webhooks ORDER BY rowid',
    ).map(([id, workspaceId, url, events, secret, isActive, createdAt]) => ({
      id: text(id),
      workspaceId: text(workspaceId),
      url: text(url),
      events: parsed<string[]>(events) ?? [],
      secret: text(secret),
      isActive: Boolean(isActive),
      createdAt: text(createdAt),
    })),
  };
}

/** Up to `limit` files made after the one of row `after` (0: from the first), in the order they were made. */
export function loadFiles(db: Database, after: number, limit: number): { rowid: number; file: FileRecord }[] {
  return db
    .prepare(
      `SELECT rowid, id, workspace_id, original_filename, file_size, mime_type, indexing_status, created_at,
         updated_at, indexing_started_at, indexed_at, chunk_count, indexing_error, ocr, deleted_at,
         source, uploaded
       FROM files WHERE rowid > ? ORDER BY rowid LIMIT ?`,
    )
    .raw()
    .all(after, limit)
    .map((row) => {
      const [rowid, ...columns] = row as unknown[];
      return { rowid: Number(rowid), file: toFile(columns) };
    });
}

function toMessage([
  id,
  threadId,
  role,
  content,
  createdAt,
  sources,
  drawnFrom,
  incomplete,
  pending,
]: unknown[]) {
  const message: MessageRecord = {
    id: text(id),
    threadId: text(threadId),
    role: role as MessageRecord['role'],
    content: text(content),
    createdAt: text(createdAt),
  };
  const sourceList = parsed<string[]>(sources);
  if (sourceList) message.sources = sourceList;
  const drawn = parsed<string[]>(drawnFrom);
  if (drawn) message.drawnFrom = drawn;
  if (incomplete) message.incomplete = true;
  if (pending) message.pending = true;
  return message;
}

function toFile(r: unknown[]): FileRecord {
  const [id, workspaceId, originalFilename, fileSize, mimeType, status, createdAt, updatedAt] = r;
  const [startedAt, indexedAt, chunkCount, error, ocr, deletedAt, source, uploaded] = r.slice(8);
  const file: FileRecord = {
    id: text(id),
    workspaceId: text(workspaceId),
    originalFilename: text(originalFilename),
    fileSize: Number(fileSize),
    mimeType: text(mimeType),
    indexingStatus: status as FileRecord['indexingStatus'],
    createdAt: text(createdAt),
    updatedAt: text(updatedAt),
    indexingStartedAt: (startedAt as string | null) ?? null,
    indexedAt: (indexedAt as string | null) ?? null,
    chunkCount: Number(chunkCount),
    indexingError: parsed<FileRecord['indexingError']>(error) ?? null,
  };
  const ocrReport = parsed<FileRecord['ocr']>(ocr);
  if (ocrReport) file.ocr = ocrReport;
  if (deletedAt !== null) file.deletedAt = text(deletedAt);
  const from = parsed<FileRecord['source']>(source);
  if (from) file.source = from;
  if (uploaded) file.uploaded = true;
  return file;
}
