import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { itWith } from '../helpers/tools.js';
import type { RunningServer } from '../../src/server/index.js';
import { BIN, baseEnv, ROOT, runKb, runKbOnTTY, runKbTraced, stripAnsi, tempDir } from '../helpers/cli.js';
import { api, freePort, startTestServer } from '../helpers/server.js';

let server: RunningServer;
let env: Record<string, string>;

beforeAll(async () => {
  server = await startTestServer({ demo: true });
  env = { KB_BASE_URL: server.url, KB_API_KEY: server.keys.demo! };
});
afterAll(() => server.close());

const kb = (args: string[], input?: string) => runKb(args, { env, input });

describe('kb threads', () => {
  itWith('script')(
    'lists as tab-separated rows when piped and as a coloured table on a TTY, filtered and limited by the service',
    async () => {
      const piped = await kb(['threads', 'list']);
      expect(piped.code).toBe(0);
      const rows = piped.stdout
        .trim()
        .split('\n')
        .map((l) => l.split('\t'));
      expect(rows[0]).toHaveLength(4);
      expect(rows.map((r) => r[2])).toEqual(expect.arrayContaining(['OPEN', 'CLOSED', 'ARCHIVED']));
      expect(rows[0]![3]).toMatch(/Z$/);
      expect(piped.stdout).not.toContain('\u001b[');

      const tty = await runKbOnTTY(['threads', 'list'], { env });
      const screen = stripAnsi(tty.stdout);
      expect(screen).toMatch(/ID\s+TITLE\s+STATUS\s+CREATED/);
      expect(screen).toContain('just now');
      expect(tty.stdout).toContain('\u001b[32mOPEN');

      // Widths, --json, --jsonl and --ids are the verb's tests (test/verbs/threads.test.ts); here,
      // what only the real service shows: its status filter, and --limit asking it for fewer.
      const open = (await kb(['threads', 'list', '--ids', '--status', 'open'])).stdout.trim().split('\n');
      expect(open).toEqual(rows.filter((r) => r[2] === 'OPEN').map((r) => r[0]));
      expect((await kb(['threads', 'list', '--ids', '--limit', '2'])).stdout).toBe(
        `${rows[0]![0]}\n${rows[1]![0]}\n`,
      );
    },
  );

  itWith('script')('creates, sends and reads back a thread', async () => {
    const created = await kb(['threads', 'create', '--title', 'CLI test', '--ids']);
    const id = created.stdout.trim();
    expect(id).toMatch(/^thr_/);
    const send = await kb(['threads', 'send', id, 'How', 'much', 'is', 'the', 'Growth', 'plan?']);
    expect(send.code).toBe(0);
    expect(send.stdout).toContain('29 dollars');
    expect(send.stderr).toBe('');
    const piped = await kb(['threads', 'send', id, '-'], 'What does error E-4102 mean?\n');
    expect(piped.stdout).toContain('IMAP');
    const both = JSON.parse(
      (await kb(['threads', 'send', id, 'Which certifications does Orbitdesk hold?', '--json'])).stdout,
    );
    expect(both.userMessage.role).toBe('user');
    expect(both.aiResponse.content).toContain('SOC 2');
    const thread = JSON.parse((await kb(['threads', 'get', id, '--json'])).stdout);
    expect(thread).toMatchObject({ id, title: 'CLI test', status: 'OPEN' });
    expect(thread.messages).toHaveLength(6);
    const view = await runKbOnTTY(['threads', 'view', id], { env, columns: 60 });
    const screen = stripAnsi(view.stdout);
    expect(screen).toContain('CLI test');
    expect(screen).toContain('You');
    expect(screen).toContain('Assistant');
    expect(screen.split('\n').every((line) => line.length <= 60)).toBe(true);
  });

  itWith('script')('on a TTY, shows a spinner for a slow reply and none for a fast one', async () => {
    const slow = await startTestServer({ demo: true, replyDelayMs: 1200 });
    const slowEnv = { KB_BASE_URL: slow.url, KB_API_KEY: slow.keys.demo! };
    const slowThread = (await api(slow, slow.keys.demo, 'POST', '/v1/threads', {})).json.data;
    const waited = await runKbOnTTY(['threads', 'send', slowThread.id, 'How much is the Growth plan?'], {
      env: slowEnv,
    });
    expect(waited.code).toBe(0);
    expect(stripAnsi(waited.stdout)).toContain('Waiting for the assistant');
    expect(stripAnsi(waited.stdout)).toContain('Growth');
    await slow.close();

    const fastThread = (await api(server, server.keys.demo, 'POST', '/v1/threads', {})).json.data;
    const fast = await runKbTraced(['threads', 'send', fastThread.id, 'How much is the Growth plan?'], {
      env: { ...env, KB_DEBUG: '1' },
      tty: true,
    });
    expect(fast.code).toBe(0);
    expect(stripAnsi(fast.stdout)).toContain('Growth');
    // The spinner waits 150 ms; the debug log says how long the reply took on this machine.
    const ms = Number(/<-- 201 POST \S+ (\d+)ms/.exec(stripAnsi(fast.stdout))?.[1]);
    expect(ms).toBeGreaterThanOrEqual(0);
    if (ms < 100) {
      expect(fast.stdout).not.toContain('Waiting for the assistant');
      expect(fast.modules.filter((m) => m.includes('node_modules/ora/'))).toEqual([]);
    }
  });

  it('shows a spinner on a TTY only, and exits 130 on Ctrl-C during a send', async () => {
    const slow = await startTestServer({ demo: true, replyDelayMs: 5000 });
    const slowEnv = { KB_BASE_URL: slow.url, KB_API_KEY: slow.keys.demo! };
    const thread = (await api(slow, slow.keys.demo, 'POST', '/v1/threads', {})).json.data;
    const started = Date.now();
    let signalled = 0;
    const res = await runKb(['threads', 'send', thread.id, 'hello'], {
      env: slowEnv,
      onSpawn: (child) =>
        setTimeout(() => {
          signalled = Date.now();
          child.kill('SIGINT');
        }, 700),
    });
    expect(res.code).toBe(130);
    expect(Date.now() - signalled).toBeLessThan(1000);
    expect(Date.now() - started).toBeLessThan(4000);
    expect(res.stdout).toBe('');
    expect(res.stderr).not.toContain('Waiting');
    await slow.close();
  });

  it('maps errors to exit codes: unknown id 3, bad key 4, service down 5, invalid flags 2', async () => {
    const missing = await kb(['threads', 'get', 'thr_missing']);
    expect(missing.code).toBe(3);
    expect(missing.stderr).toMatch(/^error: thread thr_missing not found/);
    expect((await runKb(['threads', 'list'], { env: { ...env, KB_API_KEY: 'kb_bad' } })).code).toBe(4);
    const down = await runKb(['threads', 'list', '--retries', '0'], {
      env: { ...env, KB_BASE_URL: 'http://127.0.0.1:9' },
    });
    expect(down.code).toBe(5);
    expect(down.stderr.trim().split('\n')[0]).toBe(
      'error: cannot connect to 127.0.0.1:9: connection refused',
    );
    for (const bad of ['0', '-1', 'abc']) {
      const res = await kb(['threads', 'list', '--limit', bad]);
      expect(res.code, bad).toBe(2);
    }
    expect((await kb(['threads', 'list', '--status', 'DONE'])).code).toBe(2);
    const closed = (await api(server, server.keys.demo, 'GET', '/v1/threads?status=CLOSED')).json.data[0];
    const conflict = await kb(['threads', 'send', closed.id, 'hi']);
    expect(conflict.code).toBe(1);
    expect(conflict.stderr).toContain('only OPEN threads accept messages');
    const json = await kb(['threads', 'get', 'thr_missing', '--json']);
    const last = JSON.parse(json.stderr.trim().split('\n').pop()!);
    expect(last.error).toMatchObject({ status: 404, code: 'not_found', exitCode: 3 });
  });

  it('refuses an id that would change the request path', async () => {
    const res = await kb(['threads', 'get', '..']);
    expect(res.code).toBe(2);
    const encoded = await kb(['threads', 'get', '../files', '--debug']);
    expect(encoded.code).toBe(3);
    expect(encoded.stderr).toContain('/v1/threads/..%2Ffiles');
  });
});

describe('kb files', () => {
  itWith('script')(
    'lists with human sizes on a TTY and bytes when piped; says on stderr when the list was cut',
    async () => {
      const piped = await kb(['files', 'list']);
      const row = piped.stdout
        .split('\n')
        .find((l) => l.includes('pricing.md'))!
        .split('\t');
      expect(row[2]).toMatch(/^\d+$/);
      const tty = stripAnsi((await runKbOnTTY(['files', 'list', '--limit', '2'], { env })).stdout);
      expect(tty).toMatch(/\d+ B/);
      expect(tty).toContain('note: showing the first 2 files; more exist (--all lists every one)');
      const all = stripAnsi((await runKbOnTTY(['files', 'list', '--limit', '500'], { env })).stdout);
      expect(all).not.toContain('note:');
      // Piped too: a script learns that the list was cut.
      const pipedFull = await kb(['files', 'list', '--limit', '1']);
      expect(pipedFull.stderr).toBe('note: showing the first 1 file; more exist (--all lists every one)\n');
      expect((await kb(['files', 'list', '--limit', '1', '--quiet'])).stderr).toBe('');
    },
  );

  itWith('script')('shows the indexing error of a FAILED file prominently and exits 0', async () => {
    const failed = JSON.parse((await kb(['files', 'list', '--status', 'FAILED', '--json'])).stdout);
    const png = failed.find((f: any) => f.originalFilename.endsWith('.png'));
    const res = await runKbOnTTY(['files', 'get', png.id], { env });
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('\u001b[31m\u001b[1munsupported_type');
    const json = JSON.parse((await kb(['files', 'get', png.id, '--json'])).stdout);
    expect(json.indexingError.code).toBe('unsupported_type');
    // The list says why too: a column piped and on a terminal, the field in JSON.
    expect(failed.find((f: any) => f.id === png.id).indexingError.code).toBe('unsupported_type');
    const row = (await kb(['files', 'list', '--status', 'FAILED'])).stdout
      .split('\n')
      .find((l) => l.startsWith(png.id));
    expect(row!.split('\t').at(-1)).toBe('unsupported_type');
    expect(stripAnsi((await runKbOnTTY(['files', 'list', '--status', 'FAILED'], { env })).stdout)).toMatch(
      /ERROR[\s\S]*unsupported_type/,
    );
  });

  it('refuses to delete without --yes when not on a terminal, supports --dry-run and stdin ids', async () => {
    const local = await startTestServer({ demo: true });
    const localEnv = { KB_BASE_URL: local.url, KB_API_KEY: local.keys.demo! };
    const failedIds = (await runKb(['files', 'list', '--status', 'FAILED', '--ids'], { env: localEnv }))
      .stdout;
    const refused = await runKb(['files', 'delete', '-'], { env: localEnv, input: failedIds });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('without --yes');
    const dry = await runKb(['files', 'delete', '--dry-run', '-'], { env: localEnv, input: failedIds });
    // The demo's empty file and, with OCR off in this server, its two scans.
    expect(dry.stdout.trim().split('\n')).toHaveLength(3);
    expect(dry.stdout).toContain('would-delete');
    const done = await runKb(['files', 'delete', '--yes', '-', 'file_missing'], {
      env: localEnv,
      input: failedIds,
    });
    expect(done.code).toBe(3);
    expect(done.stdout.trim().split('\n')).toEqual(
      failedIds
        .trim()
        .split('\n')
        .map((id) => `deleted\t${id}`),
    );
    expect(done.stderr).toContain('✗ file file_missing not found');
    expect(done.stderr).toContain('1 of 4 not deleted');
    expect((await runKb(['files', 'list', '--status', 'FAILED', '--ids'], { env: localEnv })).stdout).toBe(
      '',
    );
    await local.close();
  });

  itWith('script')('asks for confirmation on a TTY, naming the files', async () => {
    const local = await startTestServer({ demo: true });
    const localEnv = { KB_BASE_URL: local.url, KB_API_KEY: local.keys.demo! };
    const failed = JSON.parse(
      (await runKb(['files', 'list', '--status', 'FAILED', '--json'], { env: localEnv })).stdout,
    );
    const res = await runKbOnTTY(['files', 'delete', failed[0].id], {
      env: localEnv,
      onSpawn: (child) => setTimeout(() => child.stdin!.write('y\r'), 1500),
    });
    const screen = stripAnsi(res.stdout);
    expect(screen).toContain(failed[0].originalFilename);
    expect(screen).toContain('Delete this file?');
    expect(screen).toContain(`deleted ${failed[0].id}`);
    expect(res.code).toBe(0);
    await local.close();
  });

  it('waits for indexing: 0 when COMPLETED, 1 with the error when FAILED, 124 on timeout', async () => {
    const docs = tempDir();
    const { writeFileSync } = await import('node:fs');
    writeFileSync(join(docs, 'ok.md'), 'Fine document about lighthouses.');
    writeFileSync(join(docs, 'bad.pdf'), '%PDF-1.4');
    const { startServer } = await import('../../src/server/index.js');
    const envOf = (s: { url: string; keys: Record<string, string> }) => ({
      KB_BASE_URL: s.url,
      KB_API_KEY: Object.values(s.keys)[0]!,
    });
    const filesOf = async (env: Record<string, string>) =>
      JSON.parse((await runKb(['files', 'list', '--json'], { env })).stdout) as any[];
    // A service that is still indexing when the timeout comes, however slow the machine.
    const stuck = await startServer({ port: 0, docsDir: docs, indexDelayMs: 60_000 });
    const pending = (await filesOf(envOf(stuck))).find((f) => f.originalFilename === 'ok.md');
    const timeout = await runKb(['files', 'wait', pending.id, '--timeout', '100ms', '--interval', '50ms'], {
      env: envOf(stuck),
    });
    expect(timeout.code).toBe(124);
    await stuck.close();

    const local = await startServer({ port: 0, docsDir: docs, indexDelayMs: 300 });
    const localEnv = envOf(local);
    const files = await filesOf(localEnv);
    const ok = files.find((f: any) => f.originalFilename === 'ok.md');
    const bad = files.find((f: any) => f.originalFilename === 'bad.pdf');
    const waited = await runKb(['files', 'wait', ok.id, '--interval', '100ms'], { env: localEnv });
    expect(waited.code).toBe(0);
    expect(waited.stdout.trim().split('\n').pop()).toBe(`${ok.id}\tCOMPLETED\tok.md`);
    const failed = await runKb(['files', 'wait', bad.id, ok.id, '--interval', '100ms'], { env: localEnv });
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain('bad.pdf) failed indexing: parse_error: the PDF cannot be read');
    await local.close();
  });
});

describe('kb users', () => {
  it('searches members and prints them in every format', async () => {
    const res = await kb(['users', 'list', '--query', 'zoë']);
    expect(res.stdout.split('\t').slice(1, 3)).toEqual(['Zoë Müller', 'zoe.mueller@orbitdesk.example']);
    const json = JSON.parse((await kb(['users', 'list', '--json', '--limit', '3'])).stdout);
    expect(json).toHaveLength(3);
  });
});

/** A script run by bash as a CI step runs it (-euo pipefail), without blocking this process. */
function runBash(
  script: string,
  env: NodeJS.ProcessEnv,
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['--norc', '--noprofile', '-euo', 'pipefail', '-c', script], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

describe('README', () => {
  itWith('jq')('runs the scripting example exactly as written', async () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const script = /<!-- example:scripting -->\s*```bash\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(script).toBeDefined();
    const local = await startTestServer({ demo: true, indexDelayMs: 0 });
    // More failed files than a page holds: the pipeline must act on every one.
    const demoId = local.workspaces.find((w) => w.name === 'demo')!.id;
    for (let i = 0; i < 130; i++)
      local.service.indexer.upload(demoId, `broken-${i}.txt`, Buffer.from('a\u0000b'));
    await local.service.indexer.idle();
    expect(local.service.store.countFiles({ workspaceId: demoId, status: 'FAILED' })).toBeGreaterThan(130);
    const dir = tempDir();
    const bin = join(dir, 'bin');
    const { mkdirSync, symlinkSync } = await import('node:fs');
    mkdirSync(bin);
    symlinkSync(BIN, join(bin, 'kb'));
    // Async: the service runs in this process, so a blocking spawn would deadlock it.
    const result = await runBash(script!, {
      ...baseEnv(dir),
      PATH: `${bin}:${process.env.PATH}`,
      KB_BASE_URL: local.url,
      KB_API_KEY: local.keys.demo!,
    });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('30 June');
    expect(local.service.store.countFiles({ workspaceId: demoId, status: 'FAILED' })).toBe(0);
    await local.close();
  });

  it('runs the own-documents example as written: a folder served, waited for, asked and searched', async () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const example = /<!-- example:own-documents -->\s*```bash\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(example).toBeDefined();
    const dir = tempDir();
    const { mkdirSync, symlinkSync, writeFileSync } = await import('node:fs');
    mkdirSync(join(dir, 'bin'));
    symlinkSync(BIN, join(dir, 'bin', 'kb'));
    mkdirSync(join(dir, 'my-folder'));
    writeFileSync(
      join(dir, 'my-folder', 'backups.md'),
      '# Backups\n\nBackups run nightly at 2 am and are kept for 30 days.\n',
    );
    const port = String(await freePort());
    // As written, but with kb on PATH for npx's, a free port, and the service stopped at the end.
    const script = `cd ${JSON.stringify(dir)}\n${example!.replaceAll('npx kb', 'kb').replaceAll('4010', port)}\nkill %1\n`;
    // More retries than a person needs: kb serve, started in the background, may still be
    // starting on a loaded machine when the next line asks it.
    const result = await runBash(script, {
      ...baseEnv(dir),
      PATH: `${join(dir, 'bin')}:${process.env.PATH}`,
      KB_RETRIES: '8',
    });
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toContain('backups.md');
    expect(result.stdout).toMatch(
      /1\tbackups\.md\t[\d.]+\ttrue\tBackups run nightly at 2 am and are kept for 30 days\./,
    );
    expect(result.stdout).not.toContain('kb_my_local_key');
  }, 60_000);

  it("runs the CI recipe's wait for 130 files that are still being indexed", async () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const waits = readme.split('\n').filter((l) => /^\s+kb files wait /.test(l));
    expect(waits).toEqual(['    kb files wait --all --timeout 10m']);
    const local = await startTestServer({ apiKeys: ['ci:kb_ci_recipe_key'], indexDelayMs: 400 });
    const ws = local.workspaces.find((w) => w.name === 'ci')!.id;
    for (let i = 0; i < 130; i++)
      local.service.indexer.upload(ws, `doc-${i}.md`, Buffer.from(`Document ${i}.`));
    const [bin, ...args] = waits[0]!.trim().split(/\s+/);
    expect(bin).toBe('kb');
    const res = await runKb([...args, '--interval', '200ms'], {
      env: { KB_BASE_URL: local.url, KB_API_KEY: 'kb_ci_recipe_key' },
    });
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    // Piped: a line per change of state, for each of the 130.
    expect(
      new Set(
        res.stdout
          .trim()
          .split('\n')
          .filter((l) => l.split('\t')[1] === 'COMPLETED'),
      ).size,
    ).toBe(130);
    expect(local.service.store.countFiles({ workspaceId: ws, status: 'COMPLETED' })).toBe(130);
    await local.close();
  });
});
