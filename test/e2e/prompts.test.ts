import { afterAll, beforeAll, describe, expect } from 'vitest';
import { itWith } from '../helpers/tools.js';
import type { RunningServer } from '../../src/server/index.js';
import { baseEnv, tempDir } from '../helpers/cli.js';
import { api, startTestServer } from '../helpers/server.js';
import { kbInTmux } from '../helpers/tmux.js';

let server: RunningServer;
let vars: NodeJS.ProcessEnv;

beforeAll(async () => {
  server = await startTestServer({ demo: true, replyDelayMs: 0 });
  vars = {
    ...baseEnv(tempDir()),
    TERM: 'xterm-256color',
    KB_BASE_URL: server.url,
    KB_API_KEY: server.keys.demo!,
  };
});
afterAll(() => server.close());

/** Ctrl-C (or Ctrl-D) at a prompt: exit 130, a newline, and none of the prompt library's own text. */
async function cancelAt(args: string[], prompt: RegExp, env: NodeJS.ProcessEnv = vars, key = 'C-c') {
  const term = kbInTmux(args, env);
  try {
    await term.waitFor(prompt);
    term.keys(key);
    const screen = await term.waitFor(/exit=\d+/);
    expect(screen).toContain('exit=130');
    expect(screen).not.toMatch(/force closed|SIGINT|ExitPromptError|error:/);
    // Nor the prompt's key help (a password's "ctrl+t toggle visibility", a checkbox's keys).
    expect(screen).not.toMatch(/toggle visibility|navigate|⏎/);
    return screen;
  } finally {
    term.close();
  }
}

describe('Ctrl-C at any prompt exits 130 quietly (tmux)', () => {
  itWith('tmux')('the delete confirmation, and nothing is deleted', async () => {
    const files = (await api(server, server.keys.demo, 'GET', '/v1/files')).json.data;
    await cancelAt(['files', 'delete', files[0].id], /Delete this file\?/);
    expect((await api(server, server.keys.demo, 'GET', `/v1/files/${files[0].id}`)).status).toBe(200);
  });

  itWith('tmux')('the webhook event checkbox', async () => {
    await cancelAt(['webhooks', 'create', '--url', 'https://hooks.example.com/kb'], /Which events\?/);
  });

  itWith('tmux')('the login key prompt, and nothing is saved', async () => {
    const { KB_API_KEY: _, ...noKey } = vars;
    await cancelAt(['auth', 'login', '--base-url', server.url], /API key:/, noKey);
  });
});

// A README check as a new user: Ctrl-D at a prompt ended kb with exit 0 and nothing done, so
// `kb files delete X && …` went on as if the file were deleted.
describe('Ctrl-D at a prompt cancels it as Ctrl-C does (tmux)', () => {
  itWith('tmux')('the delete confirmation, and nothing is deleted', async () => {
    const files = (await api(server, server.keys.demo, 'GET', '/v1/files')).json.data;
    await cancelAt(['files', 'delete', files[0].id], /Delete this file\?/, vars, 'C-d');
    expect((await api(server, server.keys.demo, 'GET', `/v1/files/${files[0].id}`)).status).toBe(200);
  });

  itWith('tmux')('the login key prompt, and nothing is saved', async () => {
    const { KB_API_KEY: _, ...noKey } = vars;
    await cancelAt(['auth', 'login', '--base-url', server.url], /API key:/, noKey, 'C-d');
  });
});

describe('the /threads picker in kb chat (tmux)', () => {
  itWith('tmux')('goes back to the chat prompt on Esc and on Ctrl-C', async () => {
    await api(server, server.keys.demo, 'POST', '/v1/threads', { title: 'picker target' });
    const term = kbInTmux(['chat'], vars);
    try {
      await term.waitFor('you ›');
      const pickers = () => term.screen().split('Continue which thread?').length - 1;
      for (const key of ['Escape', 'C-c']) {
        const before = pickers();
        term.keys('/threads', 'Enter');
        await term.waitFor(/Continue which thread\?[^]*picker target/);
        while (pickers() === before) await new Promise((r) => setTimeout(r, 50));
        term.keys(key);
        await term.waitFor(/you › $/m);
      }
      term.keys('/exit', 'Enter');
      const screen = await term.waitFor(/exit=\d+/);
      expect(screen).toContain('exit=0');
      expect(screen).not.toMatch(/force closed|AbortPromptError|error:/);
    } finally {
      term.close();
    }
  });
});
