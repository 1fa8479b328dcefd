import { closeSync, openSync, readFileSync, writeSync } from 'node:fs';
import { type Database, openDatabase, scalar } from '../../src/server/state/database.js';

export const PAGE_SIZE = 4096;

/** A kb database with one workspace, `files` files and 100 chunks each, closed (its WAL merged). */
export function filledDatabase(path: string, files = 20): void {
  const db = openDatabase(path);
  const now = new Date(0).toISOString();
  db.prepare('INSERT INTO workspaces VALUES (?, ?, ?)').run('ws_1', 'Main', now);
  const file = db.prepare(
    "INSERT INTO files (id, workspace_id, original_filename, file_size, mime_type, indexing_status, created_at, updated_at) VALUES (?, 'ws_1', ?, 1, 'text/plain', 'COMPLETED', ?, ?)",
  );
  const chunk = db.prepare(
    "INSERT INTO chunks (id, file_id, workspace_id, n, filename, text, live) VALUES (?, ?, 'ws_1', ?, ?, ?, 1)",
  );
  db.transaction(() => {
    for (let f = 0; f < files; f++) {
      file.run(`file_${f}`, `doc-${f}.md`, now, now);
      for (let n = 0; n < 100; n++)
        chunk.run(
          `chunk_${f}_${n}`,
          `file_${f}`,
          n,
          `doc-${f}.md`,
          `MARK-${f}-${n}. ${'words of a passage '.repeat(12)}`,
        );
    }
  })();
  db.prepare('PRAGMA wal_checkpoint(TRUNCATE)').raw().get();
  db.close();
}

export const countOf = (db: Database, table: string) => Number(scalar(db, `SELECT count(*) FROM ${table}`));

/** The page number (from 1) of the first page holding `text`. */
export function pageHolding(path: string, text: string): number {
  const at = readFileSync(path).indexOf(text);
  if (at < 0) throw new Error(`${text} is not in ${path}`);
  return Math.floor(at / PAGE_SIZE) + 1;
}

/** The page (from 1) where `table` begins: with few rows, the one page that holds them all. */
export function rootPageOf(path: string, table: string): number {
  const db = openDatabase(path);
  try {
    return Number(scalar(db, 'SELECT rootpage FROM sqlite_master WHERE name = ?', table));
  } finally {
    db.close();
  }
}

/** Writes garbage over page `page` (from 1) of the file, as a bad disk or a stray write would. */
export function overwritePage(path: string, page: number): void {
  const fd = openSync(path, 'r+');
  try {
    const garbage = Buffer.alloc(PAGE_SIZE);
    for (let i = 0; i < PAGE_SIZE; i++) garbage[i] = (i * 7919 + 13) & 0xff;
    writeSync(fd, garbage, 0, PAGE_SIZE, (page - 1) * PAGE_SIZE);
  } finally {
    closeSync(fd);
  }
}
