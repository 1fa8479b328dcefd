import { closeSync, constants, fstatSync, lstatSync, openSync, readSync } from 'node:fs';
import Libsql from 'libsql';
import { MIGRATIONS } from './migrations.js';

export type Database = Libsql.Database;
export type Statement = Libsql.Statement<unknown[]>;

/**
 * The database file cannot be used as it is: kb serve says which file and how to recover
 * (`--repair` copies every readable row into a new file, see database-repair.ts).
 */
export class DatabaseDamaged extends Error {
  override name = 'DatabaseDamaged';
  constructor(
    readonly path: string,
    readonly problem: string,
  ) {
    super(`${path} is damaged (${problem})`);
  }
}

/** The database was written by a newer kb: nothing is damaged, and --repair would not help. */
export class DatabaseFromNewerKb extends DatabaseDamaged {
  override name = 'DatabaseFromNewerKb';
  constructor(
    path: string,
    readonly version: number,
  ) {
    super(path, `schema ${version}; this kb knows ${MIGRATIONS.length}`);
    this.message = `${path} was written by a newer kb (schema ${version}; this kb knows ${MIGRATIONS.length})`;
  }
}

/** A file kb serve will not open as its state: a link, someone else's, open to others, not a file. */
export class UnsafeDatabaseFile extends Error {
  override name = 'UnsafeDatabaseFile';
  constructor(
    readonly path: string,
    readonly problem: string,
  ) {
    super(`${path} ${problem}`);
  }
}

/** The files SQLite keeps for a database in WAL mode. */
export const companionsOf = (path: string) => [`${path}-wal`, `${path}-shm`, `${path}-journal`];

/**
 * Opens kb serve's state: the SQLite database at `path` (created 0600 when missing), or an
 * in-memory one without a path. WAL, synchronous=FULL (a commit is on disk when it returns),
 * foreign keys on; the schema's migrations not yet applied are applied, each in a transaction.
 */
export function openDatabase(path?: string): Database {
  if (path) checkStateFile(path);
  const name = path ?? ':memory:';
  let db: Database;
  try {
    db = new Libsql(name);
  } catch (err) {
    throw new DatabaseDamaged(name, describe(err));
  }
  try {
    // Reading the schema is what finds a file that is not a database (SQLITE_NOTADB).
    db.prepare('SELECT count(*) FROM sqlite_master').raw().get();
    if (path) db.prepare('PRAGMA journal_mode=WAL').raw().get();
    db.exec('PRAGMA synchronous=FULL; PRAGMA foreign_keys=ON; PRAGMA busy_timeout=5000;');
    migrate(db, name);
    if (path) checkLength(path);
    readFirstRows(db);
  } catch (err) {
    db.close();
    if (err instanceof DatabaseDamaged) throw err;
    throw new DatabaseDamaged(name, describe(err));
  }
  return db;
}

/** SQLite's answer for a file whose pages are not what they should be. */
export const isCorruption = (err: unknown) =>
  ['SQLITE_CORRUPT', 'SQLITE_NOTADB'].includes(String((err as { code?: unknown } | null)?.code ?? ''));

/**
 * A file shorter than its header says was cut (a copy stopped, a disk filled): SQLite would
 * open it and fail only at the pages that are gone. The header's page count holds once a
 * checkpoint has completed; while the -wal has frames, the file may be behind it.
 */
function checkLength(path: string): void {
  if ((lstatOrUndefined(`${path}-wal`)?.size ?? 0) > 0) return;
  const header = Buffer.alloc(100);
  const fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW);
  let size: number;
  try {
    if (readSync(fd, header, 0, 100, 0) < 100) return;
    size = fstatSync(fd).size;
  } finally {
    closeSync(fd);
  }
  const pageSize = header.readUInt16BE(16) === 1 ? 65536 : header.readUInt16BE(16);
  const pages = header.readUInt32BE(28);
  // The page count is valid only when written with the change counter (offsets 24 and 92).
  if (header.readUInt32BE(24) !== header.readUInt32BE(92)) return;
  if (pages * pageSize > size)
    throw new DatabaseDamaged(path, `cut short: ${size} bytes where its header says ${pages * pageSize}`);
}

/**
 * The start-up check: every table's root page and first leaf are read, which finds a damaged
 * root at once (0.2 ms). PRAGMA quick_check would find any damaged page, but it reads the whole
 * file: on a 95 MB database of chunk rows it took 70-120 ms from the page cache and 1.4-2.3 s
 * from disk, too slow for a restart. Damage deeper in a table is met by the query that reads
 * it: SQLITE_CORRUPT, which the service answers 503 naming the file (isCorruption).
 */
function readFirstRows(db: Database): void {
  const tables = db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
    .raw()
    .all() as [string][];
  for (const [table] of tables)
    db.prepare(`SELECT * FROM "${table.replaceAll('"', '""')}" LIMIT 1`)
      .raw()
      .get();
}

/** The first column of the first row of `sql` (libsql's `pluck` is not implemented). */
const statements = new WeakMap<Database, Map<string, Statement>>();

/** `sql` prepared once per database (kept in its mode: `.raw()` stays raw). */
export function prepared(db: Database, sql: string): Statement {
  let cache = statements.get(db);
  if (!cache) statements.set(db, (cache = new Map()));
  let statement = cache.get(sql);
  if (!statement) cache.set(sql, (statement = db.prepare<unknown[]>(sql)));
  return statement;
}

export function scalar(db: Database, sql: string, ...params: unknown[]): unknown {
  return (
    db
      .prepare(sql)
      .raw()
      .get(...params) as unknown[] | undefined
  )?.[0];
}

function migrate(db: Database, path: string): void {
  const current = Number(scalar(db, 'PRAGMA user_version'));
  if (current > MIGRATIONS.length) throw new DatabaseFromNewerKb(path, current);
  for (let version = current + 1; version <= MIGRATIONS.length; version++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[version - 1]!);
      db.exec(`PRAGMA user_version=${version}`);
    })();
  }
}

/**
 * The database and the files SQLite keeps beside it are regular files of this user, closed to
 * others, reached without a link: anything else was placed by someone else and is refused. A
 * missing database is created here (0600, exclusively, never through a link), so that SQLite's
 * own files, which take its mode, are 0600 too.
 */
export function checkStateFile(path: string): void {
  for (const file of [path, ...companionsOf(path)]) {
    const stat = lstatOrUndefined(file);
    if (!stat) continue;
    if (stat.isSymbolicLink())
      throw new UnsafeDatabaseFile(
        file,
        'is a symbolic link, which kb serve does not follow: give the real path',
      );
    if (!stat.isFile())
      throw new UnsafeDatabaseFile(
        file,
        'is not a regular file (a directory, a FIFO, a device): give --data a file',
      );
    if (typeof process.getuid === 'function' && stat.uid !== process.getuid())
      throw new UnsafeDatabaseFile(
        file,
        'belongs to another user: run kb serve as its owner, or serve a copy',
      );
    if (stat.mode & 0o077)
      throw new UnsafeDatabaseFile(
        file,
        `can be read or written by others (mode ${(stat.mode & 0o777).toString(8)}); chmod 600 it`,
      );
  }
  if (!lstatOrUndefined(path)) {
    const fd = openSync(
      path,
      constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY | constants.O_NOFOLLOW,
      0o600,
    );
    try {
      if (!fstatSync(fd).isFile()) throw new UnsafeDatabaseFile(path, 'is not a regular file');
    } finally {
      closeSync(fd);
    }
  }
}

function lstatOrUndefined(path: string) {
  try {
    return lstatSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

function describe(err: unknown): string {
  const code = (err as { code?: string }).code;
  if (code === 'SQLITE_NOTADB') return 'not an SQLite database';
  if (code === 'SQLITE_CORRUPT') return `SQLite: ${(err as Error).message}`;
  return `${(err as Error).message}${code ? `, ${code}` : ''}`;
}
