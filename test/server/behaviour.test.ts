import { execFileSync, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startServer } from '../../src/server/index.js';
import { BIN, baseEnv, tempDir } from '../helpers/cli.js';
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
    const server = await startServer({ port: 0, docsDir: docs, indexDelayMs: 150 });
    const key = Object.values(server.keys)[0]!;
    const seen = new Set<string>();
    const first = (await api(server, key, 'GET', '/v1/files')).json.data[0];
    seen.add(first.indexingStatus);
    await until(() => server.service.store.files.get(first.id)?.indexingStatus === 'PROCESSING');
    seen.add('PROCESSING');
    await server.service.indexer.idle();
    expect((await api(server, key, 'GET', `/v1/files/${first.id}`)).json.data.indexingStatus).toBe(
      'COMPLETED',
    );
    expect(seen.has('PENDING')).toBe(true);
    writeFileSync(join(docs, 'later.txt'), 'The red gadget is charged over USB-C in 40 minutes.');
    await until(() => server.service.store.listFiles(server.workspaces[0]!.id).length === 2);
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
  it('delivers signed events whose signature openssl reproduces, and retries non-2xx', async () => {
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
    await until(() => hook.got.length >= 2);
    const [failed, retried] = hook.got;
    expect(retried!.body).toBe(failed!.body);
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
  });
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

describe('--data persistence', () => {
  it('keeps every acknowledged write across kill -9', async () => {
    const dir = tempDir();
    const data = join(dir, 'state.jsonl');
    const start = () =>
      new Promise<{ child: ReturnType<typeof spawn>; url: string }>((resolve, reject) => {
        const child = spawn(
          process.execPath,
          [BIN, 'serve', '--port', '0', '--data', data, '--api-key', 'main:kb_persist_key', '--json'],
          {
            env: baseEnv(dir),
          },
        );
        let out = '';
        child.stdout!.on('data', (d) => {
          out += d;
          if (out.includes('\n')) resolve({ child, url: JSON.parse(out.split('\n')[0]!).url });
        });
        child.on('exit', (code) => reject(new Error(`serve exited ${code}`)));
      });
    const first = await start();
    const acknowledged: string[] = [];
    const writes = Array.from({ length: 40 }, async (_, i) => {
      const res = await api(first, 'kb_persist_key', 'POST', '/v1/threads', { title: `t${i}` }).catch(
        () => undefined,
      );
      if (res?.status === 201) acknowledged.push(res.json.data.id);
    });
    await new Promise((r) => setTimeout(r, 15));
    first.child.kill('SIGKILL');
    await Promise.allSettled(writes);
    const second = await start();
    const stored = (await api(second, 'kb_persist_key', 'GET', '/v1/threads?limit=100')).json.data.map(
      (t: any) => t.id,
    );
    for (const id of acknowledged) expect(stored).toContain(id);
    second.child.kill('SIGTERM');
  });
});
