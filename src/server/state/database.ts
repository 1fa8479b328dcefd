import { closeSync, constants, fstatSync, lstatSync, openSync } from 'node:fs';
import Libsql from 'libsql';
import { MIGRATIONS } from './migrations.js';

export type Database = Libsql.Database;
export type Statement = Libsql.Statement<unknown[]>;

/** The database file cannot be used as it is: kb serve says which file and how to recover. */
export class DatabaseDamaged extends Error {
  override name = 'DatabaseDamaged';
  constructor(
    readonly path: string,
    readonly problem: string,
  ) {
    super(`${path}: ${problem}`);
  }
}

/** A file kb serve will not open as its state: a link, someone else's, open to others, not a file. */
export class UnsafeDatabaseFile extends Error {
  override name = 'UnsafeDatabaseFile';
  constructor(
    readonly path: string,
    readonly problem: string,
  ) {
    super(`${path}: ${problem}`);
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
  if (path) checkFiles(path);
  let db: Database;
  try {
    db = new Libsql(path ?? ':memory:');
  } catch (err) {
    throw new DatabaseDamaged(path ?? ':memory:', describe(err));
  }
  try {
    // Reading the schema is what finds a file that is not a database (SQLITE_NOTADB).
    db.prepare('SELECT count(*) FROM sqlite_master').raw().get();
    if (path) db.prepare('PRAGMA journal_mode=WAL').raw().get();
    db.exec('PRAGMA synchronous=FULL; PRAGMA foreign_keys=ON; PRAGMA busy_timeout=5000;');
    migrate(db);
  } catch (err) {
    db.close();
    if (err instanceof NewerSchema) throw new DatabaseDamaged(path ?? ':memory:', err.message);
    throw new DatabaseDamaged(path ?? ':memory:', describe(err));
  }
  return db;
}

/** The first column of the first row of `sql` (libsql's `pluck` is not implemented). */
export function scalar(db: Database, sql: string, ...params: unknown[]): unknown {
  return (
    db
      .prepare(sql)
      .raw()
      .get(...params) as unknown[] | undefined
  )?.[0];
}

class NewerSchema extends Error {}

function migrate(db: Database): void {
  const current = Number(scalar(db, 'PRAGMA user_version'));
  if (current > MIGRATIONS.length)
    throw new NewerSchema(
      `written by a newer kb (schema ${current}; this kb knows ${MIGRATIONS.length}): use that kb, or a copy made before`,
    );
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
function checkFiles(path: string): void {
  for (const file of [path, ...companionsOf(path)]) {
    const stat = lstatOrUndefined(file);
    if (!stat) continue;
    if (stat.isSymbolicLink())
      throw new UnsafeDatabaseFile(file, 'is a symbolic link; kb serve will not follow it');
    if (!stat.isFile()) throw new UnsafeDatabaseFile(file, 'is not a regular file');
    if (typeof process.getuid === 'function' && stat.uid !== process.getuid())
      throw new UnsafeDatabaseFile(file, 'belongs to another user');
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
  if (code === 'SQLITE_NOTADB') return 'is not a kb database (nor an SQLite one)';
  if (code === 'SQLITE_CORRUPT') return 'is damaged (SQLite found it corrupt)';
  return `${(err as Error).message}${code ? ` (${code})` : ''}`;
}
