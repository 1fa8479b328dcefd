import { spawn } from 'node:child_process';
import { chmodSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server/index.js';
import { ROOT, runKb, tempDir } from '../helpers/cli.js';
import { startTestServer } from '../helpers/server.js';

let server: RunningServer;
beforeAll(async () => {
  server = await startTestServer({ demo: true, allowLocalWebhooks: true });
});
afterAll(() => server.close());

const config = (dir: string) => JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));

/** Node processes that each apply `rounds` changes through kb's own config writer, all at once. */
function writers(dir: string, count: number, rounds: number): Promise<(number | null)[]> {
  const write = pathToFileURL(join(ROOT, 'dist/config/write.js')).href;
  const script = `
    const { updateConfig } = await import(${JSON.stringify(write)});
    const me = process.argv[1];
    for (let r = 0; r < ${rounds}; r++)
      await updateConfig(process.argv[2], (d) => { d.profiles[me + '-' + r] = { baseUrl: 'https://kb.example/' + me }; });
  `;
  return Promise.all(
    Array.from(
      { length: count },
      (_, i) =>
        new Promise<number | null>((resolve) => {
          const child = spawn(process.execPath, ['--input-type=module', '-e', script, `w${i}`, dir], {
            stdio: 'inherit',
          });
          child.on('close', resolve);
        }),
    ),
  );
}

describe('parallel config writers lose nothing', () => {
  it('20 writers x 10 rounds: every change is there', async () => {
    const dir = tempDir();
    expect(await writers(dir, 20, 10)).toEqual(Array(20).fill(0));
    const names = Object.keys(config(dir).profiles);
    expect(names).toHaveLength(200);
    expect(statSync(join(dir, 'config.json')).mode & 0o777).toBe(0o600);
  }, 60_000);

  it('12 parallel `kb webhooks create --save-secret` save 12 secrets; 4 parallel `kb config set` keep all 4', async () => {
    const dir = tempDir();
    const env = { KB_BASE_URL: server.url, KB_API_KEY: server.keys.demo! };
    const created = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        runKb(
          [
            'webhooks',
            'create',
            '--url',
            `https://hooks.example.com/${i}`,
            '--event',
            'file.indexed',
            '--save-secret',
            '--ids',
          ],
          {
            env,
            configDir: dir,
          },
        ),
      ),
    );
    expect(created.map((r) => r.code)).toEqual(Array(12).fill(0));
    const saved = config(dir).profiles.default.webhookSecrets;
    expect(Object.keys(saved).sort()).toEqual(created.map((r) => r.stdout.trim()).sort());

    const sets = await Promise.all(
      [
        ['format', 'json'],
        ['color', 'never'],
        ['timeout', '2m'],
        ['retries', '4'],
      ].map(([k, v]) => runKb(['config', 'set', k!, v!], { configDir: dir })),
    );
    expect(sets.map((r) => r.code)).toEqual([0, 0, 0, 0]);
    expect(config(dir).settings).toEqual({ format: 'json', color: 'never', timeout: '2m', retries: 4 });
  }, 60_000);
});

describe('the config file is never followed through a link, and names are checked', () => {
  it('refuses a symlinked config file or directory, leaving the target untouched', async () => {
    const dir = tempDir();
    const target = join(tempDir(), 'elsewhere.json');
    writeFileSync(target, '{}');
    chmodSync(target, 0o644);
    symlinkSync(target, join(dir, 'config.json'));
    const res = await runKb(['config', 'set', 'format', 'json'], { configDir: dir });
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/^error: config file .* is a symbolic link; kb does not follow links there/);
    expect(readFileSync(target, 'utf8')).toBe('{}');
    expect(statSync(target).mode & 0o777).toBe(0o644);

    const linkedDir = join(tempDir(), 'kb');
    symlinkSync(tempDir(), linkedDir);
    expect((await runKb(['config', 'set', 'format', 'json'], { configDir: linkedDir })).stderr).toMatch(
      /config directory .* is a symbolic link/,
    );
  });

  it('refuses prototype names for settings and profiles with a usage error', async () => {
    const dir = tempDir();
    for (const args of [
      ['config', 'get', 'constructor'],
      ['config', 'set', '__proto__', 'x'],
      ['config', 'get', 'toString'],
      ['auth', 'status', '--profile', '__proto__'],
      ['auth', 'status', '--profile', 'constructor'],
    ]) {
      const res = await runKb(args, { configDir: dir });
      expect(res.code, args.join(' ')).toBe(2);
      expect(res.stderr).toMatch(/^error: (unknown setting|invalid profile name)/);
      expect(res.stderr).not.toMatch(/TypeError|function Object/);
    }
    const login = await runKb(
      ['auth', 'login', '--profile', '__proto__', '--with-key', '--base-url', server.url],
      {
        configDir: dir,
        input: server.keys.demo!,
      },
    );
    expect(login.code).toBe(2);
  });
});
