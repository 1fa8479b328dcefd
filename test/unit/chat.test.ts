import { mkdtempSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { Chalk } from 'chalk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KbClient } from '../../src/api/client.js';
import { ConnectionError } from '../../src/api/errors.js';
import { MessageAssembler } from '../../src/chat/assembler.js';
import { titleFrom } from '../../src/util/title.js';
import { HISTORY_LIMIT, HistoryFile } from '../../src/chat/history.js';
import { createRenderer, deferredRenderer, rawRenderer } from '../../src/chat/render.js';
import { Repl, type ReplOptions } from '../../src/chat/repl.js';
import type { ChatClient } from '../../src/chat/session.js';
import type { RunningServer } from '../../src/server/index.js';
import { startTestServer } from '../helpers/server.js';

let server: RunningServer;
let client: KbClient;

beforeAll(async () => {
  server = await startTestServer({ demo: true, replyDelayMs: 0 });
  client = new KbClient({ baseUrl: server.url, apiKey: server.keys.demo! });
});
afterAll(async () => {
  await client.close();
  await server.close();
});

/** The client as a service without the streaming interface offers it: replies come whole. */
function withoutStreaming(c: KbClient): ChatClient {
  return {
    threads: {
      create: (p, s) => c.threads.create(p, s),
      get: (id, s) => c.threads.get(id, s),
      send: (id, content, s) => c.threads.send(id, content, s),
      list: (p) => c.threads.list(p),
    },
  };
}

function harness(overrides: Partial<ReplOptions> = {}) {
  const input = new PassThrough();
  const output = new PassThrough();
  const errOutput = new PassThrough();
  let out = '';
  let err = '';
  output.on('data', (d) => (out += d));
  errOutput.on('data', (d) => (err += d));
  const repl = new Repl({
    input,
    output,
    errOutput,
    terminal: false,
    client,
    color: new Chalk({ level: 0 }),
    renderer: rawRenderer(),
    ...overrides,
  });
  return { repl, input, out: () => out, err: () => err };
}

const tick = (ms = 20) => new Promise((r) => setTimeout(r, ms));
async function until(check: () => boolean, ms = 5000) {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await tick();
  }
}

describe('MessageAssembler', () => {
  it('joins a """ block, trailing backslashes and pasted lines into one message', () => {
    const a = new MessageAssembler();
    expect(a.push('"""')).toBeUndefined();
    expect(a.push('first')).toBeUndefined();
    expect(a.push('  second')).toBeUndefined();
    expect(a.push('"""')).toBe('first\n  second');
    expect(a.push('one \\')).toBeUndefined();
    expect(a.pending).toBe(true);
    expect(a.push('two')).toBe('one \ntwo');
    expect(a.push('pasted 1', true)).toBeUndefined();
    expect(a.push('pasted 2', true)).toBeUndefined();
    expect(a.push('typed after')).toBe('pasted 1\npasted 2\ntyped after');
    expect(a.push('"""inline"""')).toBe('inline');
    expect(a.push('plain')).toBe('plain');
    a.push('"""');
    a.reset();
    expect(a.pending).toBe(false);
  });

  it('titles a thread from the first message, cut at a word near 60 characters', () => {
    expect(titleFrom('  short  question ')).toBe('short question');
    const long = titleFrom(
      'How do I configure the smart routing rules so that urgent tickets from enterprise customers go first?',
    );
    expect(long.length).toBeLessThanOrEqual(60);
    expect(long.endsWith('…')).toBe(true);
    expect(long).toBe('How do I configure the smart routing rules so that urgent…');
  });
});

describe('history file', () => {
  it('appends one entry per message, multi-line ones whole, 0600, and compacts to the newest', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'kb-hist-')), 'h', 'chat-default');
    const history = new HistoryFile(file);
    expect(history.load().entries).toEqual([]);
    history.add('a\nb\r\nc');
    history.add('back\\slash');
    for (let i = 0; i < 2 * HISTORY_LIMIT; i++) history.add(`line ${i}`);
    await history.flush();
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
    expect(lines.length).toBeLessThan(2 * HISTORY_LIMIT);
    const { entries } = new HistoryFile(file).load();
    expect(entries).toHaveLength(HISTORY_LIMIT);
    expect(entries[0]).toBe(`line ${2 * HISTORY_LIMIT - 1}`);

    const small = new HistoryFile(join(mkdtempSync(join(tmpdir(), 'kb-hist-')), 'chat'));
    small.add('first\nsecond\nthird');
    small.add('back\\slash');
    await small.flush();
    expect(new HistoryFile(small.path).load().entries).toEqual(['back\\slash', 'first\nsecond\nthird']);
  });

  it('two writers at once keep every entry', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'kb-hist-')), 'chat');
    const a = new HistoryFile(file);
    const b = new HistoryFile(file);
    for (let i = 0; i < 50; i++) {
      a.add(`a${i}`);
      b.add(`b${i}`);
    }
    await Promise.all([a.flush(), b.flush()]);
    expect(new HistoryFile(file).load().entries.sort()).toEqual(
      [
        ...Array.from({ length: 50 }, (_, i) => `a${i}`),
        ...Array.from({ length: 50 }, (_, i) => `b${i}`),
      ].sort(),
    );
  });

  it('is never followed through a link: no history, with a warning', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kb-hist-'));
    const target = join(dir, 'target');
    writeFileSync(target, 'secret\n');
    symlinkSync(target, join(dir, 'chat'));
    const { entries, warning } = new HistoryFile(join(dir, 'chat')).load();
    expect(entries).toEqual([]);
    expect(warning).toMatch(/is a symbolic link.*; history is not kept$/);
  });
});

describe('Repl', () => {
  it('creates the thread on the first message, titled from it, and prints the reply', async () => {
    const h = harness();
    const done = h.repl.run();
    h.input.write('What does error E-4102 mean?\n');
    await until(() => h.out().includes('IMAP'));
    h.input.end();
    await done;
    const thread = await client.threads.get(h.repl.session.id!);
    expect(thread.title).toBe('What does error E-4102 mean?');
    expect(thread.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(h.err()).toContain(`Resume this conversation with: kb chat ${thread.id}`);
  });

  it('sends a """ block and continued lines as single messages', async () => {
    const h = harness();
    const done = h.repl.run({ title: 'multi' });
    h.input.write('"""\nline one\nline two\n"""\nthree \\\nfour\n');
    await until(() => h.repl.session.messages.length === 4);
    h.input.end();
    await done;
    const thread = await client.threads.get(h.repl.session.id!);
    expect(thread.title).toBe('multi');
    expect(thread.messages.filter((m) => m.role === 'user').map((m) => m.content)).toEqual([
      'line one\nline two',
      'three \nfour',
    ]);
  });

  it('runs slash commands, hints at unknown ones and never crashes', async () => {
    const h = harness();
    const done = h.repl.run();
    h.input.write(
      '/help\n/info\n/hepl\n/history\n/new Fresh start\n/info\n/switch\n/switch What does grep do?\n/bogus arg\n',
    );
    await until(() => h.err().includes('unknown command /bogus'));
    expect(h.err()).toContain(
      'no thread id: "What does grep do?" is a message; /switch takes a thread id (/threads to pick one)',
    );
    expect(h.out()).toContain('/retry');
    expect(h.out()).toContain('Not saved yet');
    expect(h.out()).toContain('title "Fresh start"');
    expect(h.err()).toContain('unknown command /hepl (did you mean /help?)');
    expect(h.err()).toContain('usage: /switch <thread id>');
    h.input.write('/exit\nnot sent\n');
    await done;
    expect(h.repl.session.id).toBeUndefined();
  });

  it('completes slash command names', () => {
    const h = harness();
    expect(h.repl.commands.complete('/hi')[0]).toEqual(['/history']);
    // One that needs its argument, with a space: Tab again completes the thread id.
    expect(h.repl.commands.complete('/sw')[0]).toEqual(['/switch ']);
    expect(h.repl.commands.complete('/')[0]).toContain('/threads');
    expect(h.repl.commands.complete('hello')[0]).toEqual([]);
  });

  it('shows replies and resumed messages with the renderer once it has loaded, however late', async () => {
    let finishLoading!: () => void;
    const loaded = new Promise<void>((resolve) => (finishLoading = resolve));
    const renderer = deferredRenderer(async () => {
      await loaded;
      return { render: (text) => `<rendered ${text.length} chars>\n` };
    });
    void renderer.ready();
    const h = harness({ renderer, client: withoutStreaming(client) });
    const done = h.repl.run();
    h.input.write('What does error E-4102 mean?\n');
    await until(() => h.repl.session.messages.length === 2);
    await new Promise((r) => setTimeout(r, 50));
    expect(h.out()).not.toContain('IMAP');
    expect(h.out()).not.toContain('<rendered');
    finishLoading();
    await until(() => h.out().includes('<rendered'));
    h.input.end();
    await done;
  });

  it('renders text as received when the Markdown renderer cannot be loaded', async () => {
    const renderer = deferredRenderer(() => Promise.reject(new Error('no such package')));
    await renderer.ready();
    expect(renderer.render('**bold**')).toBe('**bold**\n');
  });

  it('resumes a thread, showing its last messages, and continues it', async () => {
    const thread = await client.threads.create({ title: 'resumable' });
    await client.threads.send(thread.id, 'Which certifications does Orbitdesk hold?');
    const h = harness({ showLast: 1 });
    const done = h.repl.run({ threadId: thread.id });
    await until(() => h.out().includes('resumable'));
    expect(h.out()).toContain('… 1 earlier message');
    expect(h.out()).toContain('SOC 2');
    h.input.write('How is data encrypted?\n');
    await until(() => h.repl.session.messages.length === 4);
    h.input.end();
    await done;
    expect((await client.threads.get(thread.id)).messages).toHaveLength(4);
  });

  it('marks a reply that did not finish, resumed and in /history', async () => {
    const thread = {
      id: 'thr_stopped',
      title: 'stopped',
      status: 'OPEN',
      createdAt: '2026-11-22T11:00:00Z',
      messages: [
        { id: 'm1', role: 'user', content: 'Explain the SLA', createdAt: '2026-11-22T11:00:00Z' },
        {
          id: 'm2',
          role: 'assistant',
          content: 'Urgent tickets get',
          createdAt: '2026-11-22T11:00:01Z',
          incomplete: true,
        },
      ],
    } as const;
    const fake: ChatClient = {
      threads: {
        create: () => Promise.reject(new Error('unused')),
        get: async () => structuredClone(thread) as any,
        send: () => Promise.reject(new Error('unused')),
        list: async () => ({ data: [] }),
      },
    };
    const h = harness({ client: fake });
    const done = h.repl.run({ threadId: thread.id });
    await until(() => h.out().includes('Urgent tickets get'));
    h.input.write('/history\n');
    await until(() => h.out().split('[reply stopped]').length === 3);
    expect(h.out()).toContain('Urgent tickets get\n[reply stopped]\n');
    h.input.end();
    await done;
  });

  it('cancels a slow reply with the AbortController and keeps running', async () => {
    const slow = await startTestServer({ demo: true, replyDelayMs: 1500 });
    const slowClient = new KbClient({ baseUrl: slow.url, apiKey: slow.keys.demo! });
    const h = harness({ client: withoutStreaming(slowClient) });
    const done = h.repl.run();
    h.input.write('first question\n');
    await until(() => h.repl.busy);
    await tick(100);
    expect(h.repl.cancel()).toBe(true);
    await until(() => h.err().includes('Cancelled'));
    expect(h.err()).toContain('The service may still finish this reply');
    h.input.write('/info\n');
    await until(() => h.out().includes('Thread'));
    h.input.end();
    await done;
    await slowClient.close();
    await slow.close();
  });

  it('reports errors, keeps running, and sends the failed message again with /retry', async () => {
    let calls = 0;
    const flaky: ChatClient = {
      threads: {
        create: (p) => client.threads.create(p),
        get: (id) => client.threads.get(id),
        list: (p) => client.threads.list(p),
        send: (id, content, signal) => {
          calls++;
          if (calls === 1)
            return Promise.reject(new ConnectionError('cannot connect to kb.example: connection refused'));
          return client.threads.send(id, content, signal);
        },
      },
    };
    const h = harness({ client: flaky });
    const done = h.repl.run();
    h.input.write('How much is the Starter plan?\n');
    await until(() => h.err().includes('connection refused'));
    expect(h.err()).toContain('/retry');
    h.input.write('/retry\n');
    await until(() => h.out().includes('12 dollars'));
    h.input.end();
    await done;
    expect(calls).toBe(2);
    const messages = (await client.threads.get(h.repl.session.id!)).messages;
    expect(messages.filter((m) => m.role === 'user')).toHaveLength(1);
  });

  it('reports a thread that is not open and suggests /new', async () => {
    const closed = (await client.threads.list({ status: 'CLOSED' })).data[0]!;
    const h = harness();
    const done = h.repl.run({ threadId: closed.id });
    h.input.write('hello?\n');
    await until(() => h.err().includes('only OPEN threads accept messages'));
    expect(h.err()).toContain('is CLOSED: the service will refuse new messages');
    expect(h.err()).toContain('hint: /new starts a new conversation');
    h.input.end();
    await done;
  });
});

describe('Markdown rendering', () => {
  it('renders Markdown for the terminal and strips escape sequences from replies', async () => {
    const renderer = await createRenderer({ width: () => 40, raw: false, color: false });
    const out = renderer.render(
      '# Title\n\nSome **bold** text and a list:\n\n- one\n- two\n\n\u001b]0;pwned\u0007done',
    );
    expect(out).toContain('Title');
    expect(out).toMatch(/one/);
    expect(out).not.toContain('\u001b]0;');
    expect(out.split('\n').every((l) => l.replace(/\u001b\[[0-9;]*m/g, '').length <= 40)).toBe(true);
    expect((await createRenderer({ width: () => 40, raw: true, color: false })).render('**x**')).toBe(
      '**x**\n',
    );
  });

  it('renders bold and italic inside list items, bars blockquotes, and follows the width as it changes', async () => {
    let width = 60;
    const renderer = await createRenderer({ width: () => width, raw: false, color: false });
    const out = renderer.render('* Growth: **29 dollars** per *agent*\n\n> quoted line\n');
    expect(out).toContain('Growth: 29 dollars per agent');
    expect(out).not.toMatch(/\*\*|\*agent\*/);
    expect(out).toMatch(/^│ quoted line$/m);
    expect(out).not.toMatch(/\u001b/);
    const long = 'word '.repeat(40);
    const lengths = (text: string) => text.split('\n').map((l) => l.length);
    expect(Math.max(...lengths(renderer.render(long)))).toBeLessThanOrEqual(60);
    width = 30;
    expect(Math.max(...lengths(renderer.render(long)))).toBeLessThanOrEqual(30);
    width = 100;
    expect(Math.max(...lengths(renderer.render(long)))).toBeGreaterThan(60);
  });
  it('wraps a long blockquote inside its bar: every line barred, none wider than the terminal', async () => {
    const quote =
      '> A quote that is long enough to wrap on a narrow terminal, it goes on and on for a while.\n';
    for (const width of [40, 79, 80, 81]) {
      const renderer = await createRenderer({ width: () => width, raw: false, color: false });
      const lines = renderer.render(quote).trimEnd().split('\n');
      expect(lines.length).toBeGreaterThan(1);
      for (const line of lines) {
        expect(line).toMatch(/^│ /);
        expect(line.length).toBeLessThanOrEqual(width);
      }
    }
  });
  it('fits a table wider than the terminal to its width, wrapping its cells, every line bordered', async () => {
    const table = `| Col | Description | Notes |\n|---|---|---|\n| a | ${'first row with a long description that wraps '.repeat(2)}| short |\n| b | second | ${'more words here '.repeat(4)}|\n`;
    for (const color of [false, true]) {
      const renderer = await createRenderer({ width: () => 40, raw: false, color });
      const lines = renderer
        .render(table)
        .trimEnd()
        .split('\n')
        .map((l) => l.replace(/\u001b\[[0-9;]*m/g, ''));
      for (const line of lines) {
        expect(line.length).toBeLessThanOrEqual(40);
        expect(line).toMatch(/^[┌│├└].*[┐│┤┘]$/);
      }
      expect(lines.join(' ')).toMatch(/first\b.*\bwraps/);
    }
    // A column is not made narrower than its longest word while the others can give way.
    const url = 'https://example.com/a/very/long/url';
    const links = await createRenderer({ width: () => 60, raw: false, color: false });
    expect(
      links.render(`| a | b | c |\n|---|---|---|\n| x | ${url} | ${'more words here '.repeat(6)}|\n`),
    ).toContain(url);
    // A table that fits is drawn as before: one line per row.
    const narrow = await createRenderer({ width: () => 80, raw: false, color: false });
    expect(narrow.render('| a | b |\n|---|---|\n| 1 | 2 |\n').trimEnd().split('\n')).toHaveLength(5);
  });
});

describe('clipboard helpers', () => {
  it('finds the last fenced code block, and no clipboard program where none applies', async () => {
    const { copyWithTool, lastCodeBlock } = await import('../../src/chat/clipboard.js');
    expect(lastCodeBlock('a\n```js\none()\n```\nb\n~~~\ntwo\nthree\n~~~\n')).toBe('two\nthree');
    expect(lastCodeBlock('no code here')).toBeUndefined();
    expect(await copyWithTool('x', { PATH: '/nonexistent' })).toBeUndefined();
  });
});
