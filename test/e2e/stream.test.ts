import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server/index.js';
import { BIN, baseEnv, runKb, tempDir } from '../helpers/cli.js';
import { hostileServer, send } from '../helpers/hostile.js';
import { api, startTestServer } from '../helpers/server.js';
import { kbInTmux } from '../helpers/tmux.js';
import { itWith } from '../helpers/tools.js';

let server: RunningServer;
let env: Record<string, string>;
beforeAll(async () => {
  server = await startTestServer({ demo: true, streamDelayMs: 40 });
  env = { KB_BASE_URL: server.url, KB_API_KEY: server.keys.demo! };
});
afterAll(() => server.close());

const newThread = async (s: RunningServer = server) =>
  (await api(s, s.keys.demo, 'POST', '/v1/threads', { title: 'stream' })).json.data.id as string;

/** Runs kb, noting when each chunk of stdout arrived. */
function timed(args: string[], extra: Record<string, string> = {}) {
  return new Promise<{ chunks: { at: number; text: string }[]; code: number | null; stderr: string }>(
    (resolve) => {
      const started = performance.now();
      const child = spawn(process.execPath, [BIN, ...args], {
        env: baseEnv(tempDir(), { ...env, ...extra }),
      });
      const chunks: { at: number; text: string }[] = [];
      let stderr = '';
      child.stdout.on('data', (d) => chunks.push({ at: performance.now() - started, text: String(d) }));
      child.stderr.on('data', (d) => (stderr += d));
      child.on('close', (code) => resolve({ chunks, code, stderr }));
    },
  );
}

describe('kb threads send --stream', () => {
  it('writes the first text well before the last, and the whole equals what the service stored', async () => {
    const id = await newThread();
    const res = await timed(['threads', 'send', id, 'What does error E-4102 mean?', '--stream']);
    expect(res.code).toBe(0);
    expect(res.chunks.length).toBeGreaterThan(5);
    expect(res.chunks.at(-1)!.at - res.chunks[0]!.at).toBeGreaterThan(300);
    const text = res.chunks.map((c) => c.text).join('');
    const stored = (await api(server, server.keys.demo, 'GET', `/v1/threads/${id}`)).json.data.messages;
    expect(text).toBe(`${stored[1].content}\n`);
    expect(stored[1].incomplete).toBeUndefined();
  });

  it('with --jsonl, one event per line; a stream dropped twice is resumed with every event once', async () => {
    const id = await newThread();
    await api(server, server.keys.demo, 'POST', '/_kb/faults', {
      rules: ['GET /v1/generations/*/events drop after=4 x2'],
    });
    const res = await runKb(['threads', 'send', id, 'How much is the Growth plan?', '--stream', '--jsonl'], {
      env,
    });
    expect(res.code).toBe(0);
    const events = res.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(events[0].type).toBe('started');
    const seqs = events.slice(1).map((e: { seq: number }) => e.seq);
    expect(seqs).toEqual(seqs.map((_: number, i: number) => i + 1));
    expect(events.at(-1).type).toBe('completed');
    expect(
      events
        .filter((e: { type: string }) => e.type === 'delta')
        .map((e: { text: string }) => e.text)
        .join(''),
    ).toBe(events.at(-1).exchange.aiResponse.content);
  });

  it('falls back to the synchronous endpoint against a service without the interface', async () => {
    const createdAt = '2026-11-22T10:00:00Z';
    const exchange = {
      userMessage: { id: 'm1', role: 'user', content: 'q', createdAt },
      aiResponse: { id: 'm2', role: 'assistant', content: 'The whole reply at once.', createdAt },
    };
    const plain = await hostileServer({
      'POST /v1/threads/thr_1/messages': send(201, JSON.stringify({ data: exchange })),
    });
    try {
      const res = await runKb(['threads', 'send', 'thr_1', 'q', '--stream'], {
        env: { KB_BASE_URL: plain.url, KB_API_KEY: 'k' },
      });
      expect(res).toMatchObject({ code: 0, stdout: 'The whole reply at once.\n', stderr: '' });
    } finally {
      await plain.close();
    }
  });

  it("falls back when the 404 for the streaming route is a mock's or a gateway's, not the thread's", async () => {
    const createdAt = '2026-11-22T10:00:00Z';
    const exchange = {
      userMessage: { id: 'm1', role: 'user', content: 'q', createdAt },
      aiResponse: { id: 'm2', role: 'assistant', content: 'Sent the ordinary way.', createdAt },
    };
    const prism = JSON.stringify({
      type: 'https://stoplight.io/prism/errors#NO_PATH_MATCHED_ERROR',
      title: 'Route not resolved, no path matched',
      status: 404,
      detail: "The route /v1/threads/thr_1/generations hasn't been found in the specification file",
    });
    for (const missing of [
      send(404, prism, 'application/problem+json'),
      send(404, '<html><body><h1>404 Not Found</h1><hr>nginx</body></html>', 'text/html'),
      send(404, JSON.stringify({ detail: 'Not Found' })),
    ]) {
      const plain = await hostileServer({
        'POST /v1/threads/thr_1/generations': missing,
        'POST /v1/threads/thr_1/messages': send(201, JSON.stringify({ data: exchange })),
      });
      try {
        const res = await runKb(['threads', 'send', 'thr_1', 'q', '--stream'], {
          env: { KB_BASE_URL: plain.url, KB_API_KEY: 'k' },
        });
        expect(res).toMatchObject({ code: 0, stdout: 'Sent the ordinary way.\n', stderr: '' });
      } finally {
        await plain.close();
      }
    }
    // kb serve's 404 for an unknown thread is about the thread: said as it is, nothing sent again.
    const res = await runKb(['threads', 'send', 'thr_none', 'q', '--stream', '--debug'], {
      env: { KB_BASE_URL: server.url, KB_API_KEY: server.keys.demo! },
    });
    expect(res.code).toBe(3);
    expect(res.stderr).toMatch(/^error: thread thr_none not found/m);
    expect(res.stderr).not.toContain('/messages');
  });

  it('Ctrl-C cancels the generation on the service and keeps what arrived (exit 130)', async () => {
    const slow = await startTestServer({ demo: true, streamDelayMs: 60 });
    try {
      const id = await newThread(slow);
      const child = spawn(
        process.execPath,
        [BIN, 'threads', 'send', id, 'How much is the Growth plan?', '--stream'],
        {
          env: baseEnv(tempDir(), { KB_BASE_URL: slow.url, KB_API_KEY: slow.keys.demo! }),
        },
      );
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d) => (stdout += d));
      child.stderr.on('data', (d) => (stderr += d));
      while (stdout.length < 30) await new Promise((r) => setTimeout(r, 20));
      child.kill('SIGINT');
      const code = await new Promise((r) => child.on('close', r));
      expect(code).toBe(130);
      expect(stderr).toContain('cancelled: the reply so far is kept in the thread, marked incomplete');
      const stored = (await api(slow, slow.keys.demo, 'GET', `/v1/threads/${id}`)).json.data.messages;
      expect(stored[1]).toMatchObject({ role: 'assistant', incomplete: true });
      expect(stdout.trimEnd().startsWith(stored[1].content.trimEnd().slice(0, 20))).toBe(true);
      expect(stored[1].content.length).toBeLessThan(300);
    } finally {
      await slow.close();
    }
  });
});

describe('kb api and piped kb chat with a stream', () => {
  it('kb api passes an event stream through as it arrives', async () => {
    // The generation starts before kb does: slow enough (~8 s) that it is still streaming once kb
    // has started on a loaded machine (at 40 ms a word it had ended on CI's Node 22 run, and came
    // as one replayed chunk).
    const slow = await startTestServer({ demo: true, streamDelayMs: 100 });
    try {
      const id = await newThread(slow);
      const generation = (
        await api(slow, slow.keys.demo, 'POST', `/v1/threads/${id}/generations`, {
          content: 'How much is the Growth plan?',
        })
      ).json.data;
      const res = await timed(['api', 'GET', `/v1/generations/${generation.id}/events`], {
        KB_BASE_URL: slow.url,
        KB_API_KEY: slow.keys.demo!,
      });
      expect(res.code).toBe(0);
      expect(res.chunks.length).toBeGreaterThan(5);
      expect(res.chunks.at(-1)!.at - res.chunks[0]!.at).toBeGreaterThan(300);
      const body = res.chunks.map((c) => c.text).join('');
      expect(body).toMatch(/^id: 1\nevent: delta\ndata: \{"text":"The "\}\n\n/);
      expect(body).toMatch(/event: completed\ndata: \{"userMessage"/);
    } finally {
      await slow.close();
    }
  });

  it('piped kb chat --stream prints each reply as it arrives, a blank line between them', async () => {
    const id = await newThread();
    const child = spawn(process.execPath, [BIN, 'chat', id, '--stream'], { env: baseEnv(tempDir(), env) });
    let stdout = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stdin.end('What does error E-4102 mean?\nWhich certifications?\n');
    expect(await new Promise((r) => child.on('close', r))).toBe(0);
    const stored = (await api(server, server.keys.demo, 'GET', `/v1/threads/${id}`)).json.data.messages;
    expect(stdout).toBe(`${stored[1].content}\n\n${stored[3].content}\n`);
  });
});

describe('kb chat streams replies (tmux)', () => {
  itWith('tmux')(
    'shows the reply as it arrives, then rendered; Ctrl-C cancels it on the service',
    async () => {
      const slow = await startTestServer({ demo: true, streamDelayMs: 200 });
      const vars = {
        ...baseEnv(tempDir()),
        TERM: 'xterm-256color',
        KB_BASE_URL: slow.url,
        KB_API_KEY: slow.keys.demo!,
      };
      const term = kbInTmux(['chat', '--title', 'streamed'], vars);
      try {
        await term.waitFor('you ›');
        term.keys('What does error E-4102 mean?', 'Enter');
        const partial = await term.waitFor(/Assistant\nError E-4102/);
        expect(partial).not.toContain('Sources:');
        const done = await term.waitFor(/Sources: \[troubleshooting\.html\][^]*you › $/m, 15_000);
        // Rendered once, in place of the streamed text: the reply appears once.
        expect(done.split('Error E-4102 means').length - 1).toBe(1);

        term.keys('How much is the Growth plan?', 'Enter');
        await term.waitFor(/Assistant\n[^]*The Growth plan/);
        term.keys('C-c');
        await term.waitFor('the reply so far is kept in the thread, marked incomplete');
        const thread = [...slow.service.store.threads.values()].find((t) => t.title === 'streamed')!;
        const messages = slow.service.store.messages.get(thread.id)!;
        expect(messages.at(-1)).toMatchObject({ role: 'assistant', incomplete: true });
      } finally {
        term.close();
        await slow.close();
      }
    },
  );
});
