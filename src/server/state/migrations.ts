/**
 * The schema of kb serve's database, one migration per entry: `PRAGMA user_version` is how many
 * are applied. Append; never change one that has shipped. JSON columns hold what the service
 * only ever reads whole (a file's failure, its OCR report, where it came from).
 */
export const MIGRATIONS: string[] = [
  `
  CREATE TABLE workspaces (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    created_at TEXT NOT NULL
  );
  -- API keys are kept as their SHA-256: the key itself is shown once, when it is made.
  CREATE TABLE api_keys (
    key_hash TEXT PRIMARY KEY,
    workspace_id TEXT NOT NULL REFERENCES workspaces(id),
    -- The key's last characters, to tell keys apart in a listing.
    hint TEXT NOT NULL
  );
  CREATE INDEX api_keys_by_workspace ON api_keys(workspace_id);
  CREATE TABLE users (
    id TEXT PRIMARY KEY,
    workspace_id TEXT NOT NULL REFERENCES workspaces(id),
    name TEXT NOT NULL,
    email TEXT NOT NULL,
    created_at TEXT NOT NULL
  );
  CREATE INDEX users_by_workspace ON users(workspace_id);
  CREATE TABLE threads (
    id TEXT PRIMARY KEY,
    workspace_id TEXT NOT NULL REFERENCES workspaces(id),
    title TEXT NOT NULL,
    status TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  );
  CREATE INDEX threads_by_workspace ON threads(workspace_id, created_at);
  -- A thread's messages in the order they were accepted (seq).
  CREATE TABLE messages (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    thread_id TEXT NOT NULL REFERENCES threads(id) ON DELETE CASCADE,
    role TEXT NOT NULL,
    content TEXT NOT NULL,
    created_at TEXT NOT NULL,
    sources TEXT,
    drawn_from TEXT,
    incomplete INTEGER NOT NULL DEFAULT 0,
    -- A reply being written: its text so far.
    pending INTEGER NOT NULL DEFAULT 0
  );
  CREATE INDEX messages_by_thread ON messages(thread_id, seq);
  CREATE TABLE files (
    id TEXT PRIMARY KEY,
    workspace_id TEXT NOT NULL REFERENCES workspaces(id),
    original_filename TEXT NOT NULL,
    file_size INTEGER NOT NULL,
    mime_type TEXT NOT NULL,
    indexing_status TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    indexing_started_at TEXT,
    indexed_at TEXT,
    chunk_count INTEGER NOT NULL DEFAULT 0,
    indexing_error TEXT,
    ocr TEXT,
    deleted_at TEXT,
    source TEXT,
    uploaded INTEGER NOT NULL DEFAULT 0
  );
  CREATE INDEX files_by_workspace ON files(workspace_id, created_at);
  -- A file's text in passages, in rowid order. live = 0: parts of a large file still being
  -- indexed, searched only once the whole file is (its fileIndexed deletes the file's previous
  -- rows, then sets live = 1 on all of them at once). While a file is indexed again, its old live
  -- rows and new parts share ids (fileId:n).
  CREATE TABLE chunks (
    rowid INTEGER PRIMARY KEY,
    id TEXT NOT NULL,
    file_id TEXT NOT NULL REFERENCES files(id) ON DELETE CASCADE,
    workspace_id TEXT NOT NULL,
    n INTEGER NOT NULL,
    filename TEXT NOT NULL,
    text TEXT NOT NULL,
    page_first INTEGER,
    page_last INTEGER,
    live INTEGER NOT NULL DEFAULT 0
  );
  CREATE INDEX chunks_by_file ON chunks(file_id, n);
  -- Parts left by a stop mid-indexing are found at start without reading every chunk.
  CREATE INDEX chunks_parts ON chunks(file_id) WHERE live = 0;
  CREATE TABLE webhooks (
    id TEXT PRIMARY KEY,
    workspace_id TEXT NOT NULL REFERENCES workspaces(id),
    url TEXT NOT NULL,
    events TEXT NOT NULL,
    secret TEXT NOT NULL,
    is_active INTEGER NOT NULL,
    created_at TEXT NOT NULL
  );
  CREATE INDEX webhooks_by_workspace ON webhooks(workspace_id);
  `,
  `
  -- Webhook deliveries: the log GET /v1/webhooks/:id/deliveries shows (seq is the order they were
  -- made), and the retries still due. body is the event as sent; each attempt signs it again with
  -- the webhook's secret. attempts: [{at, status?, error?, ms}]. next_attempt_at: when a pending
  -- delivery is to be tried (again). Deleting a webhook deletes its deliveries, and so their retries.
  CREATE TABLE deliveries (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    workspace_id TEXT NOT NULL REFERENCES workspaces(id),
    webhook_id TEXT NOT NULL REFERENCES webhooks(id) ON DELETE CASCADE,
    event_id TEXT NOT NULL,
    type TEXT NOT NULL,
    body TEXT NOT NULL,
    created_at TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('pending', 'succeeded', 'failed')),
    attempts TEXT NOT NULL DEFAULT '[]',
    next_attempt_at TEXT
  );
  CREATE INDEX deliveries_by_workspace ON deliveries(workspace_id, seq);
  CREATE INDEX deliveries_by_webhook ON deliveries(webhook_id, seq);
  CREATE INDEX deliveries_pending ON deliveries(next_attempt_at) WHERE state = 'pending';
  `,
  `
  -- Files are read from here alone (nothing keeps them in memory): the lists, newest first, all of
  -- a workspace's or those of one status, a page at a time after a cursor; a docs-folder file by
  -- its path. Deleted files stay as rows (deleted_at) and are in none of them.
  DROP INDEX files_by_workspace;
  CREATE INDEX files_listed ON files(workspace_id, created_at, id) WHERE deleted_at IS NULL;
  CREATE INDEX files_by_status ON files(workspace_id, indexing_status, created_at, id) WHERE deleted_at IS NULL;
  CREATE INDEX files_by_path ON files(workspace_id, json_extract(source, '$.path')) WHERE deleted_at IS NULL;
  `,
];
