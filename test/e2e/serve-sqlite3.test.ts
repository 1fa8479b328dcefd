import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { runKb, tempDir } from '../helpers/cli.js';
import { api } from '../helpers/server.js';
import { startServeProcess } from '../helpers/serve-process.js';
import { itWith } from '../helpers/tools.js';

const KEY = 'kb_sqlite3_test_key';
const sqlite3 = (...args: string[]) => execFileSync('sqlite3', args, { encoding: 'utf8' }).trim();

describe("kb serve's state is a database a standard tool opens (#34)", () => {
  itWith('sqlite3')(
    'sqlite3 reads a running service, backs it up, and the copy serves what it held',
    async () => {
      const dir = tempDir();
      const docs = join(dir, 'docs');
      execFileSync('mkdir', [docs]);
      writeFileSync(
        join(docs, 'ferries.md'),
        '# Ferries\n\nThe night ferry to the island leaves at 23:40 from pier 4.\n',
      );
      const data = join(dir, 'state.db');
      const server = await startServeProcess(dir, ['--docs', docs, '--data', data, '--api-key', `ws:${KEY}`]);
      try {
        await expect
          .poll(
            () => sqlite3(data, "select indexing_status from files where original_filename = 'ferries.md'"),
            {
              timeout: 15_000,
            },
          )
          .toBe('COMPLETED');
        const thread = (await api(server, KEY, 'POST', '/v1/threads', {})).json.data.id;
        expect(
          (
            await api(server, KEY, 'POST', `/v1/threads/${thread}/messages`, {
              content: 'When does the night ferry leave?',
            })
          ).status,
        ).toBe(201);
        // Read while it runs: the records, the chunks, the key only as its hash.
        expect(sqlite3(data, 'select count(*) from messages')).toBe('2');
        expect(sqlite3(data, 'select count(*) from chunks where live = 1')).not.toBe('0');
        expect(sqlite3(data, `select count(*) from api_keys where key_hash = '${KEY}'`)).toBe('0');
        expect(sqlite3(data, 'select hint from api_keys')).toBe(KEY.slice(-4));
        // A backup taken while it runs.
        const copy = join(dir, 'copy.db');
        sqlite3(data, `.backup ${copy}`);
        execFileSync('chmod', ['600', copy]);
        expect(sqlite3(copy, 'pragma integrity_check')).toBe('ok');
      } finally {
        server.child.kill('SIGTERM');
      }
      // The copy is a state kb serve starts from: the thread and its answer are there.
      const copy = await startServeProcess(dir, ['--data', join(dir, 'copy.db'), '--api-key', `ws:${KEY}`]);
      try {
        const threads = await runKb(['threads', 'list', '--json'], {
          env: { KB_BASE_URL: copy.url, KB_API_KEY: KEY },
          configDir: dir,
        });
        expect(threads.code).toBe(0);
        expect(JSON.parse(threads.stdout)).toHaveLength(1);
        const results = await runKb(['search', 'night ferry', '--json'], {
          env: { KB_BASE_URL: copy.url, KB_API_KEY: KEY },
          configDir: dir,
        });
        expect(results.stdout).toContain('ferries.md');
      } finally {
        copy.child.kill('SIGTERM');
      }
    },
    60_000,
  );
});
