import { afterEach, describe, expect, it } from 'vitest';
import { runCreate } from '../../src/commands/threads/create.js';
import { runGet } from '../../src/commands/threads/get.js';
import { runList } from '../../src/commands/threads/list.js';
import { runSend } from '../../src/commands/threads/send.js';
import { UsageError } from '../../src/errors.js';
import { type Fake, fakeContext } from '../helpers/context.js';

const T1 = { id: 'thr_1', title: 'Pricing', status: 'OPEN', createdAt: '2026-11-22T11:00:00Z' };
const T2 = { id: 'thr_2', title: 'Security\tand SSO', status: 'CLOSED', createdAt: '2026-11-20T12:00:00Z' };
const HOSTILE = {
  id: 'thr_x',
  title: 'evil\u001b]0;pwned\u0007 title\u202e\u200b',
  status: 'OPEN\u009b2J',
  createdAt: '2026\u001b[31m-11-22',
  messages: [
    { id: 'm1', role: 'user\u001b[8m', content: 'hi\u001bP1;2q\u001b\\', createdAt: '\u202e2026-11-22' },
  ],
};

let fake: Fake;
afterEach(() => fake?.agent.close());

describe('threads list', () => {
  it('prints tab-separated rows with exact times when piped', async () => {
    fake = fakeContext();
    fake.on('GET', '/v1/threads?limit=50').reply(200, { data: [T1, T2], meta: { limit: 50 } });
    await runList(fake.ctx, {});
    expect(fake.stdout()).toBe(
      'thr_1\tPricing\tOPEN\t2026-11-22T11:00:00Z\nthr_2\tSecurity and SSO\tCLOSED\t2026-11-20T12:00:00Z\n',
    );
    expect(fake.stderr()).toBe('');
  });

  it('prints a table with relative times on a terminal', async () => {
    fake = fakeContext({ tty: true, env: { NO_COLOR: '1' } });
    fake.on('GET', '/v1/threads?limit=50').reply(200, { data: [T1, T2] });
    await runList(fake.ctx, {});
    expect(fake.stdout().split('\n')).toEqual([
      'ID     TITLE             STATUS  CREATED',
      'thr_1  Pricing           OPEN    1h ago',
      'thr_2  Security and SSO  CLOSED  2d ago',
      '',
    ]);
  });

  it('fits the table to a narrow terminal, cutting the title with an ellipsis', async () => {
    fake = fakeContext({ tty: true, columns: 50, env: { NO_COLOR: '1' } });
    const long = { ...T1, title: `A very long title ${'about renewals '.repeat(8)}` };
    fake.on('GET', '/v1/threads?limit=50').reply(200, { data: [long, T2] });
    await runList(fake.ctx, {});
    const lines = fake.stdout().trimEnd().split('\n');
    expect(lines[1]).toMatch(/^thr_1 {2}A very long title about.*… {2}OPEN {4}1h ago$/);
    expect(lines.every((line) => line.length <= 50)).toBe(true);
  });

  it('prints --json indented, --jsonl one object per line, --ids one id per line', async () => {
    for (const [options, expected] of [
      [{ json: true }, `${JSON.stringify([T1, T2], null, 2)}\n`],
      [{ jsonl: true }, `${JSON.stringify(T1)}\n${JSON.stringify(T2)}\n`],
      [{ ids: true }, 'thr_1\nthr_2\n'],
    ] as const) {
      fake = fakeContext({ options });
      fake.on('GET', '/v1/threads?limit=50').reply(200, { data: [T1, T2] });
      await runList(fake.ctx, {});
      expect(fake.stdout()).toBe(expected);
    }
  });

  it('refuses two formats at once, and an unknown KB_FORMAT, before any request', async () => {
    fake = fakeContext({ options: { json: true, ids: true } });
    await expect(runList(fake.ctx, {})).rejects.toThrow(/--json and --ids cannot be used together/);
    fake = fakeContext({ env: { KB_FORMAT: 'yaml' } });
    await expect(runList(fake.ctx, {})).rejects.toBeInstanceOf(UsageError);
    expect(fake.stdout()).toBe('');
  });

  it('says on stderr, on a terminal and piped, when more threads exist than were listed; --quiet leaves it out', async () => {
    for (const tty of [true, false]) {
      fake = fakeContext({ tty, env: { NO_COLOR: '1' } });
      fake.on('GET', '/v1/threads?limit=2').reply(200, { data: [T1, T2], meta: { nextCursor: 'c2' } });
      await runList(fake.ctx, { limit: 2 });
      expect(fake.stderr()).toBe('note: showing the first 2 threads; more exist (--all lists every one)\n');
    }
    fake = fakeContext();
    fake.on('GET', '/v1/threads?limit=2').reply(200, { data: [T1, T2], meta: { nextCursor: 'c2' } });
    await runList(fake.ctx, { limit: 2, quiet: true });
    expect(fake.stderr()).toBe('');
    fake = fakeContext({ options: { json: true } });
    fake.on('GET', '/v1/threads?limit=2').reply(200, { data: [T1, T2], meta: { nextCursor: 'c2' } });
    await runList(fake.ctx, { limit: 2 });
    expect(JSON.parse(fake.stderr())).toEqual({
      warning: {
        code: 'more_records',
        message: 'showing the first 2 threads; more exist (--all lists every one)',
        shown: 2,
      },
    });
    // A service that says nothing of paging: a full page may not be all of them.
    fake = fakeContext();
    fake.on('GET', '/v1/threads?limit=2').reply(200, { data: [T1, T2] });
    await runList(fake.ctx, { limit: 2 });
    expect(fake.stderr()).toBe(
      'note: showing the first 2 threads; more may exist, but the service gives no way to ask for the next page\n',
    );
    fake = fakeContext({ tty: true });
    fake.on('GET', '/v1/threads?status=ARCHIVED&limit=50').reply(200, { data: [] });
    await runList(fake.ctx, { status: 'ARCHIVED' });
    expect(fake.stdout()).toBe('');
    expect(fake.stderr()).toBe('No ARCHIVED threads\n');
  });

  it('asks for as many pages as --limit takes, and every page with --all, printing each as it comes', async () => {
    const many = (from: number, n: number) =>
      Array.from({ length: n }, (_, i) => ({ ...T1, id: `thr_${from + i}`, title: `t${from + i}` }));
    fake = fakeContext({ options: { ids: true } });
    fake.on('GET', '/v1/threads?limit=100').reply(200, { data: many(0, 100), meta: { nextCursor: 'p2' } });
    fake
      .on('GET', '/v1/threads?limit=100&cursor=p2')
      .reply(200, { data: many(100, 100), meta: { nextCursor: 'p3' } });
    await runList(fake.ctx, { limit: 120 });
    expect(fake.stdout().trim().split('\n')).toEqual(many(0, 120).map((t) => t.id));
    expect(fake.stderr()).toContain('showing the first 120 threads; more exist');

    fake = fakeContext({ options: { json: true } });
    fake.on('GET', '/v1/threads?limit=100').reply(200, { data: many(0, 100), meta: { nextCursor: 'p2' } });
    fake
      .on('GET', '/v1/threads?limit=100&cursor=p2')
      .reply(200, { data: many(100, 30), meta: { nextCursor: null } });
    await runList(fake.ctx, { all: true });
    // One JSON document, written a page at a time, exactly as if written whole.
    expect(fake.stdout()).toBe(`${JSON.stringify(many(0, 130), null, 2)}\n`);
    expect(fake.stderr()).toBe('');

    fake = fakeContext({ options: { json: true } });
    fake.on('GET', '/v1/threads?limit=100').reply(200, { data: [], meta: { nextCursor: null } });
    await runList(fake.ctx, { all: true });
    expect(fake.stdout()).toBe('[]\n');
  });
});

describe('threads get', () => {
  it('never lets a hostile field reach the terminal raw', async () => {
    fake = fakeContext({ tty: true });
    fake.on('GET', '/v1/threads/thr_x').reply(200, { data: HOSTILE });
    await runGet(fake.ctx, 'thr_x', {});
    const screen = fake.stdout();
    expect(screen).toContain('evil title');
    expect(screen).toContain('OPEN');
    // Only kb's own colour (SGR) sequences remain.
    expect(screen.replace(/\u001b\[[0-9;]*m/g, '')).not.toMatch(
      /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202e\u200b]/,
    );
  });

  it('shows a reply’s block of code as its lines on a terminal, without the fences', async () => {
    const thread = {
      ...T1,
      messages: [
        {
          id: 'm1',
          role: 'assistant',
          content: 'Change the prefix key:\n\n```\nset -g prefix C-a\n```\n\nSources: [example_tmux.conf]',
          createdAt: T1.createdAt,
        },
      ],
    };
    fake = fakeContext({ tty: true, env: { NO_COLOR: '1' } });
    fake.on('GET', '/v1/threads/thr_1').reply(200, { data: thread });
    await runGet(fake.ctx, 'thr_1', {});
    expect(fake.stdout()).toContain(
      'Change the prefix key:\n\nset -g prefix C-a\n\nSources: [example_tmux.conf]\n',
    );
    expect(fake.stdout()).not.toContain('```');
  });

  it('keeps the data exact in --json, escaping only what a terminal would act on', async () => {
    fake = fakeContext({ tty: true, options: { json: true } });
    fake.on('GET', '/v1/threads/thr_x').reply(200, { data: HOSTILE });
    await runGet(fake.ctx, 'thr_x', {});
    expect(fake.stdout()).not.toMatch(/[\u001b\u009b\u202e\u200b]/);
    expect(JSON.parse(fake.stdout())).toEqual(HOSTILE);
  });

  it('prints the id with --ids and the last n messages as a transcript', async () => {
    const thread = {
      ...T1,
      messages: [1, 2, 3].map((n) => ({
        id: `m${n}`,
        role: 'user',
        content: `message ${n}`,
        createdAt: T1.createdAt,
      })),
    };
    fake = fakeContext({ options: { ids: true } });
    fake.on('GET', '/v1/threads/thr_1').reply(200, { data: thread });
    await runGet(fake.ctx, 'thr_1', {});
    expect(fake.stdout()).toBe('thr_1\n');
    fake = fakeContext();
    fake.on('GET', '/v1/threads/thr_1').reply(200, { data: thread });
    await runGet(fake.ctx, 'thr_1', { last: 2 });
    expect(fake.stdout()).not.toContain('message 1');
    expect(fake.stdout()).toContain('message 3');
    expect(fake.stdout()).toContain('3 messages');
  });
});

describe('an unfinished reply', () => {
  const thread = {
    ...T1,
    messages: [
      { id: 'm1', role: 'user', content: 'Explain the SLA', createdAt: T1.createdAt },
      {
        id: 'm2',
        role: 'assistant',
        content: 'Urgent tickets get',
        createdAt: T1.createdAt,
        incomplete: true,
      },
      { id: 'm3', role: 'user', content: 'And now?', createdAt: T1.createdAt },
      {
        id: 'm4',
        role: 'assistant',
        content: 'Being',
        createdAt: T1.createdAt,
        incomplete: true,
        inProgress: true,
      },
    ],
  };

  it('is marked in the transcript, in Markdown, and by incomplete: true in JSON', async () => {
    fake = fakeContext();
    fake.on('GET', '/v1/threads/thr_1').reply(200, { data: thread });
    await runGet(fake.ctx, 'thr_1', {});
    expect(fake.stdout()).toContain('Urgent tickets get\n[reply stopped]\n');
    expect(fake.stdout()).toContain('Being\n[reply still being written]\n');

    fake = fakeContext();
    fake.on('GET', '/v1/threads/thr_1').reply(200, { data: thread });
    await runGet(fake.ctx, 'thr_1', { format: 'md' });
    expect(fake.stdout()).toContain(
      'Urgent tickets get\n\n> **Note:** reply stopped: this reply is incomplete.',
    );

    fake = fakeContext({ options: { json: true } });
    fake.on('GET', '/v1/threads/thr_1').reply(200, { data: thread });
    await runGet(fake.ctx, 'thr_1', {});
    expect(JSON.parse(fake.stdout()).messages[1]).toMatchObject({ incomplete: true });
  });
});

describe('a thread in Markdown', () => {
  it("names a reply's sources once: not again under a reply whose text ends with them (kb serve's), and under one that does not", async () => {
    const thread = {
      ...T1,
      messages: [
        {
          id: 'm1',
          role: 'user',
          content: 'When does 20.04 reach its end of life?',
          createdAt: T1.createdAt,
        },
        {
          id: 'm2',
          role: 'assistant',
          content: 'eol: 2025-05-29.\n\nSources: [ubuntu.csv]',
          sources: ['ubuntu.csv'],
          createdAt: T1.createdAt,
        },
        {
          id: 'm3',
          role: 'assistant',
          content: 'It was released on 2020-04-23.',
          sources: ['ubuntu.csv'],
          createdAt: T1.createdAt,
        },
      ],
    };
    fake = fakeContext();
    fake.on('GET', '/v1/threads/thr_1').reply(200, { data: thread });
    await runGet(fake.ctx, 'thr_1', { format: 'md' });
    expect(fake.stdout()).toContain('eol: 2025-05-29.\n\nSources: [ubuntu.csv]\n\n## ');
    expect(fake.stdout()).toContain('It was released on 2020-04-23.\n\n_Sources: ubuntu.csv_\n');
    expect(fake.stdout().match(/Sources/g)).toHaveLength(2);
  });
});

describe('threads create and send', () => {
  it('creates a thread and prints its fields, or only its id', async () => {
    fake = fakeContext({ options: { ids: true } });
    fake.on('POST', '/v1/threads').reply(201, { data: T1 });
    await runCreate(fake.ctx, { title: 'Pricing' });
    expect(fake.stdout()).toBe('thr_1\n');
    fake = fakeContext();
    fake.on('POST', '/v1/threads').reply(201, { data: T1 });
    await runCreate(fake.ctx, { title: 'Pricing' });
    expect(fake.stdout()).toBe('ID\tthr_1\nTitle\tPricing\nStatus\tOPEN\nCreated\t2026-11-22T11:00:00Z\n');
  });

  it('prints the reply text, sanitised, or the exchange as JSON', async () => {
    const exchange = {
      userMessage: { id: 'm1', role: 'user', content: 'hi', createdAt: T1.createdAt },
      aiResponse: {
        id: 'm2',
        role: 'assistant',
        content: 'hello\u001b]52;c;ZXZpbA==\u0007 there',
        createdAt: T1.createdAt,
      },
    };
    fake = fakeContext();
    fake.on('POST', '/v1/threads/thr_1/messages').reply(200, { data: exchange });
    await runSend(fake.ctx, 'thr_1', ['hi']);
    expect(fake.stdout()).toBe('hello there\n');
    fake = fakeContext({ options: { jsonl: true } });
    fake.on('POST', '/v1/threads/thr_1/messages').reply(200, { data: exchange });
    await runSend(fake.ctx, 'thr_1', ['hi']);
    expect(JSON.parse(fake.stdout())).toEqual(exchange);
    expect(fake.stdout().trim()).not.toContain('\n');
  });

  it('wraps the reply at word boundaries on a terminal, as threads get does; piped, one line as sent', async () => {
    const content = `The retention period is ${'thirty days for every backup '.repeat(4)}taken.\n\n- first item`;
    const exchange = {
      userMessage: { id: 'm1', role: 'user', content: 'hi', createdAt: T1.createdAt },
      aiResponse: { id: 'm2', role: 'assistant', content, createdAt: T1.createdAt },
    };
    fake = fakeContext({ tty: true, columns: 40, env: { NO_COLOR: '1' } });
    fake.on('POST', '/v1/threads/thr_1/messages').reply(200, { data: exchange });
    await runSend(fake.ctx, 'thr_1', ['hi']);
    const lines = fake.stdout().trimEnd().split('\n');
    expect(lines.length).toBeGreaterThan(4);
    expect(lines.every((line) => line.length <= 38)).toBe(true);
    expect(lines.join(' ').replace(/ +/g, ' ')).toBe(
      content.replace(/\s+/g, ' ').replace('- first', '* first'),
    );
    expect(lines.at(-1)).toBe('  * first item');
    fake = fakeContext({ columns: 40 });
    fake.on('POST', '/v1/threads/thr_1/messages').reply(200, { data: exchange });
    await runSend(fake.ctx, 'thr_1', ['hi']);
    expect(fake.stdout()).toBe(`${content}\n`);
  });

  it('shows a block of code in the reply as its lines on a terminal, without the fences; piped, as sent', async () => {
    const content =
      'Change the prefix key:\n\n```\nset -g prefix C-a\nunbind C-b\n```\n\nSources: [example_tmux.conf]';
    const exchange = {
      userMessage: { id: 'm1', role: 'user', content: 'hi', createdAt: T1.createdAt },
      aiResponse: { id: 'm2', role: 'assistant', content, createdAt: T1.createdAt },
    };
    fake = fakeContext({ tty: true, columns: 80, env: { NO_COLOR: '1' } });
    fake.on('POST', '/v1/threads/thr_1/messages').reply(200, { data: exchange });
    await runSend(fake.ctx, 'thr_1', ['hi']);
    expect(fake.stdout()).toBe(
      'Change the prefix key:\n\nset -g prefix C-a\nunbind C-b\n\nSources: [example_tmux.conf]\n',
    );
    fake = fakeContext();
    fake.on('POST', '/v1/threads/thr_1/messages').reply(200, { data: exchange });
    await runSend(fake.ctx, 'thr_1', ['hi']);
    expect(fake.stdout()).toBe(`${content}\n`);
  });

  it('reads the message from stdin and refuses an empty one without sending', async () => {
    fake = fakeContext({ stdin: '  \n' });
    await expect(runSend(fake.ctx, 'thr_1', ['-'])).rejects.toMatchObject({
      message: 'the message is empty',
      hint: 'give it as words (`kb threads send thr_1 What is the SLA`) or on stdin',
    });
  });

  it('says a question given where the id goes is no thread id, and sends nothing', async () => {
    // A new user's script (trial 18) passed its question as the id and an empty message; a new
    // user (trial 25) typed `kb threads send "What does copytruncate do?"` and was told the
    // message they had given was empty.
    for (const words of [[''], []]) {
      fake = fakeContext();
      await expect(runSend(fake.ctx, 'What does copytruncate do?', words)).rejects.toMatchObject({
        message: 'no thread id: "What does copytruncate do?" is a message',
        hint: 'give the thread first (`kb threads send <thread-id> What is the SLA`); `kb threads create` makes one, or pipe the question into `kb chat`',
      });
    }
    fake = fakeContext();
    await expect(runSend(fake.ctx, `${'why '.repeat(30)}\n`, [])).rejects.toMatchObject({
      message: `no thread id: "${'why '.repeat(14).trim()}…" is a message`,
    });
  });
});
