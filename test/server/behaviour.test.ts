import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { itWith } from '../helpers/tools.js';
import { startServer } from '../../src/server/index.js';
import { tempDir } from '../helpers/cli.js';
import { startReceiver } from '../helpers/receiver.js';
import { api, startTestServer } from '../helpers/server.js';

async function until(check: () => boolean, ms = 5000) {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('indexing pipeline and documents folder', () => {
  it('ingests a folder and files dropped later, through PENDING and PROCESSING', async () => {
    const docs = tempDir();
    writeFileSync(join(docs, 'guide.md'), '# Guide\n\nThe blue widget needs a 9 volt battery.');
    // Long enough that the first request sees PENDING on a loaded machine.
    const server = await startServer({ port: 0, docsDir: docs, indexDelayMs: 600 });
    const key = Object.values(server.keys)[0]!;
    const seen = new Set<string>();
    const first = (await api(server, key, 'GET', '/v1/files')).json.data[0];
    seen.add(first.indexingStatus);
    await until(() => server.service.store.storedFile(first.id)?.indexingStatus === 'PROCESSING');
    seen.add('PROCESSING');
    await server.service.indexer.idle();
    expect((await api(server, key, 'GET', `/v1/files/${first.id}`)).json.data.indexingStatus).toBe(
      'COMPLETED',
    );
    expect(seen.has('PENDING')).toBe(true);
    writeFileSync(join(docs, 'later.txt'), 'The red gadget is charged over USB-C in 40 minutes.');
    await until(() => server.service.store.countFiles({ workspaceId: server.workspaces[0]!.id }) === 2);
    await server.service.indexer.idle();
    const thread = (await api(server, key, 'POST', '/v1/threads', {})).json.data;
    const reply = await api(server, key, 'POST', `/v1/threads/${thread.id}/messages`, {
      content: 'How is the red gadget charged?',
    });
    expect(reply.json.data.aiResponse.content).toContain('USB-C');
    expect(reply.json.data.aiResponse.content).toContain('[later.txt]');
    await server.close();
  });
});

describe('webhook deliveries', () => {
  itWith('openssl')(
    'delivers signed events whose signature openssl reproduces, and retries non-2xx',
    async () => {
      const hook = await startReceiver();
      hook.statuses.push(500);
      const docs = tempDir();
      const server = await startTestServer({
        docsDir: docs,
        allowLocalWebhooks: true,
        webhookRetrySchedule: [50, 50],
      });
      const key = Object.values(server.keys)[0]!;
      const created = await api(server, key, 'POST', '/v1/webhooks', {
        url: hook.url,
        events: ['thread.message.created', 'file.indexed'],
      });
      expect(created.status).toBe(201);
      const secret = created.json.data.secret as string;
      const thread = (await api(server, key, 'POST', '/v1/threads', {})).json.data;
      await api(server, key, 'POST', `/v1/threads/${thread.id}/messages`, { content: 'hello' });
      // Two events (the user's message, then the assistant's); the first answered 500 and was retried.
      await until(() => hook.got.length >= 3);
      const bodies = hook.got.map((d) => d.body);
      const retried = hook.got.find((d, i) => bodies.indexOf(d.body) !== i)!;
      expect(retried.body).toBe(hook.got[0]!.body);
      const event = JSON.parse(retried!.body);
      expect(event).toMatchObject({ type: 'thread.message.created', data: { threadId: thread.id } });
      expect(event.id).toMatch(/^evt_/);
      const header = String(retried!.headers['service-signature']);
      const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header);
      expect(match).not.toBeNull();
      const openssl = execFileSync('openssl', ['dgst', '-sha256', '-hmac', secret], {
        input: retried!.body,
      }).toString();
      expect(openssl.trim().split(' ').pop()).toBe(match![2]);

      writeFileSync(join(docs, 'new.md'), 'Fresh document about comets.');
      await until(() => hook.got.some((d) => JSON.parse(d.body).type === 'file.indexed'));
      const indexed = JSON.parse(hook.got.find((d) => JSON.parse(d.body).type === 'file.indexed')!.body);
      expect(indexed.data).toMatchObject({ originalFilename: 'new.md', indexingStatus: 'COMPLETED' });
      const log = await api(server, key, 'GET', `/v1/webhooks/${created.json.data.id}/deliveries`);
      expect(log.json.data.some((d: any) => d.attempts.length === 2 && d.state === 'succeeded')).toBe(true);
      await server.close();
      await hook.close();
    },
  );
});

describe('fault plan', () => {
  it('injects the planned faults in order, then serves normally', async () => {
    const server = await startTestServer({
      faults: ['GET /v1/threads 503 x2', 'GET /v1/users 429 retry-after=1 x1'],
    });
    const key = Object.values(server.keys)[0]!;
    expect((await api(server, key, 'GET', '/v1/threads')).status).toBe(503);
    expect((await api(server, key, 'GET', '/v1/threads')).status).toBe(503);
    expect((await api(server, key, 'GET', '/v1/threads')).status).toBe(200);
    const limited = await api(server, key, 'GET', '/v1/users');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('1');
    const set = await api(server, key, 'POST', '/_kb/faults', { rules: ['GET /v1/files html x1'] });
    expect(set.status).toBe(201);
    const html = await api(server, key, 'GET', '/v1/files');
    expect(html.status).toBe(502);
    expect(html.headers.get('content-type')).toMatch(/text\/html/);
    expect((await api(server, key, 'POST', '/_kb/faults', { rules: ['nonsense'] })).status).toBe(400);
    await server.close();
  });
});

describe('message order and closed threads', () => {
  it('stores concurrent messages of one thread in the order they were accepted, whatever the reply delay', async () => {
    const server = await startTestServer({ demo: true, replyDelayMs: 150 });
    const key = server.keys.demo!;
    try {
      const thread = (await api(server, key, 'POST', '/v1/threads', { title: 'order' })).json.data;
      const sends = [1, 2, 3].map(async (n) => {
        await new Promise((r) => setTimeout(r, n * 20));
        return api(server, key, 'POST', `/v1/threads/${thread.id}/messages`, { content: `question ${n}` });
      });
      expect((await Promise.all(sends)).map((r) => r.status)).toEqual([201, 201, 201]);
      const messages = (await api(server, key, 'GET', `/v1/threads/${thread.id}`)).json.data.messages;
      expect(messages.map((m: any) => (m.role === 'user' ? m.content : m.role))).toEqual([
        'question 1',
        'assistant',
        'question 2',
        'assistant',
        'question 3',
        'assistant',
      ]);
      const times = messages.map((m: any) => m.createdAt);
      expect([...times].sort()).toEqual(times);
    } finally {
      await server.close();
    }
  });

  it('answers 409 and stores nothing when the thread is closed while the reply is written', async () => {
    const server = await startTestServer({ demo: true, replyDelayMs: 300 });
    const key = server.keys.demo!;
    try {
      const thread = (await api(server, key, 'POST', '/v1/threads', { title: 'closing' })).json.data;
      const sending = api(server, key, 'POST', `/v1/threads/${thread.id}/messages`, { content: 'hello?' });
      await new Promise((r) => setTimeout(r, 50));
      expect((await api(server, key, 'PATCH', `/v1/threads/${thread.id}`, { status: 'CLOSED' })).status).toBe(
        200,
      );
      const res = await sending;
      expect(res.status).toBe(409);
      expect(res.json.error.code).toBe('thread_not_open');
      expect((await api(server, key, 'GET', `/v1/threads/${thread.id}`)).json.data.messages).toEqual([]);
    } finally {
      await server.close();
    }
  });
});

describe('follow-up questions', () => {
  it('are steered by the previous question, but a new subject keeps its own best match', async () => {
    const server = await startTestServer({ demo: true });
    const key = server.keys.demo!;
    try {
      const thread = (await api(server, key, 'POST', '/v1/threads', { title: 'follow-ups' })).json.data;
      const ask = async (content: string) =>
        (await api(server, key, 'POST', `/v1/threads/${thread.id}/messages`, { content })).json.data
          .aiResponse;
      await ask('How much is the Growth plan?');
      const enterprise = await ask('And Enterprise?');
      expect(enterprise.sources[0]).toBe('pricing.md');
      await ask('What does error E-4102 mean?');
      const sso = await ask('Which plan includes single sign-on?');
      expect(sso.content.split(/(?<=\.)\s/)[0]).toMatch(/single sign-on|SSO/);
      expect(sso.sources).toEqual(['pricing.md']);
      // Okta is in no document: nothing answers it, whatever came before.
      const okta = await ask('Does SSO work with Okta?');
      expect(okta.sources).toEqual([]);
      expect(okta.content).toMatch(/couldn't find anything/);
    } finally {
      await server.close();
    }
  });
});

describe('cancelling a queued generation', () => {
  it('answers at once, stores no empty reply, and the turn before it is untouched', async () => {
    const server = await startTestServer({ demo: true, replyDelayMs: 2_000 });
    const key = server.keys.demo!;
    try {
      const thread = (await api(server, key, 'POST', `/v1/threads`, {})).json.data;
      const post = async (content: string) =>
        (await api(server, key, 'POST', `/v1/threads/${thread.id}/generations`, { content })).json.data;
      const first = await post('How much is Growth?');
      const queued = await post('What does error E-4102 mean?');
      const started = Date.now();
      const cancelled = await api(server, key, 'POST', `/v1/generations/${queued.id}/cancel`);
      // At once: not after the 2 s turn before it, nor its own 2 s more.
      expect(Date.now() - started).toBeLessThan(1_000);
      expect(cancelled.json.data).toMatchObject({ status: 'cancelled', userMessage: { role: 'user' } });
      expect(cancelled.json.data.aiResponse).toBeUndefined();
      const events = await api(server, key, 'GET', `/v1/generations/${queued.id}/events`);
      expect(events.text).toMatch(/event: cancelled\ndata: \{"userMessage":\{[^\n]*\},"aiResponse":null\}/);

      await expect
        .poll(async () => (await api(server, key, 'GET', `/v1/generations/${first.id}`)).json.data.status, {
          timeout: 10_000,
        })
        .toBe('completed');
      const messages = (await api(server, key, 'GET', `/v1/threads/${thread.id}`)).json.data.messages;
      expect(messages.map((m: any) => [m.role, m.content.slice(0, 20)])).toEqual([
        ['user', 'How much is Growth?'],
        ['assistant', expect.stringContaining('Growth')],
        ['user', 'What does error E-41'],
      ]);
      expect(messages.some((m: any) => m.role === 'assistant' && m.content === '')).toBe(false);
    } finally {
      await server.close();
    }
  });
});
