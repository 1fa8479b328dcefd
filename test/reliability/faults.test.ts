import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server/index.js';
import { runKb, tempDir } from '../helpers/cli.js';
import { json, raw, scriptedServer } from '../helpers/scripted.js';
import { api, startTestServer } from '../helpers/server.js';

let server: RunningServer;
let env: Record<string, string>;
let key: string;

beforeAll(async () => {
  server = await startTestServer({ demo: true });
  key = server.keys.demo!;
  env = { KB_BASE_URL: server.url, KB_API_KEY: key };
});
afterAll(() => server.close());

const fault = (rules: string[]) => api(server, key, 'POST', '/_kb/faults', { rules });
const oneLine = (stderr: string) =>
  stderr
    .trim()
    .split('\n')
    .filter((l) => !l.startsWith('hint:'));

describe('the CLI under faults', () => {
  it('waits out a 429 with Retry-After in seconds, then succeeds', async () => {
    await fault(['GET /v1/threads 429 retry-after=1 x1']);
    const started = Date.now();
    const res = await runKb(['threads', 'list', '--ids'], { env });
    expect(res.code).toBe(0);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    expect(res.stdout).toMatch(/^thr_/);
  });

  it('waits out a 429 with Retry-After as an HTTP date', async () => {
    const date = new Date(Date.now() + 2000).toUTCString();
    const scripted = await scriptedServer([
      json(429, { error: { message: 'slow down' } }, { 'retry-after': date }),
      json(200, { data: [] }),
    ]);
    const res = await runKb(['threads', 'list', '--json'], {
      env: { KB_BASE_URL: scripted.url, KB_API_KEY: 'kb_x' },
    });
    expect(res.code).toBe(0);
    expect(scripted.requests).toHaveLength(2);
    await scripted.close();
  });

  it('gives up on persistent 429 with exit 6', async () => {
    await fault(['GET /v1/users 429 retry-after=0 x3']);
    const res = await runKb(['users', 'list'], { env });
    expect(res.code).toBe(6);
    expect(oneLine(res.stderr)).toEqual([
      'error: injected fault: 429 (request ' + res.stderr.match(/req_\w+/)![0] + ')',
    ]);
  });

  it('rides out a burst of 503s, and exits 5 when they outlast the retries', async () => {
    await fault(['GET /v1/files 503 x2']);
    expect((await runKb(['files', 'list', '--ids'], { env })).code).toBe(0);
    await fault(['GET /v1/files 503 x3']);
    const res = await runKb(['files', 'list', '--ids'], { env });
    expect(res.code).toBe(5);
    expect(oneLine(res.stderr)).toHaveLength(1);
  });

  it('retries a GET whose connection is reset, and reports it clearly when it keeps happening', async () => {
    await fault(['GET /v1/threads reset x1']);
    expect((await runKb(['threads', 'list', '--ids'], { env })).code).toBe(0);
    await fault(['GET /v1/threads reset x3']);
    const res = await runKb(['threads', 'list'], { env });
    expect(res.code).toBe(5);
    expect(oneLine(res.stderr)[0]).toMatch(
      /^error: connection to 127\.0\.0\.1:\d+ was closed before a complete response$/,
    );
  });

  it('times out a server that never answers (exit 5) without a stack trace', async () => {
    await fault(['GET /v1/users hang x3']);
    const started = Date.now();
    const res = await runKb(['users', 'list', '--timeout', '500ms', '--retries', '0'], { env });
    expect(res.code).toBe(5);
    expect(Date.now() - started).toBeLessThan(3000);
    expect(oneLine(res.stderr)[0]).toMatch(/^error: no response from 127\.0\.0\.1:\d+ within 0\.5s$/);
    await api(server, key, 'DELETE', '/_kb/faults');
  });

  it('reports truncated JSON and a 200 HTML page as invalid responses (exit 5)', async () => {
    await fault(['GET /v1/threads truncated x1']);
    const truncated = await runKb(['threads', 'list'], { env });
    expect(truncated.code).toBe(5);
    expect(oneLine(truncated.stderr)[0]).toMatch(
      /^error: malformed JSON in 200 response from http:\/\/127\.0\.0\.1:\d+\/v1\/threads/,
    );
    const html = await scriptedServer([
      raw(200, '<!doctype html><html><title>Login</title><body>Sign in</body></html>', {
        'content-type': 'text/html',
      }),
    ]);
    const page = await runKb(['threads', 'list'], { env: { KB_BASE_URL: html.url, KB_API_KEY: 'kb_x' } });
    expect(page.code).toBe(5);
    expect(page.stderr.split('\n')[0]).toMatch(
      /^error: unexpected 200 text\/html response from .*\/v1\/threads\?limit=50: Login Sign in$/,
    );
    await html.close();
  });

  it('handles a 5 MB response', async () => {
    const rows = Array.from({ length: 20_000 }, (_, i) => ({
      id: `file_${i}`,
      originalFilename: `document-${i}-${'x'.repeat(150)}.md`,
      fileSize: i,
      mimeType: 'text/markdown',
      indexingStatus: 'COMPLETED',
      createdAt: '2026-01-01T00:00:00Z',
    }));
    const body = JSON.stringify({ data: rows });
    expect(body.length).toBeGreaterThan(5_000_000);
    const big = await scriptedServer([raw(200, body, { 'content-type': 'application/json' })]);
    const res = await runKb(['files', 'list', '--all', '--ids'], {
      env: { KB_BASE_URL: big.url, KB_API_KEY: 'kb_x' },
    });
    expect(res.code).toBe(0);
    expect(res.stdout.split('\n').filter(Boolean)).toHaveLength(20_000);
    await big.close();
  });

  it('reports DNS failure and connection refused as unreachable (exit 5)', async () => {
    const dns = await runKb(['threads', 'list', '--retries', '0'], {
      env: { KB_BASE_URL: 'https://no-such-host.invalid', KB_API_KEY: 'kb_x' },
    });
    expect(dns.code).toBe(5);
    expect(dns.stderr.split('\n')[0]).toBe('error: cannot resolve host no-such-host.invalid');
    expect(dns.stderr.split('\n')[1]).toBe(
      'hint: check the host name in the base URL (`kb auth status` shows it)',
    );
    const refused = await runKb(['threads', 'list', '--retries', '1'], {
      env: { KB_BASE_URL: 'http://127.0.0.1:9', KB_API_KEY: 'kb_x' },
    });
    expect(refused.code).toBe(5);
    expect(refused.stderr.split('\n')[0]).toBe('error: cannot connect to 127.0.0.1:9: connection refused');
  });

  it('never retries a timed-out POST: exactly one message exists, and the error says to check the thread', async () => {
    const slow = await startTestServer({ demo: true, replyDelayMs: 1500 });
    const slowKey = slow.keys.demo!;
    const thread = (await api(slow, slowKey, 'POST', '/v1/threads', { title: 'timeout' })).json.data;
    const res = await runKb(['threads', 'send', thread.id, 'hello there', '--timeout', '300ms'], {
      env: { KB_BASE_URL: slow.url, KB_API_KEY: slowKey },
    });
    expect(res.code).toBe(5);
    expect(res.stderr).toContain('the service may still have received the message');
    expect(res.stderr).toContain(`kb threads get ${thread.id}`);
    await new Promise((r) => setTimeout(r, 2000));
    const messages = (await api(slow, slowKey, 'GET', `/v1/threads/${thread.id}`)).json.data.messages;
    expect(messages.filter((m: any) => m.role === 'user')).toHaveLength(1);
    await slow.close();
  });

  it('exits 130 at Ctrl-C during a request, not after its timeout, leaving the config intact', async () => {
    const configDir = tempDir();
    await runKb(['auth', 'login', '--with-key', '--base-url', server.url], { configDir, input: key });
    await runKb(['config', 'set', 'timeout', '45s'], { configDir });
    const file = join(configDir, 'config.json');
    const before = createHash('sha256').update(readFileSync(file)).digest('hex');
    for (const args of [
      ['threads', 'list'],
      ['files', 'get', 'file_x'],
      ['auth', 'status'],
    ]) {
      await fault([`GET /v1/** hang x1`]);
      let sent = 0;
      const res = await runKb(args, {
        configDir,
        // Once the request hangs on the service (its fault taken), not after a fixed time: a
        // loaded machine can take longer than that to start kb.
        onSpawn: (child) =>
          void (async () => {
            const deadline = Date.now() + 10_000;
            while ((await api(server, key, 'GET', '/_kb/faults')).json.data.length && Date.now() < deadline)
              await new Promise((r) => setTimeout(r, 20));
            sent = Date.now();
            child.kill('SIGINT');
          })(),
      });
      expect(res.code, args.join(' ')).toBe(130);
      // The request would hang for the configured 45 s; how much less than that is bench's business.
      expect(Date.now() - sent).toBeLessThan(5_000);
      expect(res.stderr).not.toMatch(/at .*\.js:\d+/);
    }
    await api(server, key, 'DELETE', '/_kb/faults');
    expect(createHash('sha256').update(readFileSync(file)).digest('hex')).toBe(before);
  });
});
