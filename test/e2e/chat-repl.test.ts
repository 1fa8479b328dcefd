import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import type { RunningServer } from '../../src/server/index.js';
import { baseEnv, tempDir } from '../helpers/cli.js';
import { hostileServer, send } from '../helpers/hostile.js';
import { api, startTestServer } from '../helpers/server.js';
import { kbCommand, kbInTmux, shellInTmux } from '../helpers/tmux.js';
import { itWith } from '../helpers/tools.js';

/** A reply finished (rendered in place of what streamed) and the prompt is back. */
const REPLIED = /(Sources:|couldn't find anything)[^]*\nyou › $/m;

let server: RunningServer;
let slow: RunningServer;
beforeAll(async () => {
  server = await startTestServer({ demo: true, replyDelayMs: 0 });
  slow = await startTestServer({ demo: true, replyDelayMs: 1200 });
});
afterAll(async () => {
  await server.close();
  await slow.close();
});

const varsFor = (s: { url: string; keys: Record<string, string> }, extra: NodeJS.ProcessEnv = {}) => ({
  ...baseEnv(tempDir()),
  TERM: 'xterm-256color',
  KB_BASE_URL: s.url,
  KB_API_KEY: s.keys.demo!,
  ...extra,
});
const userMessages = (s: RunningServer) =>
  [...s.service.store.messages.values()].flat().filter((m) => m.role === 'user');
const completeReplies = (s: RunningServer) =>
  [...s.service.store.messages.values()].flat().filter((m) => m.role === 'assistant' && !m.incomplete).length;
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('kb chat in a real terminal (tmux)', () => {
  itWith('tmux')(
    '/retry never re-sends into another thread, and is offered only where it can help',
    async () => {
      const key = server.keys.demo!;
      const other = (await api(server, key, 'POST', '/v1/threads', { title: 'other thread' })).json.data;
      const term = kbInTmux(['chat'], varsFor(server));
      try {
        await term.waitFor('you ›');
        // Replies stream (a generation is started) where the service can.
        await api(server, key, 'POST', '/_kb/faults', { rules: ['POST /v1/threads/*/generations 503 x3'] });
        term.keys('first try', 'Enter');
        await term.waitFor('Type /retry to send it again.');
        term.keys('/new', 'Enter');
        await term.waitFor('New conversation');
        term.keys('/retry', 'Enter');
        await term.waitFor('nothing to retry yet');
        term.keys('again after new', 'Enter');
        await term.waitFor(/again after new[^]*Type \/retry/);
        term.keys(`/switch ${other.id}`, 'Enter');
        await term.waitFor('other thread');
        term.keys('/retry', 'Enter');
        await wait(300);
        expect(term.screen().split('nothing to retry yet').length - 1).toBe(2);
        await api(server, key, 'DELETE', '/_kb/faults');
        expect(userMessages(server).filter((m) => m.threadId === other.id)).toEqual([]);

        // A closed thread: retrying cannot help, so it is not offered.
        await api(server, key, 'PATCH', `/v1/threads/${other.id}`, { status: 'CLOSED' });
        const before = term.screen().split('Type /retry').length;
        term.keys('into a closed thread', 'Enter');
        await term.waitFor('only OPEN threads accept messages');
        await wait(200);
        expect(term.screen().split('Type /retry').length).toBe(before);
        // And /retry says what it sends.
        await api(server, key, 'PATCH', `/v1/threads/${other.id}`, { status: 'OPEN' });
        term.keys('/retry', 'Enter');
        await term.waitFor(/Sending again: into a closed thread[^]*Assistant/);
      } finally {
        term.close();
      }
    },
  );

  itWith('tmux')('wraps replies at the width of the moment: narrower, then wider', async () => {
    const term = kbInTmux(['chat'], varsFor(server), { columns: 100, rows: 50 });
    const widest = (text: string) => Math.max(...text.split('\n').map((l) => l.length));
    try {
      await term.waitFor('you ›');
      term.resize(50);
      await wait(200);
      term.keys('How much is the Growth plan?', 'Enter');
      const narrow = await term.waitFor(REPLIED);
      expect(widest(narrow.slice(narrow.indexOf('Assistant')))).toBeLessThanOrEqual(50);
      term.keys('C-l');
      term.resize(120);
      await wait(200);
      term.keys('/exit', 'Enter');
      await term.waitFor('exit=0');
    } finally {
      term.close();
    }
    const wide = kbInTmux(['chat'], varsFor(server), { columns: 50, rows: 50 });
    try {
      await wide.waitFor('you ›');
      wide.resize(120);
      await wait(200);
      wide.keys('How much is the Growth plan?', 'Enter');
      const screen = await wide.waitFor(REPLIED);
      expect(widest(screen.slice(screen.indexOf('Assistant')))).toBeGreaterThan(50);
    } finally {
      wide.close();
    }
  });

  itWith('tmux')('a reply resized while it is being written ends up wrapped at the new width', async () => {
    const streaming = await startTestServer({ demo: true, streamDelayMs: 30 });
    const term = kbInTmux(['chat'], varsFor(streaming), { columns: 100, rows: 50 });
    const widest = (text: string) => Math.max(...text.split('\n').map((l) => l.length));
    try {
      await term.waitFor('you ›');
      term.keys('How much is the Growth plan?', 'Enter');
      await term.waitFor(/Assistant\nThe Growth/);
      term.resize(50);
      const screen = await term.waitFor(REPLIED, 15_000);
      const reply = screen.slice(screen.lastIndexOf('Assistant'));
      expect(widest(reply)).toBeLessThanOrEqual(50);
      // Whole, once: the streamed text was replaced by the rendered reply, not left beside it.
      expect(screen.split('Sources: [pricing.md]').length - 1).toBe(1);
    } finally {
      term.close();
      await streaming.close();
    }
  });

  itWith('tmux')(
    'keeps what is typed while a reply is pending off the reply, and sends it after, in order',
    async () => {
      const term = kbInTmux(['chat'], varsFor(slow));
      try {
        await term.waitFor('you ›');
        term.keys('What does error E-4102 mean?', 'Enter');
        await term.waitFor('Thinking');
        term.keys('How much is the Growth plan?', 'Enter');
        await wait(300);
        // Not drawn while the first reply is pending: no "queued" line, no echo inside the reply.
        expect(term.screen()).not.toContain('Growth plan?');
        const screen = await term.waitFor(
          /you › How much is the Growth plan\?\n[^]*Assistant[^]*Sources[^]*\nyou › $/m,
          15_000,
        );
        // Two assistant blocks, each after its own `you ›` line.
        const order = screen.match(/you › [^\n]+|Assistant/g)!;
        expect(order.slice(-4)).toEqual([
          'you › What does error E-4102 mean?',
          'Assistant',
          'you › How much is the Growth plan?',
          'Assistant',
        ]);
        const sent = userMessages(slow).map((m) => m.content);
        expect(sent.slice(-2)).toEqual(['What does error E-4102 mean?', 'How much is the Growth plan?']);
      } finally {
        term.close();
      }
    },
  );

  itWith('tmux')(
    'text typed while a reply streams stays on the input line below it; Ctrl-R waits for the prompt',
    async () => {
      const streaming = await startTestServer({ demo: true, replyDelayMs: 300, streamDelayMs: 60 });
      const term = kbInTmux(['chat'], varsFor(streaming));
      try {
        await term.waitFor('you ›');
        term.keys('How much is the Growth plan?', 'Enter');
        await term.waitFor(/Assistant\n\S+/);
        term.keys('-l', 'QQZX typed early');
        term.keys('C-r');
        await wait(200);
        const during = term.screen();
        expect(during).not.toContain('QQZX');
        expect(during).not.toContain('reverse-i-search');
        const after = await term.waitFor(/Sources: \[pricing\.md\][^]*\nyou › QQZX typed early$/m, 15_000);
        expect(after.split('QQZX')).toHaveLength(2);
        expect(after).toMatch(/29 dollars per agent per month/);
        // The typed text is an ordinary input line: sent with Enter.
        term.keys('Enter');
        await term.waitFor(/you › QQZX typed early\n[^]*Assistant/, 15_000);
      } finally {
        term.close();
        await streaming.close();
      }
    },
    60_000,
  );

  itWith('tmux')(
    'Ctrl-C right after Enter stops that reply: nothing prints later, and kb asks nothing about leaving',
    async () => {
      const term = kbInTmux(['chat'], varsFor(slow));
      try {
        await term.waitFor('you ›');
        const before = userMessages(slow).length;
        const repliesBefore = completeReplies(slow);
        // Enter and Ctrl-C in one read, as a fast typist's keys arrive.
        term.keys('What does error E-4102 mean?', 'Enter', 'C-c');
        await term.waitFor(/Cancelled[^\n]*\n(?:[^\n]*\n)*you › $/m);
        await wait(2500); // past the reply delay: a reply still being written would print by now
        const screen = term.screen();
        expect(screen).not.toContain('To leave');
        expect(screen).not.toContain('IMAP');
        expect(screen).not.toContain('Assistant');
        expect(screen).toMatch(/\nyou › $/m);
        // Nothing was sent, or what was sent was stopped: never a complete reply stored.
        expect(userMessages(slow).length - before).toBeLessThanOrEqual(1);
        expect(completeReplies(slow)).toBe(repliesBefore);
      } finally {
        term.close();
      }
    },
  );

  itWith('tmux')(
    'Up after sending a recalled message recalls that message again, not the one before',
    async () => {
      const term = kbInTmux(['chat'], varsFor(server));
      try {
        await term.waitFor('you ›');
        // Each reply is waited for where it is stored, not only on the screen: the screen still
        // holds the last reply and its prompt when the next Enter is pressed, and a key sent while
        // a reply is being written is typed ahead (a loaded CI run recalled the one before).
        const replied = async (replies: number) => {
          await expect.poll(() => completeReplies(server), { timeout: 15_000 }).toBe(replies);
          await term.waitFor(REPLIED, 15_000);
        };
        const replies = completeReplies(server);
        for (const [i, question] of [
          'How much is the Growth plan?',
          'What does error E-4102 mean?',
        ].entries()) {
          term.keys('-l', question);
          term.keys('Enter');
          await replied(replies + i + 1);
        }
        const before = userMessages(server).length;
        for (let i = 0; i < 2; i++) {
          term.keys('Up', 'Enter');
          await expect.poll(() => userMessages(server).length, { timeout: 15_000 }).toBe(before + i + 1);
          await replied(replies + 3 + i);
        }
        expect(
          userMessages(server)
            .slice(-2)
            .map((m) => m.content),
        ).toEqual(['What does error E-4102 mean?', 'What does error E-4102 mean?']);
      } finally {
        term.close();
      }
    },
  );

  itWith('tmux')('draws no colour with NO_COLOR or `color never`, spinner and replies included', async () => {
    const configDir = tempDir();
    writeConfig(configDir, { settings: { color: 'never' } });
    for (const vars of [varsFor(slow, { NO_COLOR: '1' }), { ...varsFor(slow), KB_CONFIG_DIR: configDir }]) {
      const term = kbInTmux(['chat'], vars);
      try {
        await term.waitFor('you ›');
        term.keys('How much is the Growth plan?', 'Enter');
        await term.waitFor('Thinking');
        const spinning = term.screen(true);
        await term.waitFor(REPLIED, 15_000);
        const done = term.screen(true);
        // tmux draws each colour or attribute kb asked for as an SGR sequence.
        expect(spinning).not.toMatch(/\u001b\[[0-9;]*m/);
        expect(done).not.toMatch(/\u001b\[[0-9;]*m/);
      } finally {
        term.close();
      }
    }
    // And with colour allowed there is some (the check above can fail).
    const coloured = kbInTmux(['chat'], varsFor(server));
    try {
      await coloured.waitFor('you ›');
      expect(coloured.screen(true)).toMatch(/\u001b\[[0-9;]*m/);
    } finally {
      coloured.close();
    }
  });

  itWith('tmux')('renders bold inside a list item, and a blockquote with a bar', async () => {
    const createdAt = '2026-11-22T10:00:00Z';
    const message = (role: string, content: string) => ({ id: `m_${role}`, role, content, createdAt });
    const scripted = await hostileServer({
      'POST /v1/threads': send(
        201,
        JSON.stringify({ data: { id: 'thr_md', title: 'md', status: 'OPEN', createdAt } }),
      ),
      'POST /v1/threads/thr_md/messages': send(
        201,
        JSON.stringify({
          data: {
            userMessage: message('user', 'plans?'),
            aiResponse: message('assistant', '* Growth: **29 dollars** per *agent*\n\n> Billed monthly.\n'),
          },
        }),
      ),
    });
    const term = kbInTmux(['chat'], { ...varsFor(server), KB_BASE_URL: scripted.url });
    try {
      await term.waitFor('you ›');
      term.keys('plans?', 'Enter');
      const screen = await term.waitFor('Billed monthly.');
      expect(screen).toMatch(/\* Growth: 29 dollars per agent/);
      expect(screen).not.toContain('**');
      expect(screen).toMatch(/│ Billed monthly\./);
    } finally {
      term.close();
      await scripted.close();
    }
  });

  /**
   * kb chat started by `command` in a shell with job control: Ctrl-Z stops it, fg resumes it, a
   * question is answered, /exit leaves; then `ended` is shown.
   */
  async function suspendAndResume(command: string, ended: string | RegExp, after?: string) {
    const shell = shellInTmux(varsFor(server));
    try {
      await shell.waitFor('$ ');
      shell.keys(command, 'Enter');
      await shell.waitFor('you ›');
      shell.keys('C-z');
      await shell.waitFor(/Stopped/);
      shell.keys('fg', 'Enter');
      await wait(300);
      shell.keys('How much is the Growth plan?', 'Enter');
      await shell.waitFor(REPLIED);
      shell.keys('/exit', 'Enter');
      await shell.waitFor(ended);
      if (after) {
        shell.keys(after, 'Enter');
        await shell.waitFor('exit=0');
      }
    } finally {
      shell.close();
    }
  }

  itWith('tmux')('survives Ctrl-Z and fg', async () => {
    await suspendAndResume(kbCommand(['chat']), /Resume this conversation with[^]*\$ $/m, 'echo "exit=$?"');
  });

  // A README check as a new user: under `npx kb chat` (npm, then a shell, then kb) Ctrl-Z stopped
  // kb alone; npm and the shell kept the terminal, and the user's shell gave no prompt back.
  itWith('tmux')(
    'survives Ctrl-Z and fg under the programs that started it (npx: npm and a shell)',
    async () => {
      await suspendAndResume(`sh -c '${kbCommand(['chat'])}; echo inner-exit=$?'`, 'inner-exit=0');
    },
  );

  itWith('tmux')('-c continues the thread used last, not the one created last', async () => {
    const key = server.keys.demo!;
    const vars = varsFor(server);
    const older = (await api(server, key, 'POST', '/v1/threads', { title: 'older but used' })).json.data;
    await api(server, key, 'POST', '/v1/threads', { title: 'newer, unused' });
    const first = kbInTmux(['chat', older.id], vars);
    try {
      await first.waitFor('you ›');
      first.keys('Which certifications?', 'Enter');
      await first.waitFor(REPLIED);
      first.keys('C-d');
      await first.waitFor('exit=0');
    } finally {
      first.close();
    }
    const again = kbInTmux(['chat', '-c'], vars);
    try {
      const screen = await again.waitFor('you ›');
      expect(screen).toContain('older but used');
      expect(screen).not.toContain('newer, unused');
    } finally {
      again.close();
    }
  });
});

describe('kb chat: what a daily user trips on (tmux)', () => {
  itWith('tmux')('wraps /help and the greeting to a narrow terminal, at word boundaries', async () => {
    const term = kbInTmux(['chat'], varsFor(server), { columns: 44, rows: 60 });
    try {
      await term.waitFor('you ›');
      term.keys('/help', 'Enter');
      const screen = await term.waitFor('/exit leaves.');
      const lines = screen.split('\n');
      expect(Math.max(...lines.map((l) => l.length))).toBeLessThanOrEqual(44);
      // No word is cut across lines ("one m / essage").
      expect(screen).toContain('documents. /help for');
      expect(screen).not.toMatch(/\bm\n\s*essage/);
    } finally {
      term.close();
    }
  });

  itWith('tmux')('says at once that the key is refused, before any message', async () => {
    const term = kbInTmux(['chat'], { ...varsFor(server), KB_API_KEY: 'kb_wrong_key_0000' });
    try {
      // The prompt is drawn again after the hint: wait for it, not only for the hint.
      const screen = await term.waitFor(/error: .*\n.*hint: run `kb auth login`[\s\S]*you ›/);
      expect(screen).toMatch(/error: the API key is not valid\n/);
    } finally {
      term.close();
    }
  });

  itWith('tmux')('the demo ends with Ctrl-D without a dangling resume line', async () => {
    const term = kbInTmux(['demo'], { ...varsFor(server) });
    try {
      const greeting = await term.waitFor('you ›', 20_000);
      // Its refusals point to kb search and kb files list: the greeting says how they reach it.
      expect(greeting).toMatch(/\nexport KB_BASE_URL=http:\/\/127\.0\.0\.1:\d+\nexport KB_API_KEY=kb_\w+\n/);
      term.keys('How much is the Growth plan?', 'Enter');
      await term.waitFor(REPLIED);
      term.keys('C-d');
      const screen = await term.waitFor('exit=0');
      expect(screen).not.toContain('Resume this conversation');
    } finally {
      term.close();
    }
  });

  itWith('tmux')('`kb chat | cat` says how it reads, since no prompt can be shown', async () => {
    const shell = shellInTmux(varsFor(server));
    try {
      await shell.waitFor('$ ');
      shell.keys(`${kbCommand(['chat'])} | cat`, 'Enter');
      await shell.waitFor('stdout is not a terminal: type one message per line');
      shell.keys('How much is the Growth plan?', 'Enter');
      await shell.waitFor(/29 dollars/);
      shell.keys('C-d');
    } finally {
      shell.close();
    }
  });
});

function writeConfig(dir: string, data: unknown) {
  writeFileSync(join(dir, 'config.json'), JSON.stringify(data), { mode: 0o600 });
}
