import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server/index.js';
import { runKb, tempDir } from '../helpers/cli.js';
import { startTestServer } from '../helpers/server.js';

let server: RunningServer;
let env: Record<string, string>;

beforeAll(async () => {
  server = await startTestServer({ demo: true, faults: ['GET /v1/users 503 x1'] });
  env = { KB_BASE_URL: server.url, KB_API_KEY: server.keys.demo! };
});
afterAll(() => server.close());

describe('kb api', () => {
  it('GETs with query parameters and prints the body unmodified', async () => {
    const res = await runKb(['api', 'GET', '/v1/threads', '-q', 'status=OPEN', '-q', 'limit=1'], { env });
    expect(res.code).toBe(0);
    const body = JSON.parse(res.stdout);
    expect(body.meta).toEqual({ returned: 1, limit: 1, nextCursor: null, hasMore: false });
    expect(body.data[0].status).toBe('OPEN');
  });

  it('POSTs typed fields, and a raw body from a file or stdin', async () => {
    const created = JSON.parse(
      (await runKb(['api', 'post', 'v1/threads', '-f', 'title=From the API'], { env })).stdout,
    );
    expect(created.data.title).toBe('From the API');
    const file = join(tempDir(), 'msg.json');
    writeFileSync(file, JSON.stringify({ content: 'What does error E-4102 mean?' }));
    const sent = JSON.parse(
      (await runKb(['api', 'POST', `/v1/threads/${created.data.id}/messages`, '--input', file], { env }))
        .stdout,
    );
    expect(sent.data.aiResponse.content).toContain('IMAP');
    const piped = await runKb(['api', 'PATCH', `/v1/threads/${created.data.id}`, '--input', '-'], {
      env,
      input: '{"status":"CLOSED"}',
    });
    expect(JSON.parse(piped.stdout).data.status).toBe('CLOSED');
    const typed = await runKb(['api', 'POST', '/v1/threads', '-f', 'title=5'], { env });
    expect(typed.code).toBe(2);
    expect(JSON.parse(typed.stdout).error.code).toBe('invalid_type');
  });

  it('prints status and headers on stdout before the body with --include, as curl -i; retries like other commands', async () => {
    const res = await runKb(['api', 'GET', '/v1/users', '--include', '--debug'], { env });
    expect(res.code).toBe(0);
    expect(res.stderr).toMatch(/retrying GET \/v1\/users/);
    const [head, body] = res.stdout.split('\n\n', 2) as [string, string];
    expect(head).toMatch(/^HTTP\/1\.1 200 OK\n/);
    expect(head).toMatch(/^x-request-id: req_/m);
    expect(JSON.parse(body).data.length).toBeGreaterThan(0);
    expect(res.stdout + res.stderr).not.toContain(server.keys.demo!);
  });

  it('prints the error body and exits with the mapped code', async () => {
    const res = await runKb(['api', 'GET', '/v1/threads/thr_nope'], { env });
    expect(res.code).toBe(3);
    expect(JSON.parse(res.stdout).error.code).toBe('not_found');
    expect(res.stderr).toMatch(/^error: thread not found/);
  });

  it('refuses an Authorization header, unknown methods and full URLs', async () => {
    const auth = await runKb(['api', 'GET', '/v1/threads', '-H', 'Authorization: Bearer other'], { env });
    expect(auth.code).toBe(2);
    expect(auth.stderr).toContain('will not override it');
    expect((await runKb(['api', 'FETCH', '/v1/threads'], { env })).code).toBe(2);
    expect((await runKb(['api', 'GET', 'https://evil.example/v1/threads'], { env })).code).toBe(2);
    const custom = await runKb(['api', 'GET', '/v1/threads', '-H', 'X-Trace: abc', '--debug'], { env });
    expect(custom.code).toBe(0);
  });
});

describe('kb api --paginate', () => {
  it('prints every page of a list, as gh api --paginate does', async () => {
    const local = await startTestServer({ apiKeys: ['pages:kb_api_pages_key'], indexDelayMs: 0 });
    try {
      const ws = local.workspaces.find((w) => w.name === 'pages')!.id;
      for (let i = 0; i < 130; i++) local.service.indexer.upload(ws, `doc-${i}.md`, Buffer.from(`Doc ${i}.`));
      await local.service.indexer.idle();
      const penv = { KB_BASE_URL: local.url, KB_API_KEY: 'kb_api_pages_key' };
      const res = await runKb(['api', 'GET', '/v1/files', '--paginate', '-q', 'limit=50'], { env: penv });
      expect(res.stderr).toBe('');
      expect(res.code).toBe(0);
      // Three bodies, one after another, each exactly as the service sent it.
      const bodies = res.stdout.split(/(?<=\})(?=\{"data")/).map((b) => JSON.parse(b));
      expect(bodies.map((b) => b.data.length)).toEqual([50, 50, 30]);
      expect(new Set(bodies.flatMap((b) => b.data.map((f: { id: string }) => f.id))).size).toBe(130);
      expect(bodies.at(-1).meta).toMatchObject({ nextCursor: null, hasMore: false });
      const post = await runKb(['api', 'POST', '/v1/threads', '--paginate'], { env: penv });
      expect(post).toMatchObject({ code: 2, stdout: '' });
      expect(post.stderr).toMatch(/^error: --paginate follows the pages of a GET/);
    } finally {
      await local.close();
    }
  });
});

describe('usage errors the service or kb can tell', () => {
  it('a method the route does not take (405) is a usage error: exit 2', async () => {
    const res = await runKb(['api', 'DELETE', '/v1/users'], { env });
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/^error: /m);
  });

  it('kb auth login with a key as an argument says why it is refused, and how to give it', async () => {
    const res = await runKb(['auth', 'login', 'kb_abc_secret'], { env });
    expect(res).toMatchObject({ code: 2, stdout: '' });
    expect(res.stderr).toBe(
      'error: an API key is never taken as an argument (ps and your shell history would keep it)\n' +
        `hint: type it when asked, or pipe it: printf '%s' "$KB_KEY" | kb auth login --with-key\n`,
    );
  });
});
