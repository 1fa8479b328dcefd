import { closeSync, constants, lstatSync, openSync, readSync, unlinkSync } from 'node:fs';
import Libsql from 'libsql';
import { checkStateFile } from './database.js';

/** Another kb serve holds this --data file: one service per database. */
export class DatabaseInUse extends Error {
  override name = 'DatabaseInUse';
  constructor(
    readonly path: string,
    /** The process that holds it, when its lock says so. */
    readonly pid?: number,
  ) {
    super(`${path} is in use by another kb serve${pid ? ` (pid ${pid})` : ''}`);
  }
}

export interface DatabaseLock {
  readonly path: string;
  release(): void;
}

export const lockFileOf = (path: string) => `${path}.lock`;

/**
 * Makes this process the only kb serve of the database at `path`, until `release`. The lock is
 * an exclusive lock on a small SQLite file beside it (`<path>.lock`), which the operating
 * system drops when the process ends, even by kill -9: a lock is never stale, and nothing
 * waits for one to age. The database itself is not locked, so `sqlite3` can read it meanwhile.
 * The holder's pid is in that file's header (user_version), readable without the lock.
 */
export function lockDatabase(path: string): DatabaseLock {
  const lockFile = lockFileOf(path);
  // The holder removes the file before it lets go: a lock taken on a file that is no longer
  // at its path (removed or replaced meanwhile) is let go and taken again on the new one.
  for (;;) {
    checkStateFile(lockFile);
    const before = inodeOf(lockFile);
    const db = new Libsql(lockFile);
    try {
      db.exec(`PRAGMA busy_timeout=0; PRAGMA journal_mode=OFF; PRAGMA locking_mode=EXCLUSIVE;
        BEGIN EXCLUSIVE; PRAGMA user_version=${process.pid}; COMMIT;`);
    } catch (err) {
      db.close();
      if ((err as { code?: string }).code === 'SQLITE_BUSY')
        throw new DatabaseInUse(path, holderOf(lockFile));
      throw err;
    }
    if (before === undefined || inodeOf(lockFile) !== before) {
      db.close();
      continue;
    }
    return held(path, lockFile, db);
  }
}

function held(path: string, lockFile: string, db: Libsql.Database): DatabaseLock {
  let released = false;
  return {
    path,
    release() {
      if (released) return;
      released = true;
      try {
        unlinkSync(lockFile);
      } catch {
        // gone already, or a system that does not remove an open file: the next holder reuses it
      }
      db.close();
    },
  };
}

function inodeOf(file: string): number | undefined {
  try {
    return lstatSync(file).ino;
  } catch {
    return undefined;
  }
}

/** The pid a holder wrote at offset 60 of the lock file's header (SQLite's user_version). */
function holderOf(lockFile: string): number | undefined {
  const header = Buffer.alloc(64);
  let fd: number | undefined;
  try {
    fd = openSync(lockFile, constants.O_RDONLY | constants.O_NOFOLLOW);
    if (readSync(fd, header, 0, 64, 0) < 64) return undefined;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  const pid = header.readInt32BE(60);
  return pid > 0 ? pid : undefined;
}
