import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { itWith } from '../helpers/tools.js';
import type { RunningServer } from '../../src/server/index.js';
import { runKb, runKbOnTTY, type RunResult, stripAnsi, tempDir } from '../helpers/cli.js';
import { api, startTestServer } from '../helpers/server.js';

const CANARY = 'kb_canary_d3adb33fd3adb33fd3adb33fd3adb33f';
const SECRET_CANARY = 'whsec_canary_0123456789abcdef0123456789';
let server: RunningServer;
let configDir: string;

beforeAll(async () => {
  server = await startTestServer({ demo: true, apiKeys: [`demo:${CANARY}`], allowLocalWebhooks: true });
  configDir = tempDir();
  const login = await runKb(['auth', 'login', '--with-key', '--base-url', server.url], {
    configDir,
    input: CANARY,
  });
  expect(login.code).toBe(0);
});
afterAll(() => server.close());

function scan(result: RunResult, label: string) {
  for (const text of [result.stdout, result.stderr]) {
    expect(text, label).not.toContain(CANARY);
    expect(text, label).not.toContain(CANARY.slice(3, 30));
    expect(text, label).not.toContain(SECRET_CANARY);
  }
}

describe('the API key and webhook secrets never leak', () => {
  // $thread, $file and $secret stand for what beforeAll creates.
  const commands: string[][] = [
    ['auth', 'status'],
    ['threads', 'list'],
    ['threads', 'create', '--title', 'x'],
    ['threads', 'get', '$thread'],
    ['threads', 'send', '$thread', 'hello'],
    ['threads', 'get', 'thr_missing'],
    ['files', 'list'],
    ['files', 'get', '$file'],
    ['files', 'wait', '$file'],
    ['files', 'delete', 'file_missing', '--yes'],
    ['users', 'list'],
    ['webhooks', 'list'],
    ['webhooks', 'verify', '--header', 't=1,v1=00', '--secret-file', '$secret', '--payload-file', '$secret'],
    ['webhooks', 'sign', '--secret-file', '$secret', '--payload-file', '$secret'],
    ['api', 'GET', '/v1/threads'],
    ['api', 'GET', '/v1/nope', '--include'],
    ['config', 'list'],
    ['chat', '$thread'],
    ['threads', 'list', '--base-url', 'http://127.0.0.1:9', '--retries', '0'],
    ['threads', 'list', '--base-url', 'http://kb.example.com'],
  ];
  const values = new Map<string, string>();
  beforeAll(async () => {
    values.set(
      '$thread',
      (await api(server, CANARY, 'POST', '/v1/threads', { title: 'canary' })).json.data.id,
    );
    values.set('$file', (await api(server, CANARY, 'GET', '/v1/files')).json.data[0].id);
    const secretFile = join(configDir, 'secret.txt');
    writeFileSync(secretFile, SECRET_CANARY);
    values.set('$secret', secretFile);
  });

  // One test per command: each has the whole timeout on a loaded machine, and a leak names its command.
  it.each(commands.map((command) => [command.join(' '), command] as const))(
    'runs `kb %s` with a canary key and --debug, and scans all output',
    async (label, command) => {
      const args = command.map((arg) => values.get(arg) ?? arg);
      for (const extra of [['--debug'], ['--debug', '--json']]) {
        const res = await runKb([...args, ...extra], { configDir, input: 'a question\n' });
        scan(res, label);
      }
    },
  );

  it('keeps the key from the environment out of --debug output', async () => {
    const envRun = await runKb(['threads', 'list', '--debug'], {
      env: { KB_BASE_URL: server.url, KB_API_KEY: CANARY },
    });
    expect(envRun.stderr).toContain('[debug]');
    scan(envRun, 'env key');
  });

  itWith('script')('keeps the key out of the REPL history file and the TTY screen', async () => {
    const res = await runKbOnTTY(['chat'], {
      configDir,
      onSpawn: (child) => {
        setTimeout(() => child.stdin!.write('what does the Growth plan cost?\r'), 1200);
        setTimeout(() => child.stdin!.write('\u0004'), 3000);
      },
    });
    scan(res, 'chat on a TTY');
    const historyDir = join(configDir, 'history');
    for (const name of readdirSync(historyDir)) {
      const path = join(historyDir, name);
      expect(statSync(path).mode & 0o777).toBe(0o600);
      expect(readFileSync(path, 'utf8')).not.toContain(CANARY);
      expect(readFileSync(path, 'utf8')).toContain('Growth plan');
    }
    expect(statSync(historyDir).mode & 0o777).toBe(0o700);
  });

  it('prints the webhook secret only at creation', async () => {
    const created = await runKb(
      [
        'webhooks',
        'create',
        '--url',
        'https://example.com/h',
        '--event',
        'file.indexed',
        '--save-secret',
        '--debug',
      ],
      { configDir },
    );
    const secret = /Secret\t(whsec_\w+)/.exec(created.stdout)![1]!;
    expect(created.stderr).not.toContain(secret);
    const id = /ID\t(wh_\w+)/.exec(created.stdout)![1]!;
    for (const args of [
      ['webhooks', 'get', id],
      ['webhooks', 'list'],
      ['config', 'list', '--json'],
      ['auth', 'status', '--json'],
    ]) {
      const res = await runKb([...args, '--debug'], { configDir });
      expect(res.stdout + res.stderr, args.join(' ')).not.toContain(secret);
    }
  });
});

describe('hostile text from the server', () => {
  const HOSTILE = 'Evil \u001b]0;pwned\u0007title \u001b[2J\u001b[31mred\u001b[0m \u009b31m end';

  itWith('script')(
    'is stripped of control and escape sequences on a terminal and when piped, but kept exact in --json',
    async () => {
      const thread = (await api(server, CANARY, 'POST', '/v1/threads', { title: HOSTILE })).json.data;
      await api(server, CANARY, 'POST', `/v1/threads/${thread.id}/messages`, {
        content: `tell me about ${HOSTILE}`,
      });
      const env = { KB_BASE_URL: server.url, KB_API_KEY: CANARY };
      for (const args of [
        ['threads', 'list'],
        ['threads', 'get', thread.id],
      ]) {
        const tty = await runKbOnTTY(args, { env });
        expect(tty.stdout, args.join(' ')).not.toMatch(/\u001b\]0;|\u001b\[2J|\u0007|\u009b/);
        expect(stripAnsi(tty.stdout)).toContain('Evil');
        const piped = await runKb(args, { env });
        expect(piped.stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
      }
      const json = JSON.parse((await runKb(['threads', 'get', thread.id, '--json'], { env })).stdout);
      expect(json.title).toBe(HOSTILE);
    },
  );
});
