import {
  closeSync,
  constants,
  existsSync,
  fsyncSync,
  linkSync,
  openSync,
  readSync,
  renameSync,
  rmSync,
} from 'node:fs';
import { dirname } from 'node:path';
import Libsql from 'libsql';
import { type Database, checkStateFile, companionsOf, openDatabase, scalar } from './database.js';

export interface TableRepair {
  table: string;
  kept: number;
  /** Rows an index knew of that could not be read, and rows whose parent row was lost. */
  lost: number;
}

export interface DatabaseRepair {
  tables: TableRepair[];
  /** Where the original (and its -wal, -shm) now is. */
  movedTo: string;
  /** Why no row at all could be read, when none could (the file is not a database). */
  unreadable?: string;
}

/**
 * What --repair does to the database at `path`: a database SQLite finds damaged anywhere
 * (PRAGMA quick_check reads every page: seconds for a large file, paid only when asked) is
 * repaired; a sound one, a missing one and a kb journal (JSON lines, imported instead) are left
 * as they are. The caller holds the database's lock.
 */
export function repairIfDamaged(path: string, now = new Date()): DatabaseRepair | undefined {
  if (!existsSync(path)) return undefined;
  checkStateFile(path);
  if (firstByte(path) === '{') return undefined;
  let sound = false;
  try {
    const db = readOnly(path);
    try {
      sound = scalar(db, 'PRAGMA quick_check') === 'ok';
    } finally {
      db.close();
    }
  } catch {
    // not readable as a database at all: repaired below
  }
  return sound ? undefined : repairDatabase(path, now);
}

function firstByte(path: string): string {
  const byte = Buffer.alloc(1);
  const fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW);
  try {
    return readSync(fd, byte, 0, 1, 0) ? byte.toString('latin1') : '';
  } finally {
    closeSync(fd);
  }
}

const readOnly = (path: string): Database =>
  new Libsql(`file:${path.replace(/[%?#]/g, (c) => encodeURIComponent(c))}?mode=ro`);

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;
const PAGE = 500;

/**
 * Replaces a damaged database with a new one holding every row that can still be read: table
 * by table of this kb's schema, rows are copied in rowid order; where a page cannot be read the
 * copy skips ahead, and the rows that the table's indexes know of are then read one by one. A
 * row whose parent row was lost (a chunk of a lost file) is dropped. The original is kept as
 * `<path>.damaged-<time>` with its -wal and -shm. The caller holds the database's lock.
 */
export function repairDatabase(path: string, now = new Date()): DatabaseRepair {
  const fresh = `${path}.repairing`;
  for (const file of [fresh, ...companionsOf(fresh)]) rmSync(file, { force: true });
  const target = openDatabase(fresh);
  const tables: TableRepair[] = [];
  let unreadable: string | undefined;
  let source: Database | undefined;
  try {
    target.exec('PRAGMA foreign_keys=OFF');
    try {
      source = readOnly(path);
      source.prepare('SELECT count(*) FROM sqlite_master').raw().get();
    } catch (err) {
      unreadable = (err as Error).message;
    }
    for (const table of tablesOf(target))
      tables.push({ table, ...(source ? copyTable(source, target, table) : { kept: 0, lost: 0 }) });
    dropOrphans(target, tables);
    target.exec('PRAGMA foreign_keys=ON');
    target.prepare('PRAGMA wal_checkpoint(TRUNCATE)').raw().get();
  } finally {
    source?.close();
    target.close();
  }
  const movedTo = `${path}.damaged-${now.toISOString().replace(/[:.]/g, '-')}`;
  // The original's -wal must not meet the new file: it moves first. The original is linked to
  // its new name before the new file replaces it, so at every moment one of them is at `path`.
  const movedCompanions = companionsOf(movedTo);
  companionsOf(path).forEach((file, i) => {
    if (existsSync(file)) renameSync(file, movedCompanions[i]!);
  });
  linkSync(path, movedTo);
  for (const file of companionsOf(fresh)) rmSync(file, { force: true });
  renameSync(fresh, path);
  syncFolder(dirname(path));
  return { tables, movedTo, ...(unreadable ? { unreadable } : {}) };
}

function tablesOf(db: Database): string[] {
  const rows = db
    .prepare(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND sql NOT LIKE 'CREATE VIRTUAL%' ORDER BY rootpage",
    )
    .raw()
    .all() as [string][];
  return rows.map(([name]) => name);
}

function columnsOf(db: Database, table: string): string[] {
  return (db.prepare(`PRAGMA table_info(${quote(table)})`).all() as { name: string }[]).map((c) => c.name);
}

function tryAll<T>(read: () => T[]): T[] {
  try {
    return read();
  } catch {
    return [];
  }
}

function copyTable(source: Database, target: Database, table: string): { kept: number; lost: number } {
  const have = new Set(tryAll(() => columnsOf(source, table)));
  const columns = columnsOf(target, table).filter((c) => have.has(c));
  if (!columns.length) return { kept: 0, lost: 0 };
  const list = columns.map(quote).join(', ');
  const insert = target.prepare(
    `INSERT INTO ${quote(table)} (_rowid_, ${list}) VALUES (?${', ?'.repeat(columns.length)})`,
  );
  // Statements are prepared for each read: one that met a damaged page fails again after it.
  const page = (after: number) =>
    source
      .prepare(
        `SELECT _rowid_, ${list} FROM ${quote(table)} WHERE _rowid_ > ? ORDER BY _rowid_ LIMIT ${PAGE}`,
      )
      .raw()
      .iterate(after) as Iterable<unknown[]>;
  const one = (rowid: number) =>
    source
      .prepare(`SELECT _rowid_, ${list} FROM ${quote(table)} WHERE _rowid_ = ?`)
      .raw()
      .get(rowid) as unknown[] | undefined;
  const copied = new Set<number>();
  const keep = (row: unknown[]) => {
    if (copied.has(Number(row[0]))) return;
    try {
      insert.run(...row);
      copied.add(Number(row[0]));
    } catch {
      // a row the schema refuses (a damaged value that repeats a unique one) is lost
    }
  };
  const indexed = rowidsInIndexes(source, table);
  target.transaction(() => {
    let after = Number.MIN_SAFE_INTEGER;
    for (;;) {
      const { rows, failed } = readPage(page, after);
      rows.forEach(keep);
      if (rows.length) after = Number(rows.at(-1)![0]);
      if (!failed && rows.length < PAGE) break;
      if (!failed) continue;
      // A page that cannot be read: read what comes after it, further and further ahead.
      const next = nextReadable(page, after);
      if (next === undefined) break;
      after = next;
    }
    for (const rowid of indexed) {
      if (copied.has(rowid)) continue;
      const row = tryAll(() => [one(rowid)])[0];
      if (row) keep(row);
    }
  })();
  const known = new Set([...copied, ...indexed]);
  return { kept: copied.size, lost: known.size - copied.size };
}

type Page = (after: number) => Iterable<unknown[]>;

/** The rows after `after` up to the first that cannot be read, and whether one could not. */
function readPage(page: Page, after: number): { rows: unknown[][]; failed: boolean } {
  const rows: unknown[][] = [];
  try {
    for (const row of page(after)) rows.push(row);
    return { rows, failed: false };
  } catch {
    return { rows, failed: true };
  }
}

/** A rowid from which rows can be read again past a damaged page, skipping 1, 2, 4... rowids. */
function nextReadable(page: Page, after: number): number | undefined {
  const start = after === Number.MIN_SAFE_INTEGER ? 0 : after;
  for (let skip = 1; start + skip < Number.MAX_SAFE_INTEGER; skip *= 2) {
    const { rows, failed } = readPage(page, start + skip);
    if (rows.length) return start + skip;
    if (!failed) return undefined;
  }
  return undefined;
}

/** The rowids each index of `table` holds: a damaged table page leaves its indexes readable. */
function rowidsInIndexes(source: Database, table: string): number[] {
  const indexes = tryAll(
    () => source.prepare(`PRAGMA index_list(${quote(table)})`).all() as { name: string }[],
  );
  const rowids = new Set<number>();
  for (const { name } of indexes) {
    try {
      const scan = source.prepare(`SELECT _rowid_ FROM ${quote(table)} INDEXED BY ${quote(name)}`);
      for (const [rowid] of scan.raw().iterate() as Iterable<[number]>) rowids.add(Number(rowid));
    } catch {
      // the rest of this index is damaged too
    }
  }
  return [...rowids];
}

/** Rows whose parent row was lost are dropped, and counted lost with their table. */
function dropOrphans(db: Database, tables: TableRepair[]): void {
  for (;;) {
    const orphans = db.prepare('PRAGMA foreign_key_check').all() as { table: string; rowid: number }[];
    if (!orphans.length) return;
    for (const { table, rowid } of orphans) {
      db.prepare(`DELETE FROM ${quote(table)} WHERE _rowid_ = ?`).run(rowid);
      const repair = tables.find((t) => t.table === table)!;
      repair.kept--;
      repair.lost++;
    }
  }
}

function syncFolder(folder: string): void {
  const fd = openSync(folder, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
