import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { itWith } from '../helpers/tools.js';
import type { RunningServer } from '../../src/server/index.js';
import { baseEnv, tempDir } from '../helpers/cli.js';
import { startTestServer } from '../helpers/server.js';
import { kbInTmux } from '../helpers/tmux.js';

let server: RunningServer;
beforeAll(async () => {
  server = await startTestServer({ demo: true, replyDelayMs: 0 });
});
afterAll(() => server.close());

const userMessages = () =>
  [...server.service.store.messages.values()]
    .flat()
    .filter((m) => m.role === 'user')
    .map((m) => m.content);

describe('chat history (tmux)', () => {
  itWith('tmux')('two REPLs at once keep each other’s entries, whichever leaves last', async () => {
    const configDir = tempDir();
    const vars = {
      ...baseEnv(configDir),
      TERM: 'xterm-256color',
      KB_BASE_URL: server.url,
      KB_API_KEY: server.keys.demo!,
    };
    const a = kbInTmux(['chat'], vars);
    const b = kbInTmux(['chat'], vars);
    try {
      await a.waitFor('you ›');
      await b.waitFor('you ›');
      for (const [term, text] of [
        [a, 'alpha one'],
        [b, 'bravo one'],
        [a, 'alpha two'],
      ] as const) {
        term.keys(text, 'Enter');
        // The reply is complete and the prompt is back (the size line comes last).
        await term.waitFor(new RegExp(`${text}[^]*Assistant[^]* words?\\nyou › $`, 'm'));
      }
      b.keys('C-d');
      await b.waitFor('exit=0');
      a.keys('C-d');
      await a.waitFor('exit=0');
      const stored = readFileSync(join(configDir, 'history', 'chat-default'), 'utf8')
        .trimEnd()
        .split('\n');
      expect(stored.sort()).toEqual(['alpha one', 'alpha two', 'bravo one']);
    } finally {
      a.close();
      b.close();
    }
  });

  itWith('tmux')('Up recalls a multi-line message whole, and sends it whole again', async () => {
    const configDir = tempDir();
    const vars = {
      ...baseEnv(configDir),
      TERM: 'xterm-256color',
      KB_BASE_URL: server.url,
      KB_API_KEY: server.keys.demo!,
    };
    const term = kbInTmux(['chat'], vars);
    try {
      await term.waitFor('you ›');
      term.keys('first line of three\\', 'Enter');
      term.keys('second line\\', 'Enter');
      term.keys('third line', 'Enter');
      await term.waitFor(/third line[^]*couldn't find anything[^]*\nyou › $/m);
      term.keys('Up');
      // (Node 24's readline marks the continuation lines of a multi-line entry with "| ".)
      await term.waitFor(/you › first line of three\n(\| )?second line\n(\| )?third line\s*$/);
      term.keys('Enter');
      const message = 'first line of three\nsecond line\nthird line';
      const end = Date.now() + 10_000;
      while (userMessages().filter((m) => m === message).length < 2 && Date.now() < end)
        await new Promise((r) => setTimeout(r, 100));
      expect(userMessages().filter((m) => m === message)).toHaveLength(2);
    } finally {
      term.close();
    }
  });
});
