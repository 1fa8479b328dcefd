import { spawn } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { itWith } from '../helpers/tools.js';
import { BIN, baseEnv, runKb, runKbOnTTY, stripAnsi, tempDir } from '../helpers/cli.js';
import { EVIL, hostileServer, inert, send } from '../helpers/hostile.js';
import { operations, undocumented } from '../helpers/openapi.js';
import { api, startTestServer } from '../helpers/server.js';
import { request } from 'undici';

const TEN_MB = 10 * 1024 * 1024;
const createdAt = '2026-11-22T10:00:00Z';
// A thread with a few long messages, and a list long enough for --jsonl and --ids: each > 10 MB.
const bigThread = {
  id: 'thr_big',
  title: 'Big',
  status: 'OPEN',
  createdAt,
  messages: Array.from({ length: 4 }, (_, i) => ({
    id: `msg_${i}`,
    role: i % 2 ? 'assistant' : 'user',
    content: `${i} `.padEnd(TEN_MB / 3, 'lorem ipsum '),
    createdAt,
  })),
};
const manyThreads = Array.from({ length: 120_000 }, (_, i) => ({
  id: `thr_${String(i).padStart(8, '0')}_${'x'.repeat(80)}`,
  title: `Thread ${i}`,
  status: 'OPEN',
  createdAt,
}));
const evilThread = {
  id: 'thr_evil',
  title: `title${EVIL}`,
  status: `OPEN${EVIL}`,
  createdAt: `2026${EVIL}`,
  messages: [{ id: 'm1', role: `user${EVIL}`, content: `content${EVIL}`, createdAt: `x${EVIL}` }],
};

let hostile: Awaited<ReturnType<typeof hostileServer>>;
let env: Record<string, string>;
const bigBody = JSON.stringify({ data: bigThread });

beforeAll(async () => {
  hostile = await hostileServer({
    'GET /v1/threads/thr_big': send(200, bigBody),
    'GET /v1/threads': send(200, JSON.stringify({ data: manyThreads, meta: { limit: 200_000 } })),
    'GET /v1/threads/thr_evil': send(200, JSON.stringify({ data: evilThread })),
    'GET /v1/threads/thr_msg': send(500, JSON.stringify({ message: `broken${EVIL}` })),
    'GET /v1/threads/thr_problem': send(
      422,
      JSON.stringify({ title: `Invalid${EVIL}`, detail: `detail${EVIL}` }),
      'application/problem+json',
    ),
    'GET /v1/threads/thr_html': send(502, `<html><title>Bad gateway${EVIL}</title></html>`, 'text/html'),
    'GET /v1/files': send(
      200,
      JSON.stringify({
        data: [
          { id: `f1${EVIL}`, originalFilename: `name${EVIL}`, indexingStatus: `FAILED${EVIL}`, createdAt },
        ],
      }),
    ),
  });
  env = { KB_BASE_URL: hostile.url, KB_API_KEY: 'kb_test_hostile', KB_RETRIES: '0' };
}, 60_000);
afterAll(() => hostile.close());

/** Runs kb with a reader that waits before reading, then reads in small steps. */
async function readSlowly(args: string[]): Promise<{ stdout: Buffer; stderr: string; code: number | null }> {
  const child = spawn(process.execPath, [BIN, ...args], {
    env: baseEnv(tempDir(), env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  child.stdout.pause();
  await sleep(1000);
  const chunks: Buffer[] = [];
  for await (const chunk of child.stdout) {
    chunks.push(chunk as Buffer);
    if (chunks.length % 8 === 0) await sleep(2);
  }
  return { stdout: Buffer.concat(chunks), stderr, code: await exited };
}

describe('output of any size arrives whole through a slow reader', () => {
  it('threads get --json: every byte, exit 0', async () => {
    const res = await readSlowly(['threads', 'get', 'thr_big', '--json']);
    expect(res.stdout.length).toBeGreaterThan(TEN_MB);
    expect(res.stdout.toString('utf8')).toBe(`${JSON.stringify(bigThread, null, 2)}\n`);
    expect(res).toMatchObject({ code: 0, stderr: '' });
  }, 60_000);

  it('threads list --jsonl and --ids: every line', async () => {
    const jsonl = await readSlowly(['threads', 'list', '--all', '--jsonl']);
    expect(jsonl.stdout.length).toBeGreaterThan(TEN_MB);
    expect(jsonl.stdout.toString('utf8')).toBe(manyThreads.map((t) => `${JSON.stringify(t)}\n`).join(''));
    const ids = await readSlowly(['threads', 'list', '--all', '--ids']);
    expect(ids.stdout.length).toBeGreaterThan(TEN_MB);
    expect(ids.stdout.toString('utf8')).toBe(manyThreads.map((t) => `${t.id}\n`).join(''));
    expect([jsonl.code, ids.code]).toEqual([0, 0]);
  }, 60_000);

  it('kb api: the body byte for byte', async () => {
    const res = await readSlowly(['api', 'GET', '/v1/threads/thr_big']);
    expect(res.stdout.equals(Buffer.from(bigBody))).toBe(true);
    expect(res.code).toBe(0);
  }, 60_000);
});

describe('hostile text never reaches a terminal raw', () => {
  itWith('script')('in transcripts, tables and records', async () => {
    for (const args of [
      ['threads', 'get', 'thr_evil'],
      ['files', 'list'],
      ['threads', 'get', 'thr_evil', '--json'],
    ]) {
      const res = await runKbOnTTY(args, { env });
      expect(res.code).toBe(0);
      expect(inert(res.stdout)).toBe(true);
    }
  });

  itWith('script')('in the chat REPL: the resumed transcript and /info', async () => {
    const res = await runKbOnTTY(['chat', 'thr_evil'], { env, input: '/info\n/exit\n' });
    expect(res.code).toBe(0);
    const screen = res.stdout;
    expect(stripAnsi(screen)).toContain('Thread');
    expect(screen).toContain('content');
    // kb's own line editing uses CSI sequences; nothing the server sent may act on the terminal.
    expect(screen).not.toMatch(/\u001b\]|\u001bP|\u001b\[2J|[\u0007\u0080-\u009f\u202e\u200b]/);
  });

  itWith('script')('in error messages: {message}, problem+json and HTML bodies', async () => {
    for (const [id, code] of [
      ['thr_msg', 5],
      ['thr_problem', 2],
      ['thr_html', 5],
    ] as const) {
      const res = await runKbOnTTY(['threads', 'get', id], { env });
      expect(res.code).toBe(code);
      expect(stripAnsi(res.stdout)).toMatch(/error: /);
      expect(inert(res.stdout)).toBe(true);
    }
  });
});

describe('the scripting contract', () => {
  it('with --json, stderr holds exactly one JSON object per error, usage errors included', async () => {
    for (const args of [
      ['threads', 'get', 'thr_problem', '--json'],
      ['threads', 'list', '--bogus', '--json'],
      ['threads', 'list', '--json', '--ids'],
    ]) {
      const res = await runKb(args, { env });
      expect(res.stdout).toBe('');
      const lines = res.stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      const { error } = JSON.parse(lines[0]!);
      expect(error.exitCode).toBe(res.code);
      expect(typeof error.message).toBe('string');
      expect(typeof error.code).toBe('string');
    }
  });

  it('refuses two formats, or an unknown KB_FORMAT, with exit 2 and sends nothing', async () => {
    const both = await runKb(['threads', 'list', '--jsonl', '--ids'], { env });
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/^error: --jsonl and --ids cannot be used together/);
    const yaml = await runKb(['threads', 'list'], { env: { ...env, KB_FORMAT: 'yaml' } });
    expect(yaml.code).toBe(2);
    expect(yaml.stderr).toMatch(/KB_FORMAT is "yaml"/);
  });

  it("README's cleanup pipeline succeeds under set -e when nothing failed", async () => {
    const local = await startTestServer({ demo: true });
    try {
      const script =
        'kb files list --status FAILED --ids | kb files delete --yes -\nkb files list --status FAILED --ids | kb files delete --yes -';
      const code = await new Promise<number | null>((resolve) => {
        const child = spawn(
          'bash',
          ['--norc', '-euo', 'pipefail', '-c', script.replace(/kb /g, `"${process.execPath}" "${BIN}" `)],
          {
            env: baseEnv(tempDir(), { KB_BASE_URL: local.url, KB_API_KEY: local.keys.demo! }),
            stdio: 'ignore',
          },
        );
        child.on('close', resolve);
      });
      expect(code).toBe(0);
    } finally {
      await local.close();
    }
  });

  it('accepts a base URL that ends in /v1', async () => {
    const local = await startTestServer({ demo: true });
    try {
      const res = await runKb(['threads', 'list', '--ids'], {
        env: { KB_BASE_URL: `${local.url}/v1/`, KB_API_KEY: local.keys.demo! },
      });
      expect(res.code).toBe(0);
      expect(res.stdout).toMatch(/^thr_/);
    } finally {
      await local.close();
    }
  });
});

/** What a fuzzer sends in a path segment, a query value and a body. */
const BAD_IDS = [
  'nope',
  'x'.repeat(3000),
  '%00',
  '%2e%2e',
  '..%2F..%2Fusers',
  '%E2%80%AE',
  '%ZZ',
  "'%20OR%201=1",
];
const BAD_VALUES = ['', '-1', '0', '1.5', '1e309', 'abc', 'x'.repeat(3000), '%00', '%ZZ', 'null', 'OPEN%0A'];
const TWO_MB = 2 * 1024 * 1024;
const BAD_BODIES: [type: string | undefined, body: string | Buffer][] = [
  ['application/json', '{not json'],
  ['application/json', '[1, 2, 3]'],
  ['application/json', 'null'],
  ['application/json', '"text"'],
  ['application/json', '{"content": 5, "title": [], "status": {}, "url": 1, "events": "x", "filename": 2}'],
  ['application/json', `${'['.repeat(50_000)}${']'.repeat(50_000)}`],
  ['application/json', '\ufeff{}'],
  ['application/json', Buffer.from([0x7b, 0xff, 0xfe, 0x7d])],
  ['application/json', `{"content": "${'x'.repeat(TWO_MB)}"}`],
  ['application/json; charset=utf-16', '{"content": "hi"}'],
  ['text/plain', '{"content": "hi"}'],
  ['text/plain', 'x'.repeat(TWO_MB)],
  ['application/x-www-form-urlencoded', 'content=hi&title=x'],
  [
    'multipart/form-data; boundary=b',
    '--b\r\ncontent-disposition: form-data; name="content"\r\n\r\nhi\r\n--b--\r\n',
  ],
  [undefined, '{"content": "hi"}'],
];

describe('every operation of the OpenAPI document, sent what a fuzzer sends', () => {
  it('answers bad ids, query values and bodies with statuses and bodies the document lists for it', async () => {
    // Uploads past this fail with 413, as every other body past 1 MiB does.
    const local = await startTestServer({ demo: true, allowLocalWebhooks: true, maxFileBytes: 64 * 1024 });
    const key = local.keys.demo!;
    const problems: string[] = [];
    let sent = 0;
    async function send(
      method: string,
      path: string,
      headers: Record<string, string> = {},
      body?: string | Buffer,
    ) {
      const res = await request(local.url + path, {
        method: method as 'GET',
        headers: { authorization: `Bearer ${key}`, ...headers },
        body,
      });
      const text = await res.body.text();
      sent++;
      const problem = undocumented(method, path, {
        status: res.statusCode,
        contentType: String(res.headers['content-type'] ?? ''),
        text,
      });
      if (problem) problems.push(problem);
    }
    try {
      const created = async (path: string, body: unknown) =>
        (await api(local, key, 'POST', path, body)).json.data.id as string;
      const thread = await created('/v1/threads', { title: 'Fuzzed' });
      const ids: Record<string, string> = {
        threads: thread,
        generations: await created(`/v1/threads/${thread}/generations`, { content: 'What plans are there?' }),
        webhooks: await created('/v1/webhooks', { url: 'http://127.0.0.1:9/hook', events: ['file.indexed'] }),
        files: (await api(local, key, 'GET', '/v1/files?limit=1')).json.data[0].id,
      };
      // The values that make each required parameter valid, so that one bad value is tried at a time.
      const valid: Record<string, string> = { filename: 'fuzz.txt', q: 'plan' };
      for (const { method, path, parameters } of operations) {
        const fill = (id: string) => path.replace('{id}', id);
        const query = (extra: Record<string, string>) => {
          const values = {
            ...Object.fromEntries(
              parameters.filter((p) => p.in === 'query' && p.required).map((p) => [p.name, valid[p.name]!]),
            ),
            ...extra,
          };
          const text = Object.entries(values)
            .map(([k, v]) => `${k}=${v}`)
            .join('&');
          return text ? `?${text}` : '';
        };
        const real = fill(ids[path.split('/')[2]!] ?? '');
        if (path.includes('{id}')) for (const id of BAD_IDS) await send(method, fill(id) + query({}));
        for (const p of parameters) {
          if (p.in === 'query') {
            for (const value of BAD_VALUES) await send(method, real + query({ [p.name]: value }));
            await send(method, `${real + query({ [p.name]: '1' })}&${p.name}=2`);
          }
          if (p.in === 'header')
            for (const value of BAD_VALUES) await send(method, real + query({}), { [p.name]: value });
        }
        await send(method, real + query({ unknown: 'x' }));
        for (const authorization of ['', 'Bearer kb_wrong', 'Basic a2I6a2I=', `Bearer ${key}x`])
          await send(method, real + query({}), { authorization });
        for (const [type, body] of BAD_BODIES)
          await send(method, real + query({}), type ? { 'content-type': type } : {}, body);
      }
    } finally {
      await local.close();
    }
    expect(sent).toBeGreaterThan(500);
    expect(problems).toEqual([]);
  }, 120_000);
});
