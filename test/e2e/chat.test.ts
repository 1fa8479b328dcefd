import { execFileSync, spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server/index.js';
import { BIN, baseEnv, ROOT, runKb, tempDir } from '../helpers/cli.js';
import { api, startTestServer } from '../helpers/server.js';

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

  it('fails clearly for an unknown thread (exit 3)', async () => {
    const res = await runKb(['chat', 'thr_nope'], { env, input: 'hi\n' });
    expect(res.code).toBe(3);
    expect(res.stderr).toMatch(/^error: thread not found/);
  });
});

describe('npm start without a terminal', () => {
  it('asks the demo one sample question, prints the cited answer and exits 0', async () => {
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
  });
});

describe('kb chat on a terminal (tmux)', () => {
  const session = `kb-test-${process.pid}`;
  const tmux = (...args: string[]) => execFileSync('tmux', args, { encoding: 'utf8' });
  const screen = () => tmux('capture-pane', '-p', '-J', '-t', session);
  async function waitFor(text: string | RegExp, ms = 10_000) {
    const end = Date.now() + ms;
    for (;;) {
      const s = screen();
      if (typeof text === 'string' ? s.includes(text) : text.test(s)) return s;
      if (Date.now() > end) throw new Error(`screen never showed ${text}:\n${s}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  afterAll(() => {
    try {
      tmux('kill-session', '-t', session);
    } catch {
      // already gone
    }
  });

  it('renders a reply, cancels a slow one with Ctrl-C, and leaves with Ctrl-D', async () => {
    const slow = await startTestServer({ demo: true, replyDelayMs: 3000 });
    const configDir = tempDir();
    const vars = {
      ...baseEnv(configDir),
      TERM: 'xterm-256color',
      KB_BASE_URL: slow.url,
      KB_API_KEY: slow.keys.demo!,
    };
    const exports = Object.entries(vars)
      .map(([k, v]) => `${k}='${String(v).replace(/'/g, `'\\''`)}'`)
      .join(' ');
    tmux(
      'new-session',
      '-d',
      '-s',
      session,
      '-x',
      '100',
      '-y',
      '50',
      `env -i ${exports} ${process.execPath} ${BIN} chat; echo "exit=$?"; sleep 30`,
    );
    await waitFor('you ›');
    tmux('send-keys', '-t', session, 'How much is the Growth plan?', 'Enter');
    await waitFor('Thinking');
    await waitFor('29 dollars', 15_000);
    const rendered = screen();
    expect(rendered).toContain('Assistant');

    // A multi-line paste (bracketed, as terminals send it) arrives as one message.
    tmux('set-buffer', 'first pasted line\nsecond pasted line');
    tmux('paste-buffer', '-p', '-t', session);
    tmux('send-keys', '-t', session, 'Enter');
    await waitFor('Thinking');
    const threadId = [...slow.service.store.threads.values()].at(-1)!.id;
    const userMessages = () =>
      (slow.service.store.messages.get(threadId) ?? [])
        .filter((m) => m.role === 'user')
        .map((m) => m.content);
    const end0 = Date.now() + 15_000;
    while (userMessages().length < 2 && Date.now() < end0) await new Promise((r) => setTimeout(r, 100));
    expect(userMessages()).toEqual(['How much is the Growth plan?', 'first pasted line\nsecond pasted line']);
    await waitFor(/Assistant[\s\S]*Assistant/);

    tmux('send-keys', '-t', session, 'What does error E-4102 mean?', 'Enter');
    await waitFor(/Thinking[^\n]*\n?[^\n]*$/m);
    await new Promise((r) => setTimeout(r, 500));
    tmux('send-keys', '-t', session, 'C-c');
    await waitFor('Cancelled. The service may still finish this reply');
    expect(screen()).not.toContain('IMAP server refused');

    tmux('send-keys', '-t', session, 'C-c');
    await waitFor('(To leave, press Ctrl-D or type /exit)');
    // Ctrl-R finds an earlier message; Enter sends it again.
    const asked = () =>
      (slow.service.store.messages.get(threadId) ?? []).filter(
        (m) => m.content === 'How much is the Growth plan?',
      ).length;
    tmux('send-keys', '-t', session, 'C-r');
    tmux('send-keys', '-t', session, 'Growth');
    await waitFor("(reverse-i-search)`Growth': How much is the Growth plan?");
    tmux('send-keys', '-t', session, 'Enter');
    const end1 = Date.now() + 15_000;
    while (asked() < 2 && Date.now() < end1) await new Promise((r) => setTimeout(r, 100));
    expect(asked()).toBe(2);
    await waitFor(/you › $/m);

    tmux('send-keys', '-t', session, '/threads', 'Enter');
    await waitFor('Continue which thread?');
    tmux('send-keys', '-t', session, 'Enter');
    await waitFor(/✔ Continue which thread\?[\s\S]*· thr_\w+ · OPEN · \d+ messages/);
    tmux('send-keys', '-t', session, 'C-d');
    const end = await waitFor('exit=0');
    expect(end).toMatch(/Resume this conversation with: kb chat thr_\w+/);
    await slow.close();
  }, 60_000);
});
