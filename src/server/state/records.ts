import { type Database, prepared } from './database.js';
import type {
  FileRecord,
  MessageRecord,
  ThreadRecord,
  ThreadRecordStatus,
  UserRecord,
  WebhookRecord,
  Workspace,
} from './model.js';

/** Every record in the database but the files (read when asked for: filesOf, fileById), each table in the order its rows were made. */
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

const FILE_COLUMNS = `id, workspace_id, original_filename, file_size, mime_type, indexing_status, created_at,
  updated_at, indexing_started_at, indexed_at, chunk_count, indexing_error, ocr, deleted_at, source, uploaded`;

const fileRow = (db: Database, sql: string, ...params: unknown[]): FileRecord | undefined => {
  const row = prepared(db, sql)
    .raw()
    .get(...params) as unknown[] | undefined;
  return row && toFile(row);
};
const fileRows = (db: Database, sql: string, ...params: unknown[]): FileRecord[] =>
  (
    prepared(db, sql)
      .raw()
      .all(...params) as unknown[][]
  ).map(toFile);

/** The file of that id, deleted or not. */
export function fileById(db: Database, id: string): FileRecord | undefined {
  return fileRow(db, `SELECT ${FILE_COLUMNS} FROM files WHERE id = ?`, id);
}

/** The files of these ids that are there and not deleted, by id. */
export function liveFiles(db: Database, ids: string[]): Map<string, FileRecord> {
  const files = fileRows(
    db,
    `SELECT ${FILE_COLUMNS} FROM files WHERE id IN (SELECT value FROM json_each(?)) AND deleted_at IS NULL`,
    JSON.stringify(ids),
  );
  return new Map(files.map((file) => [file.id, file]));
}

/** Which of a workspace's files a list holds: those not deleted, of one status or all. */
export interface FileFilter {
  workspaceId: string;
  status?: string;
}

/** The WHERE clause of a list (its index: files_listed, or files_by_status), and its parameters. */
function listed({ workspaceId, status }: FileFilter): [sql: string, params: unknown[]] {
  return status
    ? ['workspace_id = ? AND indexing_status = ? AND deleted_at IS NULL', [workspaceId, status]]
    : ['workspace_id = ? AND deleted_at IS NULL', [workspaceId]];
}

/**
 * Up to `limit` of the list's files, newest first (NEWEST_FIRST: created_at, then id, both
 * descending), after the record whose key is `after` or from the `offset`th (from 0).
 */
export function filesOf(
  db: Database,
  filter: FileFilter,
  { after, offset = 0, limit }: { after?: string[]; offset?: number; limit: number },
): FileRecord[] {
  const [where, params] = listed(filter);
  const from = after ? ' AND (created_at, id) < (?, ?)' : '';
  return fileRows(
    db,
    `SELECT ${FILE_COLUMNS} FROM files WHERE ${where}${from} ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`,
    ...params,
    ...(after ?? []),
    limit,
    offset,
  );
}

/**
 * How many files the list holds; with `newerThan`, how many of them come before the record
 * whose key it is (NEWEST_FIRST), and that record too when `inclusive`.
 */
export function countFiles(
  db: Database,
  filter: FileFilter,
  newerThan?: { key: string[]; inclusive: boolean },
): number {
  const [where, params] = listed(filter);
  const newer = newerThan ? ` AND (created_at, id) ${newerThan.inclusive ? '>=' : '>'} (?, ?)` : '';
  const [count] = prepared(db, `SELECT count(*) FROM files WHERE ${where}${newer}`)
    .raw()
    .get(...params, ...(newerThan?.key ?? [])) as [number];
  return Number(count);
}

/**
 * How many of the workspace's files FAILED: what an answer may lack, counted as `kb files list
 * --status FAILED` lists them (an empty file too: a count that left it out, told to look there,
 * read as wrong).
 */
export function countFailedFiles(db: Database, workspaceId: string): number {
  const [count] = prepared(
    db,
    `SELECT count(*) FROM files WHERE workspace_id = ? AND indexing_status = 'FAILED' AND deleted_at IS NULL`,
  )
    .raw()
    .get(workspaceId) as [number];
  return Number(count);
}

/** The workspace's file (not deleted) from the docs folder's `path`: the last made, should there be two. */
export function fileAtPath(db: Database, workspaceId: string, path: string): FileRecord | undefined {
  return fileRow(
    db,
    `SELECT ${FILE_COLUMNS} FROM files
     WHERE workspace_id = ? AND deleted_at IS NULL AND json_extract(source, '$.path') = ?
     ORDER BY rowid DESC LIMIT 1`,
    workspaceId,
    path,
  );
}

/** Up to `limit` of the workspace's files (not deleted) from a docs folder, by path after `after`: [path, id]. */
export function sourcePaths(
  db: Database,
  workspaceId: string,
  after: string,
  limit: number,
): [path: string, id: string][] {
  return prepared(
    db,
    `SELECT json_extract(source, '$.path'), id FROM files
     WHERE workspace_id = ? AND deleted_at IS NULL AND json_extract(source, '$.path') > ?
     ORDER BY json_extract(source, '$.path') LIMIT ?`,
  )
    .raw()
    .all(workspaceId, after, limit) as [string, string][];
}

/** The workspace's files (not deleted) with no source and not uploaded: an older kb serve's, perhaps from the folder. */
export function filesWithoutSource(db: Database, workspaceId: string): FileRecord[] {
  return fileRows(
    db,
    `SELECT ${FILE_COLUMNS} FROM files
     WHERE workspace_id = ? AND deleted_at IS NULL AND json_extract(source, '$.path') IS NULL AND uploaded = 0
     ORDER BY rowid`,
    workspaceId,
  );
}

/** Every file, deleted ones too, in the order they were made: all of them in memory, for tests and tools. */
export function everyFile(db: Database): FileRecord[] {
  return fileRows(db, `SELECT ${FILE_COLUMNS} FROM files ORDER BY rowid`);
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
