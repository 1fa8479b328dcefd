import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { classifyAddress } from '../../src/server/webhooks/address-policy.js';
import { startServer } from '../../src/server/index.js';
import type { Resolver } from '../../src/server/webhooks/target.js';
import { secretsProblem, signPayload, verifySignature } from '../../src/webhooks/signature.js';
import { startReceiver } from '../helpers/receiver.js';
import { api } from '../helpers/server.js';

/** DNS for the tests: names and what they resolve to; anything else does not resolve. */
function table(names: Record<string, string[]>): Resolver & { names: Record<string, string[]> } {
  const resolve = (async (hostname: string) => {
    const addresses = resolve.names[hostname];
    if (!addresses) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  }) as Resolver & { names: Record<string, string[]> };
  resolve.names = names;
  return resolve;
}

const INTERNAL = [
  'https://127.0.0.1:9443/',
  'https://localhost/hook',
  'https://api.localhost./hook',
  'https://[::1]/',
  'https://0.0.0.0/',
  'https://169.254.169.254/latest/meta-data/',
  'https://10.0.0.1/',
  'https://172.16.5.4/',
  'https://192.168.1.1/',
  'https://100.64.0.1/',
  'https://2130706433/',
  'https://0x7f000001/',
  'https://0177.0.0.1/',
  'https://127.1/',
  'https://[::ffff:127.0.0.1]/',
  'https://[::ffff:7f00:1]/',
  'https://[::ffff:a9fe:a9fe]/',
  'https://[64:ff9b::a00:1]/',
  'https://[fd00::1]/',
  'https://[fe80::1]/',
  'https://[::]/',
  'https://224.0.0.1/',
  'https://255.255.255.255/',
  'https://internal.example/hook',
  'https://mixed.example/hook',
];

describe('webhook targets', () => {
  it('classifies every spelling of an internal address', () => {
    expect(classifyAddress('8.8.8.8')).toBe('public');
    expect(classifyAddress('2606:4700::1111')).toBe('public');
    expect(classifyAddress('127.0.0.1')).toBe('loopback');
    expect(classifyAddress('::ffff:7f00:1')).toBe('loopback');
    expect(classifyAddress('::ffff:10.1.2.3')).toBe('private');
    expect(classifyAddress('64:ff9b::a9fe:a9fe')).toBe('link-local');
    expect(classifyAddress('fd12::1')).toBe('private');
    expect(classifyAddress('100.127.0.1')).toBe('cgnat');
    expect(classifyAddress('ff02::1')).toBe('multicast');
    expect(classifyAddress('255.255.255.255')).toBe('broadcast');
    expect(classifyAddress('0.0.0.0')).toBe('unspecified');
  });

  it('refuses at registration (422 invalid_url) URLs that are, or resolve to, internal addresses', async () => {
    const resolve = table({
      'internal.example': ['10.0.0.5'],
      'mixed.example': ['93.184.216.34', '127.0.0.1'],
    });
    const server = await startServer({ port: 0, demo: true, resolve, indexDelayMs: 0 });
    const key = server.keys.demo!;
    try {
      for (const url of INTERNAL) {
        const res = await api(server, key, 'POST', '/v1/webhooks', { url, events: ['file.indexed'] });
        expect([url, res.status, res.json.error.code]).toEqual([url, 422, 'invalid_url']);
        expect(res.json.error.message).toMatch(/public addresses only|must use https/);
      }
      resolve.names['public.example'] = ['93.184.216.34'];
      for (const url of ['https://public.example/hook', 'https://unresolved.example/hook']) {
        const res = await api(server, key, 'POST', '/v1/webhooks', { url, events: ['file.indexed'] });
        expect([url, res.status]).toEqual([url, 201]);
      }
    } finally {
      await server.close();
    }
  });

  it('checks again at delivery, never connects to an internal address, and logs a category', async () => {
    // Something listening on loopback that must never be reached.
    let connections = 0;
    const bait = createServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((r) => bait.listen(0, '127.0.0.1', r));
    const port = (bait.address() as AddressInfo).port;
    const resolve = table({});
    const server = await startServer({
      port: 0,
      demo: true,
      resolve,
      indexDelayMs: 0,
      webhookRetrySchedule: [],
    });
    const key = server.keys.demo!;
    try {
      const webhook = (
        await api(server, key, 'POST', '/v1/webhooks', {
          url: `https://rebinding.example:${port}/hook`,
          events: ['thread.message.created'],
        })
      ).json.data;
      // The name did not resolve at registration; now it points at loopback.
      resolve.names['rebinding.example'] = ['127.0.0.1'];
      const thread = (await api(server, key, 'POST', '/v1/threads', { title: 'x' })).json.data;
      await api(server, key, 'POST', `/v1/threads/${thread.id}/messages`, { content: 'hello' });
      await server.service.deliverer.settled();
      const log = (await api(server, key, 'GET', `/v1/webhooks/${webhook.id}/deliveries`)).json;
      expect(log.meta).toMatchObject({ returned: 2 });
      expect(log.data.map((d: any) => d.attempts[0].error)).toEqual(['blocked_address', 'blocked_address']);
      expect(connections).toBe(0);
    } finally {
      await server.close();
      bait.close();
    }
  });

  it('with --allow-local-webhooks: loopback only; no redirect followed; socket errors become a category', async () => {
    const receiver = await startReceiver(302);
    const server = await startServer({
      port: 0,
      demo: true,
      allowLocalWebhooks: true,
      resolve: table({}),
      indexDelayMs: 0,
      webhookRetrySchedule: [],
    });
    const key = server.keys.demo!;
    try {
      expect(
        (
          await api(server, key, 'POST', '/v1/webhooks', {
            url: 'https://10.0.0.1/',
            events: ['file.indexed'],
          })
        ).status,
      ).toBe(422);
      const redirecting = (
        await api(server, key, 'POST', '/v1/webhooks', {
          url: receiver.url,
          events: ['thread.message.created'],
        })
      ).json.data;
      const closed = (
        await api(server, key, 'POST', '/v1/webhooks', {
          url: 'https://127.0.0.1:1/hook',
          events: ['thread.message.created'],
        })
      ).json.data;
      const thread = (await api(server, key, 'POST', '/v1/threads', { title: 'x' })).json.data;
      await api(server, key, 'POST', `/v1/threads/${thread.id}/messages`, { content: 'hello' });
      await server.service.deliverer.settled();
      const first = (id: string) =>
        api(server, key, 'GET', `/v1/webhooks/${id}/deliveries?limit=1`).then((r) => r.json);
      const redirected = await first(redirecting.id);
      expect(redirected.meta).toEqual({
        returned: 1,
        limit: 1,
        nextCursor: expect.any(String),
        hasMore: true,
      });
      expect(redirected.data[0].attempts[0].status).toBe(302);
      expect(receiver.got).toHaveLength(2); // one event per message, nothing sent to a Location
      expect((await first(closed.id)).data[0].attempts[0].error).toBe('unreachable');
    } finally {
      await server.close();
      await receiver.close();
    }
  });

  it('emits one thread.message.created per message, the user’s then the assistant’s', async () => {
    const receiver = await startReceiver();
    const server = await startServer({ port: 0, demo: true, allowLocalWebhooks: true, indexDelayMs: 0 });
    const key = server.keys.demo!;
    try {
      await api(server, key, 'POST', '/v1/webhooks', {
        url: receiver.url,
        events: ['thread.message.created'],
      });
      const thread = (await api(server, key, 'POST', '/v1/threads', { title: 'x' })).json.data;
      const sent = (await api(server, key, 'POST', `/v1/threads/${thread.id}/messages`, { content: 'hello' }))
        .json.data;
      await server.service.deliverer.settled();
      const events = receiver.got.map((g) => JSON.parse(g.body).data.message);
      expect(events.map((m: any) => [m.id, m.role])).toEqual([
        [sent.userMessage.id, 'user'],
        [sent.aiResponse.id, 'assistant'],
      ]);
    } finally {
      await server.close();
      await receiver.close();
    }
  });
});

describe('faults are scoped to the workspace that set them', () => {
  it('never break another workspace, apply after authentication, and never touch /_kb/*', async () => {
    const server = await startServer({ port: 0, demo: true, indexDelayMs: 0 });
    const a = server.keys.demo!;
    const b = server.keys.acme!;
    try {
      expect(
        (await api(server, a, 'POST', '/_kb/faults', { rules: ['GET /v1/threads 503 x1'] })).status,
      ).toBe(201);
      // Requests without a key, and another workspace's, do not use the rule up.
      expect((await api(server, undefined, 'GET', '/v1/threads')).status).toBe(401);
      expect((await api(server, b, 'GET', '/v1/threads')).status).toBe(200);
      expect((await api(server, b, 'GET', '/_kb/faults')).json.data).toEqual([]);
      expect((await api(server, a, 'GET', '/v1/threads')).status).toBe(503);
      expect((await api(server, a, 'GET', '/v1/threads')).status).toBe(200);

      await api(server, a, 'POST', '/_kb/faults', { rules: ['* /** hang'] });
      expect((await api(server, b, 'GET', '/v1/files')).status).toBe(200);
      expect((await api(server, a, 'GET', '/_kb/health')).status).toBe(200);
      expect((await api(server, a, 'DELETE', '/_kb/faults')).status).toBe(204);
      expect((await api(server, a, 'GET', '/v1/files')).status).toBe(200);
    } finally {
      await server.close();
    }
  });

  it('--fault rules apply to every workspace', async () => {
    const server = await startServer({
      port: 0,
      demo: true,
      indexDelayMs: 0,
      faults: ['GET /v1/users 503 x2'],
    });
    try {
      expect((await api(server, server.keys.demo, 'GET', '/v1/users')).status).toBe(503);
      expect((await api(server, server.keys.acme, 'GET', '/v1/users')).status).toBe(503);
      expect((await api(server, server.keys.acme, 'GET', '/v1/users')).status).toBe(200);
    } finally {
      await server.close();
    }
  });
});

describe('the delivery log and the contract', () => {
  it('caps the delivery log per workspace: one workspace’s traffic never erases another’s', async () => {
    const server = await startServer({
      port: 0,
      demo: true,
      indexDelayMs: 0,
      resolve: table({}),
      webhookRetrySchedule: [],
    });
    const [a, b] = [server.keys.demo!, server.keys.acme!];
    try {
      const hookA = (
        await api(server, a, 'POST', '/v1/webhooks', { url: 'https://a.example/', events: ['file.indexed'] })
      ).json.data;
      const hookB = (
        await api(server, b, 'POST', '/v1/webhooks', { url: 'https://b.example/', events: ['file.indexed'] })
      ).json.data;
      const [wsA, wsB] = [hookA, hookB].map((h) => server.service.store.webhooks.get(h.id)!.workspaceId);
      server.service.deliverer.emit(wsB!, 'file.indexed', { fileId: 'f_b' });
      for (let i = 0; i < 1005; i++)
        server.service.deliverer.emit(wsA!, 'file.indexed', { fileId: `f_${i}` });
      await server.service.deliverer.settled();
      expect(server.service.deliverer.deliveries(wsA!)).toHaveLength(1000);
      expect(server.service.deliverer.deliveries(wsB!)).toHaveLength(1);
    } finally {
      await server.close();
    }
  });

  it('answers a too-long user query with 422 and honours limit on the webhook and delivery lists', async () => {
    const server = await startServer({ port: 0, demo: true, indexDelayMs: 0, resolve: table({}) });
    const key = server.keys.demo!;
    try {
      const q = await api(server, key, 'GET', `/v1/users?q=${'a'.repeat(201)}`);
      expect([q.status, q.json.error.code]).toEqual([422, 'too_long']);
      for (const n of [1, 2])
        await api(server, key, 'POST', '/v1/webhooks', {
          url: `https://h${n}.example/`,
          events: ['file.indexed'],
        });
      const one = await api(server, key, 'GET', '/v1/webhooks?limit=1');
      expect(one.json.data).toHaveLength(1);
      expect(one.json.meta).toEqual({ returned: 1, limit: 1, nextCursor: expect.any(String), hasMore: true });
      const zero = await api(server, key, 'GET', '/v1/webhooks?limit=0');
      expect([zero.status, zero.json.error.code]).toEqual([400, 'invalid_limit']);
    } finally {
      await server.close();
    }
  });
});

describe('signing secrets and tolerances', () => {
  it('refuses an empty secret and a tolerance that is not a finite number of seconds, with a reason', () => {
    const header = signPayload('{}', 'whsec_x');
    expect(secretsProblem([''])).toBe('the secret is empty');
    expect(() => signPayload('{}', '')).toThrow(/cannot sign: the secret is empty/);
    expect(() => signPayload('{}', ['whsec_x', ''])).toThrow(TypeError);
    expect(verifySignature('{}', header, '')).toEqual({ valid: false, reason: 'the secret is empty' });
    expect(verifySignature('{}', header, [])).toEqual({ valid: false, reason: 'no secret given' });
    for (const toleranceSeconds of [Number.NaN, -1, Number.POSITIVE_INFINITY])
      expect(verifySignature('{}', header, 'whsec_x', { toleranceSeconds })).toMatchObject({
        valid: false,
        reason: expect.stringMatching(/tolerance must be a finite number of seconds/),
      });
    expect(verifySignature('{}', header, 'whsec_x', { toleranceSeconds: 0 }).valid).toBe(true);
  });
});
