import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { baseEnv, runKb, tempDir } from '../helpers/cli.js';
import { kbInTmux } from '../helpers/tmux.js';
import { itWith } from '../helpers/tools.js';
import { api } from '../helpers/server.js';
import { type ServeProcess, startServeProcess } from '../helpers/serve-process.js';

describe('kb serve takes keys from the environment and a file, and warns about argv', () => {
  it('KB_SERVE_API_KEYS and --api-keys-file fix keys without a warning', async () => {
    const dir = tempDir();
    const file = join(dir, 'keys');
    writeFileSync(file, '# CI keys\nci:kb_from_file_0123\n\n', { mode: 0o600 });
    const server = await startServeProcess(dir, ['--api-keys-file', file], {
      KB_SERVE_API_KEYS: 'ci:kb_from_env_0123, other:kb_other_0123',
    });
    try {
      for (const key of ['kb_from_file_0123', 'kb_from_env_0123', 'kb_other_0123'])
        expect((await api(server, key, 'GET', '/v1/threads')).status).toBe(200);
      await new Promise((r) => setTimeout(r, 100));
      expect(server.stderr()).toBe('');
      // A key the user gave is theirs: not printed again where a log would keep it.
      const line = JSON.parse(server.stdout().split('\n')[0]!) as {
        workspaces: { name: string; key?: string }[];
      };
      expect(line.workspaces.map((w) => [w.name, w.key])).toEqual([
        ['ci', undefined],
        ['other', undefined],
      ]);
      expect(server.stdout()).not.toMatch(/kb_from_|kb_other_/);
    } finally {
      server.child.kill('SIGTERM');
    }
  });

  it('on a terminal, shows a key the user gave masked, and one it made in full', async () => {
    const dir = tempDir();
    const given = await startServeProcess(
      dir,
      [],
      { KB_SERVE_API_KEYS: 'ci:kb_from_env_9876' },
      { human: true },
    );
    try {
      await expect.poll(given.stdout).toMatch(/workspace ci .*\n/);
      expect(given.stdout()).toMatch(/workspace ci +ws_\S+ +key kb_…9876 \(as given\)\n/);
      expect(given.stdout() + given.stderr()).not.toContain('kb_from_env_9876');
      // What to do next is for a person at a terminal: piped, stdout is the data (a README
      // check found the hints in a piped kb serve's stdout).
      await new Promise((r) => setTimeout(r, 200));
      expect(given.stdout() + given.stderr()).not.toMatch(/Try:|Web console|kb threads list/);
    } finally {
      given.child.kill('SIGTERM');
    }
    const made = await startServeProcess(tempDir(), [], {}, { human: true });
    try {
      await expect.poll(made.stdout).toMatch(/workspace default .*\n/);
      expect(made.stdout()).toMatch(/workspace default +ws_\S+ +key kb_[0-9a-f]{48}\n/);
    } finally {
      made.child.kill('SIGTERM');
    }
  });

  it('--api-key still works, with a warning that ps shows it', async () => {
    const dir = tempDir();
    const server = await startServeProcess(dir, ['--api-key', 'ci:kb_in_argv_0123']);
    try {
      expect((await api(server, 'kb_in_argv_0123', 'GET', '/v1/threads')).status).toBe(200);
      await new Promise((r) => setTimeout(r, 100));
      expect(server.stderr()).toMatch(
        /^warning: --api-key puts the key where every user of this machine sees it \(ps\)/,
      );
    } finally {
      server.child.kill('SIGTERM');
    }
  });

  it('with --data, keeps keys hashed: a restart says a key was shown when it was made, and it still works', async () => {
    const dir = tempDir();
    const data = join(dir, 'state.db');
    const listing = async (server: ServeProcess) => {
      await expect.poll(server.stdout).toMatch(/workspace default .*\n/);
      return server.stdout();
    };
    const stop = async (server: ServeProcess) => {
      const exited = new Promise((r) => server.child.once('exit', r));
      server.child.kill('SIGTERM');
      await exited;
    };
    let server = await startServeProcess(dir, ['--data', data], {}, { human: true });
    const made = await listing(server);
    const key = /workspace default +ws_\S+ +key (kb_\S+)\n/.exec(made)![1]!;
    await stop(server);
    expect(readFileSync(data).includes(key)).toBe(false);

    server = await startServeProcess(dir, ['--data', data], {}, { human: true });
    try {
      const stdout = await listing(server);
      expect(stdout).toMatch(
        /workspace default +ws_\S+ +key \(shown when it was made; to fix one: KB_SERVE_API_KEYS=default:<key>\)\n/,
      );
      expect(stdout).not.toContain('kb_');
      expect((await api(server, key, 'GET', '/v1/threads')).status).toBe(200);
    } finally {
      await stop(server);
    }
    // A key given again is known: shown masked, the user has it.
    server = await startServeProcess(
      dir,
      ['--data', data],
      { KB_SERVE_API_KEYS: 'default:kb_given_0123' },
      { human: true },
    );
    try {
      expect(await listing(server)).toMatch(/workspace default +ws_\S+ +key kb_…0123 \(as given\)\n/);
    } finally {
      await stop(server);
    }
  });

  it('a blank KB_WEBHOOK_SECRET is refused by sign and verify (exit 2)', async () => {
    for (const args of [
      ['webhooks', 'sign'],
      ['webhooks', 'verify', '--header', 't=1,v1=00'],
    ]) {
      const res = await runKb(args, { env: { KB_WEBHOOK_SECRET: '   ' }, input: '{}' });
      expect(res.code).toBe(2);
      expect(res.stderr).toMatch(/^error: KB_WEBHOOK_SECRET is blank/);
    }
  });

  // On a terminal, what to try next: the export line names the key to use, the web console's
  // line whose key signs in ("a key above" only when one is shown in full: a restart with --data
  // keeps hashes, a README check).
  itWith('tmux')('on a terminal, says what to try next and with which key', async () => {
    const dir = tempDir();
    const data = join(dir, 'state.db');
    const vars = { ...baseEnv(dir), TERM: 'xterm-256color' };
    const shown = async (env: NodeJS.ProcessEnv) => {
      const term = kbInTmux(['serve', '--port', '0', '--data', data], env, { columns: 160, rows: 30 });
      try {
        return await term.waitFor('Web console');
      } finally {
        term.keys('C-c');
        await term.waitFor(/exit=\d+/);
        term.close();
      }
    };
    expect(await shown(vars)).toContain('(sign in with a key above; upload files there)');
    expect(await shown(vars)).toContain('(sign in with the workspace’s key; upload files there)');
    expect(await shown({ ...vars, KB_SERVE_API_KEYS: 'default:kb_given_0123' })).toContain(
      'KB_API_KEY=<the key you gave>',
    );
  });
});
