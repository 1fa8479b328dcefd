import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  symlinkSync,
  truncateSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/server/state/database.js';
import { MIGRATIONS } from '../../src/server/state/migrations.js';
import { tempDir } from '../helpers/cli.js';
import { PAGE_SIZE, filledDatabase, overwritePage, pageHolding } from '../helpers/database-files.js';
import { api } from '../helpers/server.js';
import { serveRefusal, startServeProcess } from '../helpers/serve-process.js';

const KEY = 'kb_database_key';
const keys = { KB_SERVE_API_KEYS: `main:${KEY}` };

/** One line on stderr, exit 1, nothing on stdout, no stack. */
async function refusedInOneLine(dir: string, args: string[]) {
  const res = await serveRefusal(dir, args);
  expect(res.code, res.stderr).toBe(1);
  expect(res.stdout).toBe('');
  expect(res.stderr.trimEnd().split('\n'), res.stderr).toHaveLength(1);
  expect(res.stderr).not.toMatch(/^\s+at /m);
  return res.stderr.trimEnd();
}

describe('one kb serve per --data file', () => {
  it('refuses a second kb serve on the same --data, naming the first, which goes on serving', async () => {
    const dir = tempDir();
    const data = join(dir, 'state.db');
    const first = await startServeProcess(dir, ['--data', data], keys);
    try {
      const line = await refusedInOneLine(dir, ['--data', data]);
      expect(line).toBe(
        `error: ${data} is in use by another kb serve (pid ${first.child.pid}): stop it first, or give this one another --data file`,
      );
      expect((await api(first, KEY, 'GET', '/v1/threads')).status).toBe(200);
    } finally {
      first.child.kill('SIGTERM');
    }
  });

  it('starts at once after the first was killed with kill -9, and leaves no lock file after a clean stop', async () => {
    const dir = tempDir();
    const data = join(dir, 'state.db');
    const first = await startServeProcess(dir, ['--data', data], keys);
    first.child.kill('SIGKILL');
    await new Promise((resolve) => first.child.once('exit', resolve));
    const started = Date.now();
    const second = await startServeProcess(dir, ['--data', data], keys);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect((await api(second, KEY, 'GET', '/v1/threads')).status).toBe(200);
    second.child.kill('SIGTERM');
    await new Promise((resolve) => second.child.once('exit', resolve));
    expect(existsSync(`${data}.lock`)).toBe(false);
  });
});

describe('kb serve on a --data that is not a file', () => {
  it('refuses a directory and a FIFO in one line each, without waiting on the FIFO', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'folder.db'));
    execFileSync('mkfifo', ['-m', '600', join(dir, 'pipe.db')]);
    for (const name of ['folder.db', 'pipe.db']) {
      const res = await serveRefusal(dir, ['--data', join(dir, name)]);
      expect(res.code).toBe(2);
      expect(res.stderr.trimEnd()).toBe(`error: --data ${join(dir, name)}: not a file`);
    }
  });
});

// These need startServer to open --data with openDatabase (h-state's wiring); until then kb
// serve reads the file as a journal and says so instead.
describe('kb serve on a damaged or unsafe --data database', () => {
  const hint = (data: string) =>
    `: start with --repair to keep every readable record (the original is moved aside), or restore a backup (sqlite3 ${data} ".backup" made one)`;

  it('names a file of random bytes as damaged, with both ways to recover', async () => {
    const dir = tempDir();
    const data = join(dir, 'state.db');
    const bytes = randomBytes(16 * PAGE_SIZE);
    // Not a journal's start: random bytes opening with "{" (1 run in ~250) are read as an old
    // kb's JSONL journal, damaged, which is another test's case (CI on Node 22 drew one).
    bytes[0] = 0x01;
    writeFileSync(data, bytes, { mode: 0o600 });
    expect(await refusedInOneLine(dir, ['--data', data])).toBe(
      `error: ${data} is damaged (not an SQLite database)${hint(data)}`,
    );
  });

  it('names a database cut in the middle of a page as damaged', async () => {
    const dir = tempDir();
    const data = join(dir, 'state.db');
    filledDatabase(data);
    truncateSync(data, Math.floor(statSync(data).size / 2) + PAGE_SIZE / 2);
    const line = await refusedInOneLine(dir, ['--data', data]);
    // By its header when SQLite wrote the page count with it, else by SQLite at the first read.
    expect(line).toMatch(
      /is damaged \((cut short: \d+ bytes where its header says \d+|SQLite: database disk image is malformed)\)/,
    );
    expect(line.startsWith(`error: ${data} is damaged`) && line.endsWith(hint(data))).toBe(true);
  });

  it('refuses a database of a newer kb without offering --repair', async () => {
    const dir = tempDir();
    const data = join(dir, 'state.db');
    const db = openDatabase(data);
    db.exec(`PRAGMA user_version=${MIGRATIONS.length + 1}`);
    db.close();
    const line = await refusedInOneLine(dir, ['--data', data]);
    expect(line).toMatch(/was written by a newer kb/);
    expect(line).not.toMatch(/--repair/);
  });

  it('refuses a link and a file others can read, naming each', async () => {
    const dir = tempDir();
    const data = join(dir, 'state.db');
    openDatabase(join(dir, 'real.db')).close();
    symlinkSync(join(dir, 'real.db'), data);
    expect(await refusedInOneLine(dir, ['--data', data])).toMatch(/state\.db is a symbolic link/);
    chmodSync(join(dir, 'real.db'), 0o644);
    expect(await refusedInOneLine(dir, ['--data', join(dir, 'real.db')])).toMatch(
      /real\.db can be read or written by others \(mode 644\); chmod 600 it$/,
    );
  });

  it('with --repair, keeps every readable row, says what it kept and lost, and keeps the original', async () => {
    const dir = tempDir();
    const data = join(dir, 'state.db');
    filledDatabase(data);
    overwritePage(data, pageHolding(data, 'MARK-10-50.'));
    const server = await startServeProcess(dir, ['--data', data, '--repair'], keys, { human: true });
    try {
      expect(server.stderr()).toMatch(
        new RegExp(
          `repaired ${data}: kept workspaces 1, files 20, chunks \\d+; lost chunks \\d+; the original is ${data}\\.damaged-`,
        ),
      );
      expect(readdirSync(dir).some((f) => f.startsWith('state.db.damaged-'))).toBe(true);
    } finally {
      server.child.kill('SIGTERM');
    }
  });
});
