import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server/index.js';
import { runKb, runKbOnTTY, stripAnsi } from '../helpers/cli.js';
import { makePdf } from '../helpers/documents.js';
import { EVIL, hostileServer, inert, send } from '../helpers/hostile.js';
import { api, startTestServer } from '../helpers/server.js';
import { itWith } from '../helpers/tools.js';

let server: RunningServer;
let env: Record<string, string>;
beforeAll(async () => {
  server = await startTestServer({ demo: true });
  env = { KB_BASE_URL: server.url, KB_API_KEY: server.keys.demo! };
  // A document with pages, so that a chunk is cited by its page.
  const pdf = makePdf([['Chapter one: the building.'], ['The badge reader resets every night at 2 am.']]);
  const uploaded = await fetch(`${server.url}/v1/files?filename=manual.pdf`, {
    method: 'POST',
    headers: { authorization: `Bearer ${env.KB_API_KEY}`, 'content-type': 'application/octet-stream' },
    body: pdf,
  });
  expect(uploaded.status).toBe(201);
  await server.service.indexer.idle();
});
afterAll(() => server.close());

const rows = (stdout: string) =>
  stdout
    .trimEnd()
    .split('\n')
    .map((line) => line.split('\t'));

describe('kb search against kb serve', () => {
  it('piped: tab-separated rows without a header, the answering chunk first, cited by its page', async () => {
    const res = await runKb(['search', 'When', 'does', 'the', 'badge', 'reader', 'reset?'], { env });
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    const [first, ...rest] = rows(res.stdout);
    expect(first).toEqual([
      '1',
      'manual.pdf p. 2',
      expect.stringMatching(/^\d+\.\d\d$/),
      'true',
      'The badge reader resets every night at 2 am.',
    ]);
    for (const [i, row] of rest.entries()) {
      expect(row).toHaveLength(5);
      expect(row[0]).toBe(String(i + 2));
    }
  });

  it('a chunk the answer does not draw on shows its passage nearest the question, not its first words', async () => {
    // A fifteenth new user's trial: on a terminal each row is cut to one line, and a chunk's
    // first words said nothing of why it was retrieved.
    const uploaded = await fetch(`${server.url}/v1/files?filename=visitors.md`, {
      method: 'POST',
      headers: { authorization: `Bearer ${env.KB_API_KEY}`, 'content-type': 'application/octet-stream' },
      body: '# Visitors\n\nVisitors sign in at reception on arrival. A visitor badge is printed there and must be returned when leaving.\n',
    });
    expect(uploaded.status).toBe(201);
    await server.service.indexer.idle();
    const res = await runKb(['search', 'When does the badge reader reset?'], { env });
    expect(res.code).toBe(0);
    const visitors = rows(res.stdout).find((row) => row[1] === 'visitors.md');
    expect(visitors?.[4]).toBe('A visitor badge is printed there and must be returned when leaving.');
    const json = JSON.parse(
      (await runKb(['search', 'When does the badge reader reset?', '--json'], { env })).stdout,
    );
    expect(json.data.find((h: { filename: string }) => h.filename === 'visitors.md')).toMatchObject({
      answers: false,
      passages: [],
      best: {
        text: 'A visitor badge is printed there and must be returned when leaving.',
        relevance: expect.any(Number),
      },
    });
  });

  it('--json: the whole answer, as the service gave it; --jsonl: a chunk a line; the query may come from stdin', async () => {
    const json = await runKb(['search', 'How much is the Growth plan?', '--limit', '2', '--json'], { env });
    expect(json.code).toBe(0);
    const result = JSON.parse(json.stdout);
    expect(result).toMatchObject({ query: 'How much is the Growth plan?', answered: true });
    expect(result.data).toHaveLength(2);
    expect(result.data[0]).toEqual({
      rank: 1,
      fileId: expect.stringMatching(/^file_/),
      filename: 'pricing.md',
      pages: null,
      score: expect.any(Number),
      answers: true,
      text: expect.stringContaining('29 dollars'),
      passages: expect.arrayContaining([
        { text: expect.stringContaining('29 dollars'), relevance: expect.any(Number) },
      ]),
      best: { text: expect.any(String), relevance: expect.any(Number) },
    });
    // A chunk the answer draws on: its best passage is one of the answer's.
    expect(result.data[0].passages.map((p: { text: string }) => p.text)).toContain(result.data[0].best.text);
    const jsonl = await runKb(['search', '-', '--jsonl', '--limit', '3'], {
      env,
      input: 'How much is the Growth plan?\n',
    });
    expect(jsonl.code).toBe(0);
    const lines = jsonl.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.rank)).toEqual([1, 2, 3]);
    expect(lines[0]).toEqual(result.data[0]);
    const piped = await runKb(['search', '--limit', '1'], { env, input: 'How much is the Growth plan?' });
    expect(rows(piped.stdout)[0]!.slice(0, 2)).toEqual(['1', 'pricing.md']);
  });

  it('a question nothing answers: the list, and a note on stderr that the assistant would say "not found" (exit 0)', async () => {
    const res = await runKb(['search', 'zebra quasar xylophone'], { env });
    expect(res.code).toBe(0);
    expect(res.stderr).toBe(
      'note: nothing retrieved answers this question: the assistant would say it found nothing ("not found")\n',
    );
    for (const row of rows(res.stdout).filter((r) => r[0])) expect(row[3]).toBe('false');
    const json = await runKb(['search', 'zebra quasar xylophone', '--json'], { env });
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ answered: false });
    expect(JSON.parse(json.stderr)).toEqual({
      warning: {
        code: 'not_answered',
        message: expect.stringContaining('not found'),
        shown: expect.any(Number),
      },
    });
  });

  it('while files are still being indexed, says so on stderr whatever the format: they are not searched yet', async () => {
    // A new user's trial: kb search listed other files' passages while the one that answers was
    // PROCESSING, and nothing said the list was of part of the workspace.
    const slow = await startTestServer({ indexDelayMs: 60_000 });
    try {
      const slowEnv = { KB_BASE_URL: slow.url, KB_API_KEY: Object.values(slow.keys)[0]! };
      for (const name of ['a.md', 'b.md']) {
        const res = await fetch(`${slow.url}/v1/files?filename=${name}`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${slowEnv.KB_API_KEY}`,
            'content-type': 'application/octet-stream',
          },
          body: 'The lift is serviced every March.\n',
        });
        expect(res.status).toBe(201);
      }
      const piped = await runKb(['search', 'When is the lift serviced?'], { env: slowEnv });
      expect(piped.code).toBe(0);
      console.log(JSON.stringify(piped.stderr));
      expect(piped.stderr.split('\n')).toContain(
        'note: 2 files are still being indexed and are not searched yet (`kb files wait` waits for them)',
      );
      const json = await runKb(['search', 'When is the lift serviced?', '--json'], { env: slowEnv });
      expect(json.code).toBe(0);
      expect(JSON.parse(json.stdout)).toMatchObject({ indexing: 2 });
      const warnings = json.stderr
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line));
      expect(warnings).toContainEqual({
        warning: {
          code: 'indexing',
          message: expect.stringContaining('2 files are still being indexed'),
          files: 2,
        },
      });
    } finally {
      await slow.close();
    }
    // All indexed: no such note.
    const done = await runKb(['search', 'When does the badge reader reset?'], { env });
    expect(done.stderr).toBe('');
  });

  it('--thread: the question read as a follow-up in that thread', async () => {
    const thread = (await api(server, env.KB_API_KEY, 'POST', '/v1/threads', {})).json.data;
    await api(server, env.KB_API_KEY, 'POST', `/v1/threads/${thread.id}/messages`, {
      content: 'When is API v0 switched off?',
    });
    const res = await runKb(['search', '--thread', thread.id, 'What replaces it?'], { env });
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    const [first] = rows(res.stdout);
    expect(first!.slice(1, 2).concat(first!.slice(3))).toEqual([
      'release-notes-v2.md',
      'true',
      expect.stringContaining('API v1'),
    ]);
    // Alone, the same words answer nothing.
    const alone = await runKb(['search', 'What replaces it?'], { env });
    expect(alone.stderr).toContain('"not found"');
    const missing = await runKb(['search', '--thread', 'thr_none', 'What replaces it?'], { env });
    expect(missing.code).toBe(3);
    expect(missing.stderr).toMatch(/^error: thread thr_none not found \(request req_\w+\)\n$/);
  });

  it('refuses a bad limit or no question with a usage error (exit 2), before any request', async () => {
    for (const bad of ['0', '51', 'x', '1.5']) {
      const res = await runKb(['search', 'plans', '--limit', bad], {
        env: { ...env, KB_BASE_URL: 'http://127.0.0.1:9' },
      });
      expect(res.code).toBe(2);
      expect(res.stderr).toContain(`argument '${bad}' is invalid. expected a whole number from 1 to 50`);
      expect(res.stdout).toBe('');
    }
    const empty = await runKb(['search'], { env, input: '  \n' });
    expect(empty.code).toBe(2);
    expect(empty.stderr).toMatch(/^error: the question is empty/);
  });

  itWith('script')('on a terminal: a table with the citation, the score to 2 decimals and ✓', async () => {
    const res = await runKbOnTTY(['search', 'When does the badge reader reset?', '--limit', '3'], {
      env,
      columns: 100,
    });
    expect(res.code).toBe(0);
    const lines = stripAnsi(res.stdout).trimEnd().split('\n');
    expect(lines[0]).toMatch(/^#\s+SOURCE\s+SCORE\s+ANSWERS\s+TEXT$/);
    expect(lines[1]).toMatch(
      /^1\s+manual\.pdf p\. 2\s+\d+\.\d\d\s+✓\s+The badge reader resets every night at 2 am\.$/,
    );
    expect(lines.every((l) => l.length <= 100)).toBe(true);
  });
});

describe('kb search against a service without it', () => {
  it.each([
    ['404 for the route', send(404, '{"error":{"code":"route_not_found","message":"No such route"}}')],
    ['404 with no code', send(404, '{"message":"Not Found"}')],
    ['405', send(405, '{"error":{"code":"method_not_allowed","message":"GET is not allowed here"}}')],
    ['501', send(501, '{"error":"not implemented"}')],
  ])('says it has no search endpoint and exits 2 (%s)', async (_, route) => {
    const other = await hostileServer({ 'GET /v1/search': route });
    try {
      const res = await runKb(['search', 'anything'], {
        env: { KB_BASE_URL: other.url, KB_API_KEY: 'kb_test_0123456789abcdef', KB_RETRIES: '0' },
      });
      expect(res.code).toBe(2);
      expect(res.stderr.split('\n')[0]).toBe(
        'error: this service has no search endpoint (an extension of kb serve)',
      );
      expect(res.stdout).toBe('');
    } finally {
      await other.close();
    }
  });

  itWith('script')('never lets what a service sends act on the terminal', async () => {
    const hit = {
      rank: 1,
      fileId: `file_1${EVIL}`,
      filename: `evil${EVIL}.pdf`,
      pages: [1, 1],
      score: 1.5,
      answers: true,
      text: `text${EVIL}`,
      passages: [{ text: `passage${EVIL}`, relevance: 1 }],
    };
    const other = await hostileServer({
      'GET /v1/search': send(200, JSON.stringify({ query: `q${EVIL}`, answered: false, data: [hit] })),
    });
    try {
      for (const args of [
        ['search', 'x'],
        ['search', 'x', '--json'],
      ]) {
        const res = await runKbOnTTY(args, {
          env: { KB_BASE_URL: other.url, KB_API_KEY: 'kb_test_0123456789abcdef' },
        });
        expect(res.code).toBe(0);
        expect(stripAnsi(res.stdout)).toContain('evil');
        expect(inert(res.stdout)).toBe(true);
      }
    } finally {
      await other.close();
    }
  });
});
