import { existsSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Libsql from 'libsql';
import { describe, expect, it } from 'vitest';
import { UnsafeDatabaseFile, openDatabase } from '../../src/server/state/database.js';
import { DatabaseInUse, lockDatabase, lockFileOf } from '../../src/server/state/database-lock.js';
import { tempDir } from '../helpers/cli.js';

function refusal(path: string): Error {
  try {
    lockDatabase(path).release();
  } catch (err) {
    return err as Error;
  }
  throw new Error(`${path} was locked twice`);
}

describe('lockDatabase', () => {
  it('refuses a second holder of the same database, naming the file and the holding pid', () => {
    const path = join(tempDir(), 'state.db');
    const lock = lockDatabase(path);
    const err = refusal(path);
    expect(err).toBeInstanceOf(DatabaseInUse);
    expect((err as DatabaseInUse).pid).toBe(process.pid);
    expect(err.message).toBe(`${path} is in use by another kb serve (pid ${process.pid})`);
    lock.release();
    lockDatabase(path).release();
  });

  it('locks one database, not its neighbours', () => {
    const dir = tempDir();
    const one = lockDatabase(join(dir, 'one.db'));
    const two = lockDatabase(join(dir, 'two.db'));
    one.release();
    two.release();
  });

  it('leaves the database readable and writable by another connection, as sqlite3 would open it', () => {
    const path = join(tempDir(), 'state.db');
    const lock = lockDatabase(path);
    const db = openDatabase(path);
    db.prepare('INSERT INTO workspaces VALUES (?, ?, ?)').run('ws_1', 'Main', 'now');
    const reader = new Libsql(path);
    expect(reader.prepare('SELECT name FROM workspaces').raw().all()).toEqual([['Main']]);
    reader.close();
    db.close();
    lock.release();
  });

  it('keeps its lock file 0600 while held, removes it on release, and refuses one that is a link', () => {
    const dir = tempDir();
    const path = join(dir, 'state.db');
    const lock = lockDatabase(path);
    expect(statSync(lockFileOf(path)).mode & 0o777).toBe(0o600);
    lock.release();
    expect(existsSync(lockFileOf(path))).toBe(false);
    writeFileSync(join(dir, 'elsewhere'), '', { mode: 0o600 });
    symlinkSync(join(dir, 'elsewhere'), lockFileOf(join(dir, 'linked.db')));
    expect(refusal(join(dir, 'linked.db'))).toBeInstanceOf(UnsafeDatabaseFile);
  });
});
