import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { itWith } from '../helpers/tools.js';
import type { RunningServer } from '../../src/server/index.js';
import { signPayload } from '../../src/webhooks/signature.js';
import { BIN, baseEnv, runKb, runKbOnTTY, stripAnsi, tempDir } from '../helpers/cli.js';
import { startReceiver } from '../helpers/receiver.js';
import { json, scriptedServer } from '../helpers/scripted.js';
import { startTestServer } from '../helpers/server.js';

let server: RunningServer;
let env: Record<string, string>;
const dir = tempDir();
const secretFile = join(dir, 'secret.txt');
const bodyFile = join(dir, 'body.json');
const BODY = '{"id":"evt_9","type":"thread.message.created","data":{}}';

beforeAll(async () => {
  server = await startTestServer({ demo: true, allowLocalWebhooks: true });
  env = { KB_BASE_URL: server.url, KB_API_KEY: server.keys.demo! };
  writeFileSync(secretFile, 'whsec_file_secret\n');
  writeFileSync(bodyFile, BODY);
});
afterAll(() => server.close());

async function until(check: () => boolean, ms = 8000) {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('kb webhooks verify and sign', () => {
  it('verifies a valid delivery (exit 0) and explains an invalid one (exit 1)', async () => {
    const header = signPayload(BODY, 'whsec_file_secret');
    const ok = await runKb([
      'webhooks',
      'verify',
      '--header',
      header,
      '--payload-file',
      bodyFile,
      '--secret-file',
      secretFile,
    ]);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toBe('valid\n');
    const piped = await runKb(['webhooks', 'verify', '--header', header], {
      input: BODY,
      env: { KB_WEBHOOK_SECRET: 'whsec_file_secret' },
    });
    expect(piped.code).toBe(0);
    const bad = await runKb(['webhooks', 'verify', '--header', header, '--secret-file', secretFile], {
      input: `${BODY} `,
    });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toBe(
      'error: invalid signature: signature mismatch: the body was not signed with this secret\n',
    );
    const old = await runKb(
      [
        'webhooks',
        'verify',
        '--header',
        signPayload(BODY, 'whsec_file_secret', { timestamp: 1000 }),
        '--secret-file',
        secretFile,
      ],
      { input: BODY },
    );
    expect(old.stderr).toContain('outside the tolerance');
    const noSecret = await runKb(['webhooks', 'verify', '--header', header], { input: BODY });
    expect(noSecret.code).toBe(2);
    expect(noSecret.stderr).toContain('no webhook secret given');
    const argv = await runKb(['webhooks', 'verify', '--header', header, '--secret', 'x'], { input: BODY });
    expect(argv.code).toBe(2);
  });

  it('signs a payload so that verify accepts it, with several secrets and the timestamped scheme', async () => {
    const other = join(dir, 'other.txt');
    writeFileSync(other, 'whsec_other');
    const signed = await runKb(
      ['webhooks', 'sign', '--secret-file', secretFile, '--secret-file', other, '--timestamp', '1700000000'],
      { input: BODY },
    );
    const header = signed.stdout.trim();
    expect(header).toMatch(/^t=1700000000,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);
    expect(header).toBe(
      signPayload(BODY, ['whsec_file_secret', 'whsec_other'], { timestamp: 1_700_000_000 }),
    );
    const stamped = (
      await runKb(['webhooks', 'sign', '--secret-file', secretFile, '--scheme', 'timestamped'], {
        input: BODY,
      })
    ).stdout.trim();
    const verify = await runKb(
      ['webhooks', 'verify', '--header', stamped, '--secret-file', secretFile, '--scheme', 'timestamped'],
      { input: BODY },
    );
    expect(verify.code).toBe(0);
  });
});

describe('kb webhooks create, list, get, delete', () => {
  it('refuses http and unknown kinds before any request', async () => {
    const http = await runKb(
      ['webhooks', 'create', '--url', 'http://example.com/hook', '--event', 'file.indexed'],
      { env },
    );
    expect(http.code).toBe(2);
    expect(http.stderr).toContain('must use https');
    const kind = await runKb(
      ['webhooks', 'create', '--url', 'https://example.com/hook', '--event', 'file.deleted'],
      { env },
    );
    expect(kind.code).toBe(2);
    expect(kind.stderr).toContain('known kinds: file.indexed, thread.message.created');
    const none = await runKb(['webhooks', 'create', '--url', 'https://example.com/hook'], { env });
    expect(none.code).toBe(2);
  });

  itWith('script')('asks for the event kinds with a checkbox on a terminal', async () => {
    const res = await runKbOnTTY(['webhooks', 'create', '--url', 'https://example.com/picked', '--json'], {
      env,
      onSpawn: (child) => setTimeout(() => child.stdin!.write('\r'), 1500),
    });
    expect(res.code).toBe(0);
    const screen = stripAnsi(res.stdout);
    expect(screen).toContain('Which events?');
    expect(screen).toMatch(/"events": \[\s*"file\.indexed",\s*"thread\.message\.created"\s*\]/);
  });

  itWith('script')(
    'prints the secret once with a warning, saves it with --save-secret, and manages the webhook',
    async () => {
      const configDir = tempDir();
      const created = await runKb(
        [
          'webhooks',
          'create',
          '--url',
          'https://example.com/hook',
          '--event',
          'file.indexed',
          '--save-secret',
        ],
        { env, configDir },
      );
      expect(created.code).toBe(0);
      const id = /ID\t(wh_\w+)/.exec(created.stdout)![1]!;
      expect(created.stdout).toMatch(/Secret\twhsec_/);
      const { readFileSync, statSync } = await import('node:fs');
      const cfgFile = join(configDir, 'config.json');
      expect(statSync(cfgFile).mode & 0o777).toBe(0o600);
      expect(JSON.parse(readFileSync(cfgFile, 'utf8')).profiles.default.webhookSecrets[id]).toMatch(
        /^whsec_/,
      );
      const tty = await runKbOnTTY(
        ['webhooks', 'create', '--url', 'https://example.com/2', '--event', 'thread.message.created'],
        { env },
      );
      expect(stripAnsi(tty.stdout)).toContain('shown only once');
      const asJson = JSON.parse(
        (
          await runKb(
            ['webhooks', 'create', '--url', 'https://example.com/3', '--event', 'file.indexed', '--json'],
            { env },
          )
        ).stdout,
      );
      expect(asJson.secret).toMatch(/^whsec_/);

      const list = await runKb(['webhooks', 'list', '--json'], { env });
      expect(JSON.parse(list.stdout).map((w: any) => w.id)).toContain(id);
      expect(list.stdout).not.toContain('whsec_');
      const got = await runKb(['webhooks', 'get', id, '--json'], { env });
      expect(JSON.parse(got.stdout)).toMatchObject({
        id,
        url: 'https://example.com/hook',
        events: ['file.indexed'],
      });
      expect((await runKb(['webhooks', 'delete', id], { env })).code).toBe(2);
      const del = await runKb(['webhooks', 'delete', id, '--yes'], { env, configDir });
      expect(del.code).toBe(0);
      expect((await runKb(['webhooks', 'get', id], { env })).code).toBe(3);
    },
  );

  it('says the service does not offer the extensions when it answers 404/405 for them', async () => {
    const bare = await scriptedServer([
      json(404, { message: 'Not Found' }),
      json(405, { error: 'method not allowed' }),
      json(404, { error: { code: 'route_not_found', message: 'no route' } }),
    ]);
    const bareEnv = { KB_BASE_URL: bare.url, KB_API_KEY: 'kb_x' };
    const list = await runKb(['webhooks', 'list'], { env: bareEnv });
    expect(list.code).toBe(1);
    expect(list.stderr).toContain('this service does not offer listing webhooks');
    const get = await runKb(['webhooks', 'get', 'wh_1'], { env: bareEnv });
    expect(get.stderr).toContain('does not offer reading webhooks');
    const del = await runKb(['webhooks', 'delete', 'wh_1', '--yes'], { env: bareEnv });
    expect(del.stderr).toContain('does not offer deleting webhooks');
    await bare.close();
  });
});

describe('kb webhooks trigger', () => {
  it('posts a correctly signed sample event to a receiver', async () => {
    const app = await startReceiver();
    const res = await runKb([
      'webhooks',
      'trigger',
      'file.indexed',
      '--forward-to',
      app.url,
      '--secret-file',
      secretFile,
    ]);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/^file\.indexed\tevt_test_\w+\t200\n$/);
    const { verifySignature } = await import('../../src/webhooks/signature.js');
    expect(
      verifySignature(app.got[0]!.body, String(app.got[0]!.headers['service-signature']), 'whsec_file_secret')
        .valid,
    ).toBe(true);
    await app.close();
    const failing = await startReceiver(500);
    expect(
      (
        await runKb([
          'webhooks',
          'trigger',
          'thread.message.created',
          '--forward-to',
          failing.url,
          '--secret-file',
          secretFile,
        ])
      ).code,
    ).toBe(1);
    await failing.close();
  });
});

describe('kb webhooks listen, end to end', () => {
  it('shows verified thread.message.created and file.indexed events and forwards them', async () => {
    const docs = tempDir();
    const local = await startTestServer({ demo: true, allowLocalWebhooks: true, docsDir: docs });
    const localEnv = { KB_BASE_URL: local.url, KB_API_KEY: local.keys.demo! };
    const configDir = tempDir();
    const app = await startReceiver();

    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const p = (probe.address() as AddressInfo).port;
        probe.close(() => resolve(p));
      });
    });
    const created = await runKb(
      [
        'webhooks',
        'create',
        '--url',
        `http://127.0.0.1:${port}/`,
        '--event',
        'thread.message.created',
        '--event',
        'file.indexed',
        '--save-secret',
        '--json',
      ],
      { env: localEnv, configDir },
    );
    const webhookId = JSON.parse(created.stdout).id;

    const listener = spawn(
      process.execPath,
      [BIN, 'webhooks', 'listen', '--port', String(port), '--webhook', webhookId, '--forward-to', app.url],
      {
        env: baseEnv(configDir, localEnv),
      },
    );
    let out = '';
    let err = '';
    listener.stdout.on('data', (d) => (out += d));
    listener.stderr.on('data', (d) => (err += d));
    await until(() => err.includes('Ready!'));

    const thread = JSON.parse((await runKb(['threads', 'create', '--json'], { env: localEnv })).stdout);
    await runKb(['threads', 'send', thread.id, 'How much is the Growth plan?'], { env: localEnv });
    writeFileSync(join(docs, 'dropped.md'), 'A document dropped into the folder about penguins.');
    await until(() => out.split('\n').filter(Boolean).length >= 3);

    const events = out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const kinds = events.map((e) => e.event.type).sort();
    // One thread.message.created per message: the user's and the assistant's.
    expect(kinds).toEqual(['file.indexed', 'thread.message.created', 'thread.message.created']);
    const { readFileSync } = await import('node:fs');
    const { createHmac } = await import('node:crypto');
    const saved = JSON.parse(readFileSync(join(configDir, 'config.json'), 'utf8')).profiles.default
      .webhookSecrets[webhookId];
    for (const e of events) {
      expect(e.verified).toBe(true);
      expect(e.headers['service-signature']).toContain(
        `v1=${createHmac('sha256', saved).update(e.body).digest('hex')}`,
      );
      expect(e.forward.status).toBe(200);
      expect(e.headers['service-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    }
    expect(app.got.map((g) => JSON.parse(g.body).type).sort()).toEqual(kinds);
    expect(app.got[0]!.headers['service-signature']).toBe(
      events.find((e) => e.event.id === JSON.parse(app.got[0]!.body).id).headers['service-signature'],
    );

    // A replayed delivery is answered 200 but not forwarded again; a forged one gets 400.
    const first = events[0];
    const replay = await fetch(`http://127.0.0.1:${port}/`, {
      method: 'POST',
      headers: {
        'service-signature': first.headers['service-signature'],
        'content-type': 'application/json',
      },
      body: JSON.stringify(first.event),
    });
    expect([200, 400]).toContain(replay.status);
    const forged = await fetch(`http://127.0.0.1:${port}/`, {
      method: 'POST',
      headers: { 'service-signature': `t=${Math.floor(Date.now() / 1000)},v1=${'0'.repeat(64)}` },
      body: '{"id":"evt_forged"}',
    });
    expect(forged.status).toBe(400);
    await until(() => out.includes('evt_forged'));
    const forgedLine = out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
      .find((e) => e.event?.id === 'evt_forged');
    expect(forgedLine).toMatchObject({ verified: false, reason: expect.stringContaining('mismatch') });
    expect(app.got).toHaveLength(3); // the three verified events; the forged one is not forwarded

    listener.kill('SIGINT');
    const code = await new Promise((r) => listener.on('close', r));
    // Stopped as it is meant to be, with the exit code of an interrupt (130), as the table says.
    expect(code).toBe(130);
    await app.close();
    await local.close();
  });

  it('deduplicates by event id', async () => {
    const app = await startReceiver();
    const listener = spawn(
      process.execPath,
      [BIN, 'webhooks', 'listen', '--port', '0', '--secret-file', secretFile, '--forward-to', app.url],
      { env: baseEnv(tempDir()) },
    );
    let err = '';
    let out = '';
    listener.stderr.on('data', (d) => (err += d));
    listener.stdout.on('data', (d) => (out += d));
    await until(() => err.includes('Ready!'));
    const url = /Listening on (\S+),/.exec(err)![1]!;
    const body = '{"id":"evt_dup","type":"file.indexed","data":{}}';
    for (let i = 0; i < 2; i++) {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'service-signature': signPayload(body, 'whsec_file_secret') },
        body,
      });
      expect(res.status).toBe(200);
    }
    await until(() => out.trim().split('\n').length === 2);
    const lines = out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.duplicate)).toEqual([false, true]);
    expect(app.got).toHaveLength(1);
    listener.kill('SIGINT');
    await new Promise((r) => listener.on('close', r));
    await app.close();
  });
});
