import { chmodSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { itWith } from '../helpers/tools.js';
import { resolveAuth } from '../../src/config/resolve.js';
import type { RunningServer } from '../../src/server/index.js';
import { runKb, runKbOnTTY, stripAnsi, tempDir } from '../helpers/cli.js';
import { startTestServer } from '../helpers/server.js';

const CANARY = 'kb_canary_7f3a9c2e5b1d4f6a8c0e2b4d6f8a1c3e';
let server: RunningServer;

beforeAll(async () => {
  server = await startTestServer({ apiKeys: [`main:${CANARY}`, 'other:kb_other_key_000000000000'] });
});
afterAll(() => server.close());

function login(configDir: string, key = CANARY, extra: string[] = []) {
  return runKb(['auth', 'login', '--with-key', '--base-url', server.url, ...extra], {
    configDir,
    input: `${key}\n`,
  });
}

describe('precedence', () => {
  const config = {
    currentProfile: 'work',
    profiles: {
      work: { baseUrl: 'https://work.example', apiKey: 'kb_work' },
      home: { baseUrl: 'https://home.example', apiKey: 'kb_home' },
    },
    settings: {},
  };
  it('takes flag > env > profile > none', () => {
    expect(resolveAuth({}, {}, config)).toMatchObject({
      profile: 'work',
      baseUrl: 'https://work.example',
      apiKey: 'kb_work',
      apiKeySource: 'profile',
    });
    expect(resolveAuth({}, { KB_PROFILE: 'home' }, config)).toMatchObject({
      profile: 'home',
      apiKey: 'kb_home',
    });
    expect(resolveAuth({ profile: 'work' }, { KB_PROFILE: 'home' }, config)).toMatchObject({
      profile: 'work',
    });
    expect(
      resolveAuth({}, { KB_API_KEY: 'kb_env', KB_BASE_URL: 'https://env.example' }, config),
    ).toMatchObject({
      apiKey: 'kb_env',
      apiKeySource: 'env',
      baseUrl: 'https://env.example',
      baseUrlSource: 'env',
    });
    expect(
      resolveAuth({ baseUrl: 'https://flag.example' }, { KB_BASE_URL: 'https://env.example' }, config)
        .baseUrl,
    ).toBe('https://flag.example');
    expect(resolveAuth({}, {}, { profiles: {}, settings: {} })).toMatchObject({
      profile: 'default',
      apiKey: undefined,
      baseUrlSource: 'none',
    });
  });
});

describe('kb auth', () => {
  it('logs in from stdin, stores the key 0600 in a 0700 dir, and never prints it', async () => {
    const dir = tempDir();
    const res = await login(dir, CANARY, ['--debug']);
    expect(res.code).toBe(0);
    expect(res.stdout).toBe('');
    expect(res.stdout + res.stderr).not.toContain(CANARY);
    expect(res.stderr).toContain('[debug] --> GET');
    const file = join(dir, 'config.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    const stored = JSON.parse(readFileSync(file, 'utf8'));
    expect(stored).toMatchObject({
      currentProfile: 'default',
      profiles: { default: { baseUrl: server.url, apiKey: CANARY } },
    });

    const status = await runKb(['auth', 'status'], { configDir: dir });
    expect(status.code).toBe(0);
    expect(status.stdout).toContain('kb_…1c3e');
    expect(status.stdout).toContain('valid');
    expect(status.stdout + status.stderr).not.toContain(CANARY);

    const json = JSON.parse((await runKb(['auth', 'status', '--json'], { configDir: dir })).stdout);
    expect(json).toMatchObject({ profile: 'default', valid: true, apiKey: 'kb_…1c3e' });

    const token = await runKb(['auth', 'token'], { configDir: dir });
    expect(token.stdout).toBe(`${CANARY}\n`);

    const out = await runKb(['auth', 'logout'], { configDir: dir });
    expect(out.code).toBe(0);
    // Confirmations are for a person at a terminal: a script sees nothing.
    expect(out.stderr).toBe('');
    expect((await login(tempDir(), CANARY)).stderr).toBe('');
    const after = await runKb(['auth', 'status'], { configDir: dir });
    expect(after.code).toBe(4);
    expect(JSON.parse(readFileSync(file, 'utf8')).profiles.default.apiKey).toBeUndefined();
  });

  it('refuses a key the service rejects, saving nothing (exit 4)', async () => {
    const dir = tempDir();
    const res = await login(dir, 'kb_wrong_key');
    expect(res.code).toBe(4);
    expect(res.stderr).toMatch(/^error: the service at .* refused this API key; nothing was saved\n$/);
    expect(() => statSync(join(dir, 'config.json'))).toThrow();
  });

  it('needs --with-key or a terminal, and never takes the key as an argument', async () => {
    const dir = tempDir();
    const res = await runKb(['auth', 'login', '--base-url', server.url], { configDir: dir });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('no terminal to ask for the API key');
    const argv = await runKb(['auth', 'login', '--base-url', server.url, '--api-key', CANARY], {
      configDir: dir,
    });
    expect(argv.code).toBe(2);
    expect(argv.stderr).toContain("unknown option '--api-key'");
  });

  itWith('script')('asks for the key with hidden input on a terminal', async () => {
    const dir = tempDir();
    const res = await runKbOnTTY(['auth', 'login', '--base-url', server.url], {
      configDir: dir,
      onSpawn: (child) => setTimeout(() => child.stdin!.write(`${CANARY}\r`), 1500),
    });
    expect(res.code).toBe(0);
    const screen = stripAnsi(res.stdout);
    expect(screen).toContain('API key');
    expect(screen).not.toContain(CANARY);
    expect(screen).toContain('Logged in');
  });

  it('keeps profiles apart and switches between them', async () => {
    const dir = tempDir();
    await login(dir);
    await login(dir, 'kb_other_key_000000000000', ['--profile', 'other']);
    let status = JSON.parse((await runKb(['auth', 'status', '--json'], { configDir: dir })).stdout);
    expect(status.profile).toBe('other');
    expect((await runKb(['auth', 'switch', 'default'], { configDir: dir })).code).toBe(0);
    status = JSON.parse((await runKb(['auth', 'status', '--json'], { configDir: dir })).stdout);
    expect(status.profile).toBe('default');
    const env = JSON.parse(
      (await runKb(['auth', 'status', '--json'], { configDir: dir, env: { KB_PROFILE: 'other' } })).stdout,
    );
    expect(env.profile).toBe('other');
    const missing = await runKb(['auth', 'switch', 'nope'], { configDir: dir });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('profiles: default, other');
  });

  it('reports a key the service refuses with exit 4 and a hint', async () => {
    const res = await runKb(['threads', 'list'], {
      env: { KB_BASE_URL: server.url, KB_API_KEY: 'kb_revoked' },
    });
    expect(res.code).toBe(4);
    expect(res.stderr).toContain('hint: run `kb auth login`');
  });

  it('refuses to send a key over plain http to a remote host unless --insecure', async () => {
    const res = await runKb(['threads', 'list'], {
      env: { KB_BASE_URL: 'http://kb.example.com', KB_API_KEY: CANARY },
    });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('refusing to send the API key in clear text');
    expect(res.stderr).not.toContain(CANARY);
  });
});

describe('kb auth list and logout --forget', () => {
  it('lists the profiles without their keys, and --forget removes one whole', async () => {
    const dir = tempDir();
    expect((await login(dir)).code).toBe(0);
    expect((await login(dir, 'kb_other_key_000000000000', ['--profile', 'other'])).code).toBe(0);
    expect((await runKb(['auth', 'logout', '--profile', 'other'], { configDir: dir })).code).toBe(0);

    const listed = await runKb(['auth', 'list', '--json'], { configDir: dir });
    expect(listed.code).toBe(0);
    // Logging in to a profile makes it the current one.
    expect(JSON.parse(listed.stdout)).toEqual([
      { name: 'default', baseUrl: server.url, hasKey: true, current: false },
      { name: 'other', baseUrl: server.url, hasKey: false, current: true },
    ]);
    expect(listed.stdout + listed.stderr).not.toContain(CANARY);
    // Piped, each row says which profile is current in a field of its own.
    const piped = await runKb(['auth', 'list'], { configDir: dir });
    expect(
      piped.stdout
        .trim()
        .split('\n')
        .map((row) => row.split('\t')),
    ).toEqual([
      ['default', server.url, 'stored', ''],
      ['other', server.url, 'none', 'current'],
    ]);
    const table = await runKbOnTTY(['auth', 'ls'], { configDir: dir });
    expect(stripAnsi(table.stdout)).toMatch(/\* other/);
    expect(table.stdout).not.toContain(CANARY);

    const forgotten = await runKbOnTTY(['auth', 'logout', '--profile', 'other', '--forget'], {
      configDir: dir,
    });
    expect(forgotten.code).toBe(0);
    expect(stripAnsi(forgotten.stdout)).toContain('Removed profile "other" (now using "default")');
    const stored = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));
    expect(Object.keys(stored.profiles)).toEqual(['default']);
    expect(stored.currentProfile).toBeUndefined();
    expect((await runKb(['threads', 'list'], { configDir: dir })).code).toBe(0);
    // A profile that is not there: nothing to do, exit 0.
    expect((await runKb(['auth', 'logout', '--profile', 'gone', '--forget'], { configDir: dir })).code).toBe(
      0,
    );
  });
});

describe('kb config', () => {
  it('sets, gets, lists and unsets settings, validating values', async () => {
    const dir = tempDir();
    expect((await runKb(['config', 'set', 'format', 'json'], { configDir: dir })).code).toBe(0);
    expect((await runKb(['config', 'get', 'format'], { configDir: dir })).stdout).toBe('json\n');
    const bad = await runKb(['config', 'set', 'format', 'xml'], { configDir: dir });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('expected one of table, json, jsonl');
    expect((await runKb(['config', 'set', 'nope', '1'], { configDir: dir })).code).toBe(2);
    expect((await runKb(['config', 'set', 'timeout', 'soon'], { configDir: dir })).code).toBe(2);
    expect(JSON.parse((await runKb(['config', 'list', '--json'], { configDir: dir })).stdout)).toEqual({
      format: 'json',
    });
    expect((await runKb(['config', 'path'], { configDir: dir })).stdout).toBe(
      `${join(dir, 'config.json')}\n`,
    );
    expect((await runKb(['config', 'unset', 'format'], { configDir: dir })).code).toBe(0);
    expect((await runKb(['config', 'get', 'format'], { configDir: dir })).code).toBe(1);
  });

  it('lives under XDG_CONFIG_HOME/kb without KB_CONFIG_DIR, and under ~/.config/kb without either', async () => {
    const xdg = tempDir();
    const res = await runKb(['config', 'path'], { env: { KB_CONFIG_DIR: undefined, XDG_CONFIG_HOME: xdg } });
    expect(res.stdout).toBe(`${join(xdg, 'kb', 'config.json')}\n`);
    await runKb(['config', 'set', 'format', 'json'], {
      env: { KB_CONFIG_DIR: undefined, XDG_CONFIG_HOME: xdg },
    });
    expect(statSync(join(xdg, 'kb', 'config.json')).mode & 0o777).toBe(0o600);
    const home = tempDir();
    const fallback = await runKb(['config', 'path'], { configDir: home, env: { KB_CONFIG_DIR: undefined } });
    expect(fallback.stdout).toBe(`${join(home, '.config', 'kb', 'config.json')}\n`);
  });

  it('makes JSON the default format with the format setting or KB_FORMAT', async () => {
    const dir = tempDir();
    await login(dir);
    await runKb(['config', 'set', 'format', 'json'], { configDir: dir });
    expect(Array.isArray(JSON.parse((await runKb(['users', 'list'], { configDir: dir })).stdout))).toBe(true);
    const env = await runKb(['users', 'list'], {
      env: { KB_BASE_URL: server.url, KB_API_KEY: CANARY, KB_FORMAT: 'jsonl' },
    });
    expect(env.stdout).toBe('');
  });

  it('names the file when the config is corrupt, and warns when it is readable by others', async () => {
    const dir = tempDir();
    const file = join(dir, 'config.json');
    writeFileSync(file, '{"profiles": {', { mode: 0o600 });
    const res = await runKb(['threads', 'list'], { configDir: dir });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain(`config file ${file} is not valid JSON`);
    expect(res.stderr).not.toMatch(/at .*\.js:\d+/);
    writeFileSync(file, JSON.stringify({ profiles: {}, settings: {} }));
    chmodSync(file, 0o644);
    const warn = await runKb(['config', 'list'], { configDir: dir });
    expect(warn.stderr).toContain('is readable by others');
  });

  it('survives 20 concurrent writers without corruption', async () => {
    const dir = tempDir();
    const runs = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        runKb(['config', 'set', i % 2 ? 'timeout' : 'retries', i % 2 ? `${i}s` : String(i % 10)], {
          configDir: dir,
        }),
      ),
    );
    expect(runs.every((r) => r.code === 0)).toBe(true);
    const stored = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));
    expect(stored.settings.timeout).toMatch(/^\d+s$/);
    expect(typeof stored.settings.retries).toBe('number');
  });
});

describe('program', () => {
  it('prints help with examples, the version, and exits 2 with a suggestion for a typo', async () => {
    const help = await runKb(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Examples:');
    for (const noun of ['threads', 'chat', 'files', 'users', 'webhooks', 'auth', 'config'])
      expect(help.stdout).toContain(noun);
    expect((await runKb(['--version'])).stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
    const typo = await runKb(['thraeds']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('hint: did you mean `kb threads`?');
    const flag = await runKb(['threads', 'list', '--limt', '3']);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain('hint: did you mean `--limit`?');
    expect((await runKb(['auth', '--help'])).stdout).toContain('kb auth login');
  });

  it('documents every exit code in kb help exit-codes', async () => {
    const res = await runKb(['help', 'exit-codes']);
    for (const code of ['0', '1', '2', '3', '4', '5', '6', '124', '130'])
      expect(res.stdout).toMatch(new RegExp(`^  ${code}\\s`, 'm'));
  });
});
