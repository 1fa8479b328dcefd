import { type Database, scalar } from '../state/database.js';
import { TOKENIZER_VERSION } from './tokens.js';

/**
 * The search index's own tables, beside the state's: derived from the chunks, so they are
 * dropped and made again (not migrated) when this version changes.
 */
const SEARCH_VERSION = `2:${TOKENIZER_VERSION}`;

/**
 * kb's terms go into FTS5 already tokenized (identifiers kept whole, Porter2 stems), separated
 * by spaces: the tokenizer only has to split on them. Its token characters are those kb's terms
 * can hold besides letters and digits (`@` an e-mail address's); a capital letter (kept in `-A`, `%H`) is written `^a`,
 * since unicode61 folds case.
 */
export const FTS_TOKENIZER = `unicode61 remove_diacritics 0 tokenchars '_.%-^@'`;

export const ftsTable = (n: number) => `search_fts_${n}`;
export const vocabTable = (n: number) => `search_vocab_${n}`;

/** Whether the index must be made again from the chunks (new, or of another version). */
export function ensureSearchSchema(db: Database): { rebuild: boolean } {
  const made = scalar(db, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'search_meta'");
  const version = made ? scalar(db, "SELECT value FROM search_meta WHERE key = 'version'") : undefined;
  if (version === SEARCH_VERSION) {
    createStagedTable(db);
    return { rebuild: false };
  }
  db.transaction(() => {
    dropSearchTables(db);
    db.exec(`
      CREATE TABLE search_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
      -- One FTS5 table per workspace (search_fts_<n>): each workspace's words weigh only on its own ranking.
      CREATE TABLE search_workspaces (n INTEGER PRIMARY KEY, workspace_id TEXT NOT NULL UNIQUE);
      -- Per indexed chunk: its table and its length in terms (BM25's document length).
      CREATE TABLE search_chunks (
        rowid INTEGER PRIMARY KEY,
        n INTEGER NOT NULL,
        file_id TEXT NOT NULL,
        length INTEGER NOT NULL
      );
      CREATE INDEX search_chunks_by_file ON search_chunks(file_id);
      -- Per workspace table: how many chunks and terms it holds (BM25's N and average length).
      CREATE TABLE search_stats (n INTEGER PRIMARY KEY, chunks INTEGER NOT NULL, terms INTEGER NOT NULL);
    `);
    createStagedTable(db);
    db.prepare("INSERT INTO search_meta (key, value) VALUES ('version', ?)").run(SEARCH_VERSION);
  })();
  return { rebuild: true };
}

/**
 * Per part of a large file stored before the file is indexed: its terms are in the FTS5 table
 * already, its row goes to search_chunks when the file is indexed; and per chunk withdrawn whose
 * FTS5 row is yet to be removed. Made where missing (an index of the same version made before
 * they existed).
 */
function createStagedTable(db: Database): void {
  db.exec(`
    CREATE TABLE IF NOT EXISTS search_staged (
      rowid INTEGER PRIMARY KEY,
      n INTEGER NOT NULL,
      file_id TEXT NOT NULL,
      length INTEGER NOT NULL
    );
    CREATE INDEX IF NOT EXISTS search_staged_by_file ON search_staged(file_id);
    -- Whether a workspace's table holds parts, asked by each search while some are staged.
    CREATE INDEX IF NOT EXISTS search_staged_by_table ON search_staged(n);
    -- Rows of withdrawn chunks still in their FTS5 table, removed a part at a time (see SearchIndex.purge).
    CREATE TABLE IF NOT EXISTS search_purge (rowid INTEGER PRIMARY KEY, n INTEGER NOT NULL);
    CREATE INDEX IF NOT EXISTS search_purge_by_table ON search_purge(n);
  `);
}

/** Creates the FTS5 table (and its vocabulary view) of workspace table `n`. */
export function createWorkspaceTables(db: Database, n: number): void {
  db.exec(`
    CREATE VIRTUAL TABLE ${ftsTable(n)} USING fts5(
      body, name, tokenize = "${FTS_TOKENIZER}"
    );
    CREATE VIRTUAL TABLE ${vocabTable(n)} USING fts5vocab(${ftsTable(n)}, 'row');
  `);
  db.prepare('INSERT INTO search_stats (n, chunks, terms) VALUES (?, 0, 0)').run(n);
}

function dropSearchTables(db: Database): void {
  const tables = db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'search\\_%' ESCAPE '\\'")
    .raw()
    .all() as [string][];
  // Vocabulary views first: they refer to their FTS table.
  // The vectors stay: they do not depend on the tokenizer, and cost an endpoint's calls to make.
  const names = tables
    .map(([name]) => name)
    .filter((name) => !/^search_fts_\d+_/.test(name) && name !== 'search_vectors');
  names.sort((a, b) => Number(b.startsWith('search_vocab_')) - Number(a.startsWith('search_vocab_')));
  for (const name of names) db.exec(`DROP TABLE IF EXISTS "${name}"`);
}
