import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, symlinkSync, truncateSync, statSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  DatabaseDamaged,
  DatabaseFromNewerKb,
  UnsafeDatabaseFile,
  isCorruption,
  openDatabase,
} from '../../src/server/state/database.js';
import { MIGRATIONS } from '../../src/server/state/migrations.js';
import { tempDir } from '../helpers/cli.js';
import {
  PAGE_SIZE,
  countOf,
  filledDatabase,
  overwritePage,
  pageHolding,
  rootPageOf,
} from '../helpers/database-files.js';

function refusal(path: string): Error {
  try {
    openDatabase(path).close();
  } catch (err) {
    return err as Error;
  }
  throw new Error(`${path} was opened`);
}

describe('openDatabase on a file it cannot use', () => {
  it('names a file of random bytes as damaged', () => {
    const path = join(tempDir(), 'state.db');
    writeFileSync(path, randomBytes(64 * 1024), { mode: 0o600 });
    const err = refusal(path);
    expect(err).toBeInstanceOf(DatabaseDamaged);
    expect(err.message).toBe(`${path} is damaged (not an SQLite database)`);
  });

  it('names a database cut in the middle of a page as damaged', () => {
    const path = join(tempDir(), 'state.db');
    filledDatabase(path);
    truncateSync(path, Math.floor(statSync(path).size / 2) + PAGE_SIZE / 2);
    const err = refusal(path);
    expect(err).toBeInstanceOf(DatabaseDamaged);
    expect(err.message).toMatch(/state.db is damaged \(cut short: \d+ bytes where its header says \d+\)$/);
  });

  it('finds a damaged root page of a table when opening, before any request reads it', () => {
    const path = join(tempDir(), 'state.db');
    filledDatabase(path);
    overwritePage(path, rootPageOf(path, 'chunks'));
    expect(refusal(path)).toBeInstanceOf(DatabaseDamaged);
  });

  it('leaves damage deeper in a table to the query that meets it, as SQLITE_CORRUPT', () => {
    // PRAGMA quick_check would find it, but reads the whole file: 1.4-2.3 s at 95 MB from disk.
    const path = join(tempDir(), 'state.db');
    filledDatabase(path);
    overwritePage(path, pageHolding(path, 'MARK-10-50.'));
    const db = openDatabase(path);
    expect(countOf(db, 'workspaces')).toBe(1);
    let met: unknown;
    try {
      db.prepare('SELECT text FROM chunks').raw().all();
    } catch (err) {
      met = err;
    }
    db.close();
    expect(isCorruption(met)).toBe(true);
  });

  it('refuses a database written by a newer kb, saying so rather than calling it damaged', () => {
    const path = join(tempDir(), 'state.db');
    openDatabase(path).close();
    const db = openDatabase(path);
    db.exec(`PRAGMA user_version=${MIGRATIONS.length + 1}`);
    db.close();
    const err = refusal(path);
    expect(err).toBeInstanceOf(DatabaseFromNewerKb);
    expect(err.message).toBe(
      `${path} was written by a newer kb (schema ${MIGRATIONS.length + 1}; this kb knows ${MIGRATIONS.length})`,
    );
  });

  it('refuses a link to a database, naming the link', () => {
    const dir = tempDir();
    openDatabase(join(dir, 'real.db')).close();
    symlinkSync(join(dir, 'real.db'), join(dir, 'state.db'));
    const err = refusal(join(dir, 'state.db'));
    expect(err).toBeInstanceOf(UnsafeDatabaseFile);
    expect(err.message).toMatch(/state\.db is a symbolic link, which kb serve does not follow/);
  });

  it('refuses a database others can read, and its -wal when others can', () => {
    const dir = tempDir();
    const path = join(dir, 'state.db');
    openDatabase(path).close();
    chmodSync(path, 0o644);
    expect(refusal(path).message).toBe(`${path} can be read or written by others (mode 644); chmod 600 it`);
    chmodSync(path, 0o600);
    writeFileSync(`${path}-wal`, '', { mode: 0o644 });
    chmodSync(`${path}-wal`, 0o644);
    expect(refusal(path)).toBeInstanceOf(UnsafeDatabaseFile);
  });

  it('refuses a directory and a FIFO without waiting on either', () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'folder.db'));
    execFileSync('mkfifo', ['-m', '600', join(dir, 'pipe.db')]);
    for (const name of ['folder.db', 'pipe.db']) {
      const err = refusal(join(dir, name));
      expect(err).toBeInstanceOf(UnsafeDatabaseFile);
      expect(err.message).toMatch(
        /is not a regular file \(a directory, a FIFO, a device\): give --data a file/,
      );
    }
  });

  it('creates a missing database 0600, and its -wal and -shm take that mode', () => {
    const path = join(tempDir(), 'state.db');
    const db = openDatabase(path);
    db.prepare('INSERT INTO workspaces VALUES (?, ?, ?)').run('ws_1', 'Main', 'now');
    for (const file of [path, `${path}-wal`, `${path}-shm`]) expect(statSync(file).mode & 0o777).toBe(0o600);
    db.close();
  });
});
