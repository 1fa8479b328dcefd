import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { itWith } from '../helpers/tools.js';
import type { RunningServer } from '../../src/server/index.js';
import { baseEnv, ROOT, runKb, tempDir } from '../helpers/cli.js';
import { api, startTestServer } from '../helpers/server.js';
import { kbInTmux } from '../helpers/tmux.js';

let server: RunningServer;
let env: Record<string, string>;

beforeAll(async () => {
  server = await startTestServer({ demo: true, replyDelayMs: 0 });
  env = { KB_BASE_URL: server.url, KB_API_KEY: server.keys.demo! };
});
afterAll(() => server.close());

describe('kb chat without a terminal', () => {
  it('sends each non-empty line in order and prints each reply, separated by a blank line', async () => {
    const res = await runKb(['chat', '--title', 'piped'], {
      env,
      input: 'How much is the Growth plan?\n\nWhat does error E-4102 mean?\n',
    });
    expect(res.code).toBe(0);
    const [first, second] = res.stdout.split('\n\nSources: [pricing.md]\n\n');
    expect(first).toContain('29 dollars');
    expect(second).toContain('IMAP');
    expect(res.stderr).toBe('');
    expect(res.stdout).not.toContain('\u001b');
    const threads = (await api(server, server.keys.demo, 'GET', '/v1/threads')).json.data;
    const thread = threads.find((t: any) => t.title === 'piped');
    expect(
      (await api(server, server.keys.demo, 'GET', `/v1/threads/${thread.id}`)).json.data.messages,
    ).toHaveLength(4);
  });

  it('prints one {userMessage, aiResponse} object per line with --json, continuing a thread', async () => {
    const thread = (await api(server, server.keys.demo, 'POST', '/v1/threads', { title: 'json chat' })).json
      .data;
    const res = await runKb(['chat', thread.id, '--json'], {
      env,
      input: 'Which certifications?\nWhere is data stored?\n',
    });
    const lines = res.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toHaveLength(2);
    expect(lines[0].userMessage.content).toBe('Which certifications?');
    expect(lines[1].aiResponse.role).toBe('assistant');
    const latest = await runKb(['chat', '-c', '--json'], { env, input: 'And encryption?\n' });
    expect(JSON.parse(latest.stdout).userMessage.content).toBe('And encryption?');
  });

  it("names each exchange's thread with --json, a new one's too, so a script can go on in it (the seventh new-user trial)", async () => {
    const res = await runKb(['chat', '--json'], {
      env,
      input: 'Which certifications?\nWhere is data stored?\n',
    });
    expect(res.code).toBe(0);
    const lines = res.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines[0].threadId).toMatch(/^thr_/);
    expect(lines[1].threadId).toBe(lines[0].threadId);
    const messages = (await api(server, server.keys.demo, 'GET', `/v1/threads/${lines[0].threadId}`)).json
      .data.messages;
    expect(messages.map((m: { content: string }) => m.content)).toContain('Where is data stored?');
  });

  it('kb chat -c continues the thread a message was sent to last, by kb threads send too', async () => {
    const dir = tempDir();
    const [first, second] = await Promise.all(
      ['chatted', 'sent to'].map(
        async (title) => (await api(server, server.keys.demo, 'POST', '/v1/threads', { title })).json.data,
      ),
    );
    expect((await runKb(['chat', first.id], { env, configDir: dir, input: 'Hello?\n' })).code).toBe(0);
    expect(
      (await runKb(['threads', 'send', second.id, 'Which certifications?'], { env, configDir: dir })).code,
    ).toBe(0);
    const continued = await runKb(['chat', '-c', '--json'], {
      env,
      configDir: dir,
      input: 'And encryption?\n',
    });
    expect(continued.code).toBe(0);
    const messages = (await api(server, server.keys.demo, 'GET', `/v1/threads/${second.id}`)).json.data
      .messages;
    expect(messages.map((m: { content: string }) => m.content)).toContain('And encryption?');
    // Streamed sends count as well.
    expect(
      (
        await runKb(['threads', 'send', first.id, 'Where is data stored?', '--stream'], {
          env,
          configDir: dir,
        })
      ).code,
    ).toBe(0);
    await runKb(['chat', '-c'], { env, configDir: dir, input: 'And backups?\n' });
    const firstMessages = (await api(server, server.keys.demo, 'GET', `/v1/threads/${first.id}`)).json.data
      .messages;
    expect(firstMessages.map((m: { content: string }) => m.content)).toContain('And backups?');
  });

  it('fails clearly for an unknown thread (exit 3)', async () => {
    const res = await runKb(['chat', 'thr_nope'], { env, input: 'hi\n' });
    expect(res.code).toBe(3);
    expect(res.stderr).toMatch(/^error: thread thr_nope not found/);
  });
});

describe('npm start without a terminal', () => {
  // The demo indexes its documents first, OCR of its scanned PDF and diagram included: past 30 s on
  // a loaded 2-core CI machine (Node 22, three test files at once; 9.7 s alone).
  it(
    'asks the demo one sample question, prints the cited answer and exits 0',
    { timeout: 120_000 },
    async () => {
      const configDir = tempDir();
      const result = await new Promise<{ code: number | null; stdout: string }>((resolve) => {
        const child = spawn('npm', ['start', '--silent'], {
          cwd: ROOT,
          env: { ...baseEnv(configDir), CI: 'true' },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let stdout = '';
        child.stdout.on('data', (d) => (stdout += d));
        child.on('close', (code) => resolve({ code, stdout }));
      });
      expect(result.code).toBe(0);
      expect(result.stdout).toContain('29 dollars');
      expect(result.stdout).toContain('[pricing.md]');
    },
  );
});

describe('kb chat on a terminal (tmux)', () => {
  itWith('tmux')(
    'renders a reply, cancels a slow one with Ctrl-C, and leaves with Ctrl-D',
    async () => {
      const slow = await startTestServer({ demo: true, replyDelayMs: 2000 });
      const configDir = tempDir();
      const vars = {
        ...baseEnv(configDir),
        TERM: 'xterm-256color',
        KB_BASE_URL: slow.url,
        KB_API_KEY: slow.keys.demo!,
      };
      const term = kbInTmux(['chat'], vars, { columns: 100, rows: 50 });
      onTestFinished(() => term.close());
      const { waitFor, screen } = term;
      await waitFor('you ›');
      term.keys('How much is the Growth plan?', 'Enter');
      await waitFor('Thinking');
      await waitFor(/29 dollars[^]*\nyou › $/m, 15_000);
      const rendered = screen();
      expect(rendered).toContain('Assistant');

      // A multi-line paste (bracketed, as terminals send it) arrives as one message.
      term.paste('first pasted line\nsecond pasted line');
      term.keys('Enter');
      await waitFor('Thinking');
      const threadId = [...slow.service.store.threads.values()].at(-1)!.id;
      const userMessages = () =>
        (slow.service.store.messages.get(threadId) ?? [])
          .filter((m) => m.role === 'user')
          .map((m) => m.content);
      const end0 = Date.now() + 15_000;
      while (userMessages().length < 2 && Date.now() < end0) await new Promise((r) => setTimeout(r, 100));
      expect(userMessages()).toEqual([
        'How much is the Growth plan?',
        'first pasted line\nsecond pasted line',
      ]);
      await waitFor(/Assistant[\s\S]*Assistant[\s\S]*\nyou › $/m);

      term.keys('What does error E-4102 mean?', 'Enter');
      await waitFor(/Thinking[^\n]*\n?[^\n]*$/m);
      await new Promise((r) => setTimeout(r, 500));
      term.keys('C-c');
      // Streamed: the service stops writing, and what it wrote (nothing yet) is kept.
      await waitFor('Cancelled: the service stopped writing; the reply so far is kept in the thread');
      expect(screen()).not.toContain('IMAP server refused');

      term.keys('C-c');
      await waitFor('(To leave, press Ctrl-D or type /exit)');
      // Ctrl-R finds an earlier message; Enter sends it again.
      const asked = () =>
        (slow.service.store.messages.get(threadId) ?? []).filter(
          (m) => m.content === 'How much is the Growth plan?',
        ).length;
      term.keys('C-r');
      term.keys('Growth');
      await waitFor("(reverse-i-search)`Growth': How much is the Growth plan?");
      term.keys('Enter');
      const end1 = Date.now() + 15_000;
      while (asked() < 2 && Date.now() < end1) await new Promise((r) => setTimeout(r, 100));
      expect(asked()).toBe(2);
      await waitFor(/you › $/m);

      term.keys('/threads', 'Enter');
      await waitFor('Continue which thread?');
      term.keys('Enter');
      await waitFor(/✔ Continue which thread\?[\s\S]*· thr_\w+ · OPEN · \d+ messages/);
      term.keys('C-d');
      const end = await waitFor('exit=0');
      expect(end).toMatch(/Resume this conversation with: kb chat thr_\w+/);
      await slow.close();
    },
    60_000,
  );
});
