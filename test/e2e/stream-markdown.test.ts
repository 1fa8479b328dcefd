import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { createRenderer } from '../../src/chat/render.js';
import type { RunningServer } from '../../src/server/index.js';
import { baseEnv, runKb, tempDir } from '../helpers/cli.js';
import { REPLY } from '../helpers/markdown-reply.js';
import { scriptedServer } from '../helpers/scripted.js';
import { api, startTestServer } from '../helpers/server.js';
import { kbInTmux } from '../helpers/tmux.js';
import { itWith } from '../helpers/tools.js';

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

/**
 * A generator endpoint (OpenAI's chat completions, streamed) that writes `text` in pieces of 1-7
 * characters, a few ms apart, stopping at each of `gates` (an offset in `text`) until the test
 * opens it. kb serve --llm-base-url passes each piece on as a delta of the reply.
 */
async function pacedGenerator(text: string, gates: number[] = []) {
  const opens = gates.map(deferred);
  const reached = gates.map(deferred);
  let seed = 11;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
  const write = (res: ServerResponse, delta: object) =>
    res.write(`data: ${JSON.stringify({ choices: [{ delta }] })}\n\n`);
  const server = await scriptedServer([
    (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      let closed = false;
      res.on('close', () => (closed = true));
      void (async () => {
        for (let at = 0; at < text.length && !closed;) {
          const gate = gates.findIndex((g) => g === at);
          if (gate !== -1) {
            reached[gate]!.resolve();
            await opens[gate]!.promise;
          }
          const stop = gates.find((g) => g > at) ?? text.length;
          const size = Math.min(1 + (next() % 7), stop - at);
          write(res, { content: text.slice(at, at + size) });
          at += size;
          await new Promise((r) => setTimeout(r, 4));
        }
        if (closed) return;
        res.write(`data: ${JSON.stringify({ choices: [{ delta: {}, finish_reason: 'stop' }] })}\n\n`);
        res.end('data: [DONE]\n\n');
      })();
    },
  ]);
  return {
    server,
    /** Resolves when the stream has stopped at gate `i`. */
    reached: (i: number) => reached[i]!.promise,
    open: (i: number) => opens[i]!.resolve(),
  };
}

const QUESTION = 'How much is the Growth plan?';
let cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

/** kb serve with a paced generator; kb in tmux, run by `args` (given a new thread's id). */
async function kbWith(
  text: string,
  gates: number[],
  args: (threadId: string) => string[],
  vars: NodeJS.ProcessEnv = {},
  size = { columns: 100, rows: 40 },
) {
  const generator = await pacedGenerator(text, gates);
  const serve: RunningServer = await startTestServer({
    demo: true,
    generator: { baseUrl: generator.server.url, model: 'scripted' },
  });
  cleanup.push(
    () => generator.server.close(),
    () => serve.close(),
  );
  const threadId = (await api(serve, serve.keys.demo, 'POST', '/v1/threads', { title: 'markdown' })).json.data
    .id as string;
  const term = kbInTmux(
    args(threadId),
    {
      ...baseEnv(tempDir()),
      TERM: 'xterm-256color',
      KB_BASE_URL: serve.url,
      KB_API_KEY: serve.keys.demo!,
      ...vars,
    },
    size,
  );
  cleanup.push(() => term.close());
  return { term, generator, serve, threadId };
}

async function chatWith(text: string, gates: number[], vars: NodeJS.ProcessEnv = {}) {
  const kb = await kbWith(text, gates, (id) => ['chat', id], vars);
  await kb.term.waitFor('you ›');
  kb.term.keys(QUESTION, 'Enter');
  return kb;
}

/** The reply as the screen shows it: from under its label to the line giving its time and size. */
function replyOn(screen: string): string {
  const start = screen.indexOf('Assistant\n') + 'Assistant\n'.length;
  const end = screen.search(/^\d[\d.]*m?s · \d+ words?$/m);
  return screen.slice(start, end === -1 ? undefined : end);
}

/** What render() draws for `text` at `width`, as tmux shows it (no colour, no trailing spaces). */
async function rendered(text: string, width: number): Promise<string> {
  const renderer = await createRenderer({ width: () => width, raw: false, color: false });
  return renderer
    .render(text)
    .split('\n')
    .map((l) => l.trimEnd())
    .join('\n');
}

describe('kb chat draws a streamed reply as Markdown while it arrives (tmux)', () => {
  itWith('tmux')(
    'blocks are drawn rendered as they complete, never a raw fence or **, and the end equals the whole render',
    async () => {
      const afterFence = REPLY.indexOf('| Plan') + 3;
      const { term, generator, serve, threadId } = await chatWith(REPLY, [afterFence]);
      // The screen while the reply arrives: whatever moment it is looked at.
      const seen: string[] = [];
      const watching = (async () => {
        for (let done = false; !done; await new Promise((r) => setTimeout(r, 30))) {
          const screen = term.screen();
          seen.push(replyOn(screen));
          done = /^\d[\d.]*m?s · \d+ words?$/m.test(screen);
        }
      })();
      await generator.reached(0);
      // Stopped just after the code block: heading, paragraph, list and code are drawn.
      const middle = replyOn(await term.waitFor('console.log(plan.price); // 29\n'));
      expect(middle).toContain('Plans and limits');
      expect(middle).toContain(
        'The Growth plan costs 29 dollars per agent; see the pricing page (https://example.com/pricing).',
      );
      expect(middle).toMatch(/^ {2}\* Growth: five workspaces$/m);
      generator.open(0);
      await watching;
      expect(seen.length).toBeGreaterThan(3);
      for (const screen of seen) expect(screen).not.toMatch(/```|\*\*/);
      const content = serve.service.store.messages.get(threadId)!.at(-1)!.content;
      expect(content.startsWith(REPLY)).toBe(true);
      expect(replyOn(term.screen())).toBe(`${await rendered(content, 100)}\n`);
    },
    60_000,
  );

  itWith('tmux')(
    'Ctrl-C in a code block: what was drawn stays, the block is closed and [reply stopped] follows',
    async () => {
      const inCode = REPLY.indexOf('console.log');
      const { term, generator } = await chatWith(REPLY, [inCode]);
      await generator.reached(0);
      const before = replyOn(await term.waitFor("const plan = await kb.plans.get('growth');"));
      expect(before).not.toMatch(/```|\*\*|^# /m);
      expect(before).toMatch(/^ {2}\* Growth: five workspaces$/m);
      term.keys('C-c');
      const screen = await term.waitFor('the reply so far is kept in the thread, marked incomplete');
      const shown = replyOn(screen);
      expect(shown).toBe(`${await rendered(REPLY.slice(0, inCode), 100)}[reply stopped]\n\n`);
      expect(shown).not.toContain('```');
      await term.waitFor(/you › $/m);
    },
    60_000,
  );

  itWith('tmux')(
    'a resize mid-stream: what is drawn next is wrapped at the new width, nothing drawn twice',
    async () => {
      const first = `First ${'alpha beta gamma delta '.repeat(8)}end of the first.`;
      const second = `Second ${'one two three four five six '.repeat(8)}end of the second.`;
      const text = `${first}\n\n${second}\n\nDone.`;
      // Paused between the paragraphs: kb learns of a resize by a signal, which may be handled after
      // text that arrived with it, so the resize comes while nothing is being redrawn.
      const { term, generator } = await chatWith(text, [text.indexOf('Second'), text.indexOf('Done.')]);
      await generator.reached(0);
      await term.waitFor('the first.');
      // tmux has resized the terminal (and kb been signalled) when resize-window returns; kb
      // reads the new width when it handles the signal, which on a loaded machine may come after
      // text sent at once (a full CI run drew the second paragraph at the old width): the text
      // comes a moment later, as a person's resize and a model's next words do.
      term.resize(60);
      await new Promise((resolve) => setTimeout(resolve, 500));
      generator.open(0);
      await generator.reached(1);
      // The second paragraph, arriving after the resize, is drawn at the new width.
      const second60 = (await rendered(second, 60)).trimEnd();
      await term.waitFor(second60.split('\n').at(-1)!);
      expect(replyOn(term.screen())).toContain(second60);
      generator.open(1);
      const reply = replyOn(await term.waitFor(/^\d[\d.]*m?s · \d+ words?$/m, 20_000));
      // Nothing drawn twice.
      expect(reply.split('First alpha').length).toBe(2);
      expect(reply.split('Second one two').length).toBe(2);
      expect(reply).toContain(second60);
    },
    60_000,
  );

  itWith('tmux')(
    'a fence whose language is still arriving (```p of ```python) draws no highlighter warning',
    async () => {
      const text =
        'Code:\n\n```python\nprint(1)\n```\n\nA fence in `nosuchlang`:\n\n```nosuchlang\nx = 1\n```\n\nDone.';
      const { term, generator, serve, threadId } = await chatWith(text, [text.indexOf('```python') + 4]);
      await generator.reached(0);
      generator.open(0);
      const screen = await term.waitFor(/^\d[\d.]*m?s · \d+ words?$/m, 20_000);
      expect(screen).not.toContain('Could not find the language');
      const content = serve.service.store.messages.get(threadId)!.at(-1)!.content;
      expect(replyOn(screen)).toBe(`${await rendered(content, 100)}\n`);
    },
    60_000,
  );

  itWith('tmux')(
    'with NO_COLOR, the text as it arrives, as before',
    async () => {
      const { term, generator } = await chatWith(REPLY, [REPLY.indexOf('- Basic')], { NO_COLOR: '1' });
      await generator.reached(0);
      expect(replyOn(await term.waitFor('(https://example.com/pricing).'))).toContain(
        '# Plans and limits\n\nThe **Growth** plan',
      );
      generator.open(0);
    },
    60_000,
  );
});

describe('kb threads send --stream on a terminal draws the reply as Markdown (tmux)', () => {
  itWith('tmux')(
    'rendered as it arrives, and the end equals the whole render',
    async () => {
      const inTable = REPLY.indexOf('| Growth |');
      const { term, generator, serve, threadId } = await kbWith(REPLY, [inTable], (id) => [
        'threads',
        'send',
        id,
        QUESTION,
        '--stream',
      ]);
      await generator.reached(0);
      const middle = await term.waitFor('│ Basic');
      expect(middle).not.toMatch(/```|\*\*|^# /m);
      generator.open(0);
      const screen = await term.waitFor(/^exit=0$/m, 20_000);
      const content = serve.service.store.messages.get(threadId)!.at(-1)!.content;
      expect(screen.slice(0, screen.indexOf('exit=0'))).toBe(await rendered(content, 100));
    },
    60_000,
  );
  itWith('tmux')(
    'Ctrl-C in a code block: what was drawn stays, the block is closed and [reply stopped] follows, as in kb chat',
    async () => {
      const inCode = REPLY.indexOf('console.log');
      const { term, generator } = await kbWith(REPLY, [inCode], (id) => [
        'threads',
        'send',
        id,
        QUESTION,
        '--stream',
      ]);
      await generator.reached(0);
      await term.waitFor("const plan = await kb.plans.get('growth');");
      term.keys('C-c');
      const screen = await term.waitFor(/^exit=130$/m);
      const said = 'cancelled: the reply so far is kept in the thread, marked incomplete';
      expect(screen).toContain(said);
      expect(screen.slice(0, screen.indexOf(said))).toBe(
        `${await rendered(REPLY.slice(0, inCode), 100)}[reply stopped]\n\n`,
      );
    },
    60_000,
  );
});

describe('an escape sequence split across two pieces of a streamed reply is removed whole', () => {
  const text = 'Clear \u001b[2J the screen, retitle \u001b]0;title\u0007 it.\n\nThen **bold** after.';
  // The generator's pieces stop at each gate: just after each ESC.
  const gates = [text.indexOf('\u001b[') + 1, text.indexOf('\u001b]') + 1];
  const shown = 'Clear  the screen, retitle  it.';

  for (const [name, args, input] of [
    ['kb threads send --stream', (id: string) => ['threads', 'send', id, QUESTION, '--stream'], undefined],
    ['kb chat --stream', (id: string) => ['chat', id, '--stream'], `${QUESTION}\n`],
  ] as const)
    it(`${name}, piped`, async () => {
      const generator = await pacedGenerator(text, gates);
      cleanup.push(() => generator.server.close());
      generator.open(0);
      generator.open(1);
      const serve = await startTestServer({
        demo: true,
        generator: { baseUrl: generator.server.url, model: 'scripted' },
      });
      cleanup.push(() => serve.close());
      const id = (await api(serve, serve.keys.demo, 'POST', '/v1/threads', { title: 'split' })).json.data.id;
      const res = await runKb(args(id), {
        env: { KB_BASE_URL: serve.url, KB_API_KEY: serve.keys.demo! },
        input,
      });
      expect(res.stderr).toBe('');
      expect(res.code).toBe(0);
      expect(res.stdout).toMatch(new RegExp(`^${shown}\n\nThen \\*\\*bold\\*\\* after\\.`));
      expect(res.stdout).not.toMatch(/\[2J|\]0;title/);
    }, 60_000);

  for (const [name, args] of [
    ['kb chat', (id: string) => ['chat', id]],
    ['kb threads send --stream', (id: string) => ['threads', 'send', id, QUESTION, '--stream']],
  ] as const)
    itWith('tmux')(
      `${name} on a terminal, rendered`,
      async () => {
        const { term, generator, serve, threadId } = await kbWith(text, gates, args);
        if (name === 'kb chat') {
          await term.waitFor('you ›');
          term.keys(QUESTION, 'Enter');
        }
        await generator.reached(0);
        generator.open(0);
        await generator.reached(1);
        generator.open(1);
        const screen = await term.waitFor(
          name === 'kb chat' ? /^\d[\d.]*m?s · \d+ words?$/m : /^exit=0$/m,
          20_000,
        );
        expect(screen).toContain('Clear the screen, retitle it.');
        expect(screen).not.toMatch(/\[2J|\]0;title/);
        const content = serve.service.store.messages.get(threadId)!.at(-1)!.content;
        const whole = await rendered(content, 100);
        if (name === 'kb chat') expect(replyOn(screen)).toBe(`${whole}\n`);
        else expect(screen.slice(0, screen.indexOf('exit=0'))).toBe(whole);
      },
      60_000,
    );
});
