import { describe, expect, it } from 'vitest';
import { CliError } from '../../src/errors.js';
import { join } from 'node:path';
import { describeRepair, lockState, refuseState } from '../../src/commands/serve/state-file.js';
import { DatabaseDamaged, DatabaseFromNewerKb, UnsafeDatabaseFile } from '../../src/server/state/database.js';
import { DatabaseInUse, lockDatabase } from '../../src/server/state/database-lock.js';
import { tempDir } from '../helpers/cli.js';

async function refused(err: unknown): Promise<CliError> {
  try {
    await refuseState(err);
  } catch (thrown) {
    return thrown as CliError;
  }
  throw new Error('not refused');
}

describe('kb serve on a state file it cannot use', () => {
  it('says in one line which file is damaged and both ways to recover', async () => {
    const err = await refused(new DatabaseDamaged('/srv/kb.db', 'not an SQLite database'));
    expect(err.message).toBe(
      '/srv/kb.db is damaged (not an SQLite database): start with --repair to keep every readable record (the original is moved aside), or restore a backup (sqlite3 /srv/kb.db ".backup" made one)',
    );
    expect([err.exitCode, err.code, err.hint]).toEqual([1, 'database_damaged', undefined]);
  });

  it('does not offer --repair for a database of a newer kb', async () => {
    const err = await refused(new DatabaseFromNewerKb('/srv/kb.db', 9));
    expect(err.message).toMatch(
      /^\/srv\/kb\.db was written by a newer kb \(schema 9; this kb knows \d+\): serve it with that kb/,
    );
    expect(err.code).toBe('database_too_new');
  });

  it('names the kb serve that holds the file', async () => {
    const err = await refused(new DatabaseInUse('/srv/kb.db', 4242));
    expect(err.message).toBe(
      '/srv/kb.db is in use by another kb serve (pid 4242): stop it first, or give this one another --data file',
    );
    expect(err.code).toBe('database_in_use');
  });

  it('passes on an unsafe file as it is said, and leaves other errors alone', async () => {
    const err = await refused(
      new UnsafeDatabaseFile(
        '/srv/kb.db',
        'belongs to another user: run kb serve as its owner, or serve a copy',
      ),
    );
    expect(err.message).toBe(
      '/srv/kb.db belongs to another user: run kb serve as its owner, or serve a copy',
    );
    await expect(refuseState(new Error('EADDRINUSE'))).resolves.toBeUndefined();
  });

  it('counts what --repair kept and lost by table', () => {
    const tables = [
      { table: 'workspaces', kept: 1, lost: 0 },
      { table: 'threads', kept: 0, lost: 0 },
      { table: 'chunks', kept: 1986, lost: 14 },
    ];
    expect(describeRepair('kb.db', { tables, movedTo: 'kb.db.damaged-T' })).toBe(
      'repaired kb.db: kept workspaces 1, chunks 1986; lost chunks 14; the original is kb.db.damaged-T',
    );
    expect(
      describeRepair('kb.db', { tables, movedTo: 'kb.db.damaged-T', unreadable: 'file is not a database' }),
    ).toBe(
      'repaired kb.db: no record could be read (file is not a database): it starts empty; the original is kb.db.damaged-T',
    );
  });
});

describe('kb serve taking its --data lock', () => {
  it('waits a moment for a kb serve that is stopping, then refuses one that goes on', async () => {
    const path = join(tempDir(), 'state.db');
    const first = lockDatabase(path);
    setTimeout(() => first.release(), 200);
    const second = await lockState(path, 2000);
    const started = Date.now();
    await expect(lockState(path, 300)).rejects.toThrow(/is in use by another kb serve/);
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    second.release();
  });
});
