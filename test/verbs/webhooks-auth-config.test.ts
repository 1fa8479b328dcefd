import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runApi } from '../../src/commands/api/index.js';
import { runLogin } from '../../src/commands/auth/login.js';
import { runLogout } from '../../src/commands/auth/logout.js';
import { runStatus } from '../../src/commands/auth/status.js';
import { runSwitch } from '../../src/commands/auth/switch.js';
import { runToken } from '../../src/commands/auth/token.js';
import { runGet as runConfigGet } from '../../src/commands/config/get.js';
import { runList as runConfigList } from '../../src/commands/config/list.js';
import { runPath } from '../../src/commands/config/path.js';
import { runSet } from '../../src/commands/config/set.js';
import { runUnset } from '../../src/commands/config/unset.js';
import { runList as runUsers } from '../../src/commands/users/list.js';
import { runCreate } from '../../src/commands/webhooks/create.js';
import { runDelete } from '../../src/commands/webhooks/delete.js';
import { runGet as runWebhookGet } from '../../src/commands/webhooks/get.js';
import { runList as runWebhooks } from '../../src/commands/webhooks/list.js';
import { runSign } from '../../src/commands/webhooks/sign.js';
import { runVerify } from '../../src/commands/webhooks/verify.js';
import { CliError, UsageError } from '../../src/errors.js';
import { verifySignature } from '../../src/webhooks/signature.js';
import { type Fake, fakeContext, KEY } from '../helpers/context.js';
import { tempDir } from '../helpers/cli.js';

const WH = {
  id: 'wh_1',
  url: 'https://hooks.example.com/kb',
  events: ['file.indexed'],
  isActive: true,
  createdAt: '2026-11-22T10:00:00Z',
};

let fake: Fake;
afterEach(() => fake?.agent.close());

describe('webhooks', () => {
  it('creates a webhook, saves its secret when asked, prints it once for people', async () => {
    const configDir = tempDir();
    fake = fakeContext({ configDir });
    fake.on('POST', '/v1/webhooks').reply(201, { data: { ...WH, secret: 'whsec_abc' } });
    await runCreate(fake.ctx, { url: WH.url, event: ['file.indexed'], saveSecret: true });
    expect(fake.stdout()).toContain('Secret\twhsec_abc\n');
    const saved = JSON.parse(readFileSync(join(configDir, 'config.json'), 'utf8'));
    expect(saved.profiles.default.webhookSecrets).toEqual({ wh_1: 'whsec_abc' });
  });

  it('prints the created id alone with --ids (an option every record verb takes)', async () => {
    fake = fakeContext({ options: { ids: true } });
    fake.on('POST', '/v1/webhooks').reply(201, { data: { ...WH, secret: 'whsec_abc' } });
    await runCreate(fake.ctx, { url: WH.url, event: ['file.indexed'] });
    expect(fake.stdout()).toBe('wh_1\n');
    expect(fake.stderr()).toBe('');
  });

  it('lists and deletes, with the same JSON style as every other verb', async () => {
    fake = fakeContext({ options: { json: true } });
    fake.on('GET', '/v1/webhooks?limit=50').reply(200, { data: [WH] });
    await runWebhooks(fake.ctx);
    expect(fake.stdout()).toBe(`${JSON.stringify([WH], null, 2)}\n`);
    fake = fakeContext({ options: { json: true } });
    fake.on('DELETE', '/v1/webhooks/wh_1').reply(204, '');
    await runDelete(fake.ctx, ['wh_1'], { yes: true });
    // As files delete: one result per id given.
    expect(fake.stdout()).toBe(`${JSON.stringify([{ id: 'wh_1', deleted: true }], null, 2)}\n`);
  });

  it('deletes any number of webhooks: ids from stdin, or --all (every page), as files delete does', async () => {
    const hooks = Array.from({ length: 120 }, (_, i) => ({ ...WH, id: `wh_${i}` }));
    fake = fakeContext({ stdin: hooks.map((h) => h.id).join('\n') });
    for (const h of hooks) fake.on('DELETE', `/v1/webhooks/${h.id}`).reply(204, '');
    await runDelete(fake.ctx, ['-'], { yes: true });
    expect(fake.stdout().trim().split('\n')).toEqual(hooks.map((h) => `deleted\t${h.id}`));

    fake = fakeContext();
    fake
      .on('GET', '/v1/webhooks?limit=100')
      .reply(200, { data: hooks.slice(0, 100), meta: { nextCursor: 'n' } });
    fake
      .on('GET', '/v1/webhooks?limit=100&cursor=n')
      .reply(200, { data: hooks.slice(100), meta: { nextCursor: null } });
    for (const h of hooks) fake.on('GET', `/v1/webhooks/${h.id}`).reply(200, { data: h });
    await runDelete(fake.ctx, [], { all: true, dryRun: true });
    expect(fake.stdout().trim().split('\n')).toHaveLength(120);
    expect(fake.stdout()).toContain(`would-delete\twh_119\t${WH.url}`);

    fake = fakeContext();
    await expect(runDelete(fake.ctx, [], { all: true })).rejects.toThrow(
      /refusing to delete webhooks without --yes when not on a terminal/,
    );
    await expect(runDelete(fake.ctx, ['wh_1'], { all: true, yes: true })).rejects.toThrow(/not both/);
  });

  it('says so when the service has no webhook listing', async () => {
    fake = fakeContext();
    fake
      .on('GET', '/v1/webhooks?limit=50')
      .reply(405, { error: { code: 'method_not_allowed', message: 'no' } });
    await expect(runWebhooks(fake.ctx)).rejects.toThrow(/does not offer listing webhooks/);
  });

  it('signs and verifies a body; an invalid signature is exit 1 with the result for scripts', async () => {
    fake = fakeContext({ stdin: '{"id":"evt_1"}', env: { KB_WEBHOOK_SECRET: 'whsec_test' } });
    await runSign(fake.ctx, { scheme: 'body', timestamp: 1_700_000_000 });
    const header = fake.stdout().trim();
    expect(verifySignature('{"id":"evt_1"}', header, 'whsec_test', { toleranceSeconds: 0 }).valid).toBe(true);
    fake = fakeContext({
      stdin: '{"id":"evt_2"}',
      env: { KB_WEBHOOK_SECRET: 'whsec_test' },
      options: { json: true },
    });
    const err = await runVerify(fake.ctx, { header, tolerance: 0, scheme: 'body' }).catch((e: unknown) => e);
    expect((err as CliError).exitCode).toBe(1);
    expect(JSON.parse(fake.stdout()).valid).toBe(false);
  });
});

describe('auth and config', () => {
  it('auth status prints the record, then fails with exit 4 when the key is refused', async () => {
    fake = fakeContext({ options: { json: true } });
    fake.on('GET', '/v1/users?limit=1').reply(401, { error: { code: 'unauthorized', message: 'bad key' } });
    const err = (await runStatus(fake.ctx).catch((e: unknown) => e)) as CliError;
    expect(err.exitCode).toBe(4);
    const record = JSON.parse(fake.stdout());
    expect(record).toMatchObject({ status: 'refused', valid: false });
    expect(fake.stdout()).not.toContain(KEY);
  });

  it('auth token prints the key only when asked; switch refuses an unknown or prototype profile', async () => {
    fake = fakeContext();
    await runToken(fake.ctx);
    expect(fake.stdout()).toBe(`${KEY}\n`);
    for (const name of ['nope', '__proto__', 'constructor'])
      await expect(runSwitch(fakeContext().ctx, name)).rejects.toBeInstanceOf(UsageError);
  });

  it('config set, get, list and unset; unknown and prototype keys are usage errors', async () => {
    const configDir = tempDir();
    await runSet(fakeContext({ configDir }).ctx, 'format', 'jsonl');
    fake = fakeContext({ configDir, env: { KB_FORMAT: '' } });
    await runConfigGet(fake.ctx, 'format');
    expect(fake.stdout()).toBe('jsonl\n');
    fake = fakeContext({ configDir, options: { json: true } });
    await runConfigList(fake.ctx);
    expect(JSON.parse(fake.stdout())).toEqual({ format: 'jsonl' });
    await runUnset(fakeContext({ configDir }).ctx, 'format');
    await expect(runConfigGet(fakeContext({ configDir }).ctx, 'format')).rejects.toThrow('format is not set');
    for (const key of ['constructor', '__proto__', 'toString', 'xml'])
      await expect(runConfigGet(fakeContext({ configDir }).ctx, key)).rejects.toBeInstanceOf(UsageError);
    await expect(runSet(fakeContext({ configDir }).ctx, 'format', 'xml')).rejects.toBeInstanceOf(UsageError);
  });

  it('the format setting is used, and a bad one stored by hand is a usage error', async () => {
    const configDir = tempDir();
    await runSet(fakeContext({ configDir }).ctx, 'format', 'jsonl');
    fake = fakeContext({ configDir });
    fake
      .on('GET', '/v1/users?limit=50')
      .reply(200, { data: [{ id: 'u1', name: 'Zoe', email: 'z@x', createdAt: 'x' }] });
    await runUsers(fake.ctx, {});
    expect(fake.stdout()).toBe('{"id":"u1","name":"Zoe","email":"z@x","createdAt":"x"}\n');
    const handEdited = tempDir();
    writeFileSync(join(handEdited, 'config.json'), JSON.stringify({ settings: { format: 'yaml' } }), {
      mode: 0o600,
    });
    await expect(runUsers(fakeContext({ configDir: handEdited }).ctx, {})).rejects.toThrow(
      /format setting is "yaml"/,
    );
  });
});

describe('kb api', () => {
  it('passes the body through byte for byte when piped, headers first with --include', async () => {
    const body = '{"data": [ "spacing kept",\t"\\u001b" ]}';
    fake = fakeContext();
    fake.on('GET', '/v1/threads?limit=1').reply(200, body, { headers: { 'x-request-id': 'req_1' } });
    await runApi(fake.ctx, 'get', '/v1/threads?limit=1', { field: [], query: [], header: [], include: true });
    expect(fake.stdout()).toBe(`HTTP/1.1 200 OK\nx-request-id: req_1\n\n${body}`);
  });

  it('ends with a newline on a terminal only, and prints an error body before failing', async () => {
    fake = fakeContext({ tty: true });
    fake.on('GET', '/v1/x').reply(404, '{"error":{"code":"route_not_found","message":"No such route"}}');
    const err = await runApi(fake.ctx, 'GET', '/v1/x', { field: [], query: [], header: [] }).catch(
      (e: unknown) => e,
    );
    expect(fake.stdout()).toBe('{"error":{"code":"route_not_found","message":"No such route"}}\n');
    expect((err as Error).message).toBe('No such route');
  });
});

describe('auth login and logout, webhooks get, config path', () => {
  it('logs in with a key from stdin after checking it, and saves nothing when it is refused', async () => {
    const configDir = tempDir();
    fake = fakeContext({ configDir, stdin: 'kb_new_key_0123456789\n', env: { KB_API_KEY: undefined } });
    fake.on('GET', '/v1/users?limit=1').reply(401, { error: { code: 'unauthorized', message: 'no' } });
    const err = (await runLogin(fake.ctx, { withKey: true }).catch((e: unknown) => e)) as CliError;
    expect(err.exitCode).toBe(4);
    expect(() => readFileSync(join(configDir, 'config.json'), 'utf8')).toThrow();

    fake = fakeContext({ configDir, stdin: 'kb_new_key_0123456789\n', env: { KB_API_KEY: undefined } });
    fake.on('GET', '/v1/users?limit=1').reply(200, { data: [] });
    await runLogin(fake.ctx, { withKey: true });
    const saved = JSON.parse(readFileSync(join(configDir, 'config.json'), 'utf8'));
    expect(saved.profiles.default).toEqual({ baseUrl: 'https://kb.test', apiKey: 'kb_new_key_0123456789' });
    expect(fake.stdout() + fake.stderr()).not.toContain('kb_new_key');

    fake = fakeContext({ configDir, env: { KB_API_KEY: 'still_set' } });
    await runLogout(fake.ctx);
    expect(
      JSON.parse(readFileSync(join(configDir, 'config.json'), 'utf8')).profiles.default.apiKey,
    ).toBeUndefined();
    expect(fake.stderr()).toBe('warning: KB_API_KEY is still set in this environment\n');
  });

  it('never shows a webhook secret, even if the service returns one', async () => {
    fake = fakeContext({ options: { json: true } });
    fake.on('GET', '/v1/webhooks/wh_1').reply(200, { data: { ...WH, secret: 'whsec_leak' } });
    await runWebhookGet(fake.ctx, 'wh_1');
    expect(JSON.parse(fake.stdout())).toEqual(WH);
  });

  it('config path prints where the config file is', async () => {
    const configDir = tempDir();
    fake = fakeContext({ configDir });
    await runPath(fake.ctx);
    expect(fake.stdout()).toBe(`${join(configDir, 'config.json')}\n`);
  });
});
