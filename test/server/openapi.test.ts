import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server/index.js';
import { openApiDocument } from '../../src/server/http/openapi.js';
import { ROOT } from '../helpers/cli.js';
import { doc, operations, template, undocumented } from '../helpers/openapi.js';
import { api, startTestServer } from '../helpers/server.js';

const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

/** The operations the document lists, as `METHOD /template`. */
const documented = operations.map((o) => `${o.method} ${o.path}`);
const exercised = new Map<string, Set<number>>();

/** Calls kb serve and checks the answer against the document: status documented, body of the schema. */
async function check(
  server: RunningServer,
  key: string | undefined,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  const res = await api(server, key, method, path, body, headers);
  const problem = undocumented(method, path, {
    status: res.status,
    contentType: res.headers.get('content-type') ?? '',
    text: res.text,
  });
  expect(problem).toBeUndefined();
  const key2 = `${method} ${template(path)}`;
  exercised.set(key2, (exercised.get(key2) ?? new Set()).add(res.status));
  return res;
}

let server: RunningServer;
let key: string;
beforeAll(async () => {
  server = await startTestServer({ demo: true, allowLocalWebhooks: true });
  key = server.keys.demo!;
});
afterAll(() => server.close());

describe('the OpenAPI description', () => {
  it('is a valid OpenAPI 3.1 document, shipped as docs/openapi.json and served unauthenticated', async () => {
    expect(await new Validator().validate(doc as unknown as Parameters<Validator['validate']>[0])).toEqual({
      valid: true,
    });
    expect(doc).toEqual(openApiDocument(version));
    const served = await check(server, undefined, 'GET', '/openapi.json');
    expect(served.json).toEqual(doc);
  });

  it('describes every answer kb serve gives, on every route, success and error', async () => {
    // Threads
    await check(server, key, 'GET', '/v1/threads?limit=2');
    const page = await check(server, key, 'GET', '/v1/threads?limit=2');
    await check(server, key, 'GET', `/v1/threads?limit=2&cursor=${page.json.meta.nextCursor}`);
    await check(server, key, 'GET', '/v1/threads?cursor=nope');
    await check(server, key, 'GET', '/v1/threads?limit=0');
    await check(server, undefined, 'GET', '/v1/threads');
    await check(server, 'kb_wrong', 'GET', '/v1/threads');
    const thread = (await check(server, key, 'POST', '/v1/threads', { title: 'Contract' })).json.data;
    await check(server, key, 'POST', '/v1/threads', { title: 'x'.repeat(500) });
    await check(server, key, 'POST', '/v1/threads', '{not json');
    await check(server, key, 'GET', `/v1/threads/${thread.id}`);
    await check(server, key, 'GET', '/v1/threads/thr_none');
    await check(server, key, 'POST', `/v1/threads/${thread.id}/messages`, {
      content: 'How much is the Growth plan?',
    });
    await check(server, key, 'POST', `/v1/threads/${thread.id}/messages`, { content: '' });
    await check(server, key, 'POST', `/v1/threads/${thread.id}/messages`, {});
    await check(server, key, 'POST', '/v1/threads/thr_none/messages', { content: 'hi' });
    await check(server, key, 'GET', `/v1/threads/${thread.id}`);
    // Generations (beta)
    const generation = (
      await check(server, key, 'POST', `/v1/threads/${thread.id}/generations`, { content: 'SSO?' })
    ).json.data;
    await check(server, key, 'GET', `/v1/generations/${generation.id}/events`);
    await check(server, key, 'GET', `/v1/generations/${generation.id}/events?after=x`);
    await check(server, key, 'GET', `/v1/generations/${generation.id}`);
    await check(server, key, 'POST', `/v1/generations/${generation.id}/cancel`);
    await check(server, key, 'GET', '/v1/generations/gen_none');
    await check(server, key, 'POST', '/v1/generations/gen_none/cancel');
    await check(server, key, 'GET', '/v1/generations/gen_none/events');
    await check(server, key, 'POST', '/v1/threads/thr_none/generations', { content: 'hi' });
    await check(server, key, 'PATCH', `/v1/threads/${thread.id}`, { status: 'CLOSED' });
    await check(server, key, 'PATCH', `/v1/threads/${thread.id}`, {});
    await check(server, key, 'PATCH', '/v1/threads/thr_none', { status: 'OPEN' });
    await check(server, key, 'POST', `/v1/threads/${thread.id}/messages`, { content: 'closed now' });
    await check(server, key, 'POST', `/v1/threads/${thread.id}/generations`, { content: 'closed now' });
    // Files
    const files = (await check(server, key, 'GET', '/v1/files?limit=3')).json.data;
    await check(server, key, 'GET', '/v1/files?status=FAILED');
    await check(server, key, 'GET', '/v1/files?status=NOPE');
    const failed = (await api(server, key, 'GET', '/v1/files?status=FAILED')).json.data[0];
    await check(server, key, 'GET', `/v1/files/${failed.id}`);
    await check(server, key, 'GET', `/v1/files/${files[0].id}`);
    await check(server, key, 'DELETE', `/v1/files/${files[0].id}`);
    await check(server, key, 'DELETE', `/v1/files/${files[0].id}`);
    await check(server, key, 'GET', '/v1/files/file_none');
    const octets = { 'content-type': 'application/octet-stream' };
    await check(
      server,
      key,
      'POST',
      '/v1/files?filename=contract.txt',
      'The contract renews yearly.',
      octets,
    );
    await check(server, key, 'POST', '/v1/files?filename=..%2Fx.txt', 'x', octets);
    await check(server, key, 'POST', '/v1/files', 'x', octets);
    // Search (an extension)
    const found = await check(
      server,
      key,
      'GET',
      '/v1/search?q=How%20much%20is%20the%20Growth%20plan%3F&limit=3',
    );
    expect(found.json).toMatchObject({ answered: true });
    expect(found.json.data[0]).toMatchObject({ rank: 1, filename: 'pricing.md', answers: true });
    await check(server, key, 'GET', '/v1/search?q=flamingo%20migration%20routes');
    await check(server, key, 'GET', `/v1/search?q=And%20Enterprise%3F&threadId=${thread.id}`);
    await check(server, key, 'GET', '/v1/search?q=plan&threadId=thr_none');
    await check(server, key, 'GET', '/v1/search?q=');
    await check(server, key, 'GET', '/v1/search');
    await check(server, key, 'GET', `/v1/search?q=${'x'.repeat(2001)}`);
    await check(server, key, 'GET', '/v1/search?q=plan&limit=0');
    // Users
    await check(server, key, 'GET', '/v1/users?q=zo');
    await check(server, key, 'GET', `/v1/users?q=${'z'.repeat(300)}`);
    await check(server, key, 'GET', '/v1/users?limit=1');
    // Webhooks
    const webhook = (
      await check(server, key, 'POST', '/v1/webhooks', {
        url: 'http://127.0.0.1:9/hook',
        events: ['file.indexed'],
      })
    ).json.data;
    await check(server, key, 'POST', '/v1/webhooks', { url: 'ftp://x', events: ['file.indexed'] });
    await check(server, key, 'POST', '/v1/webhooks', { url: 'https://example.com/h', events: [] });
    await check(server, key, 'GET', '/v1/webhooks');
    await check(server, key, 'GET', '/v1/webhooks?cursor=bad');
    await check(server, key, 'GET', `/v1/webhooks/${webhook.id}`);
    await check(server, key, 'GET', `/v1/webhooks/${webhook.id}/deliveries`);
    await check(server, key, 'GET', '/v1/webhooks/wh_none/deliveries');
    await check(server, key, 'GET', '/v1/webhooks/wh_none');
    await check(server, key, 'DELETE', `/v1/webhooks/${webhook.id}`);
    await check(server, key, 'DELETE', `/v1/webhooks/${webhook.id}`);

    // Rate limits and storage faults, from services started for them.
    const limited = await startTestServer({ apiKeys: ['rl:kb_rate_key'], rateLimit: 1 });
    await check(limited, 'kb_rate_key', 'GET', '/v1/users');
    await check(limited, 'kb_rate_key', 'GET', '/v1/users');
    await limited.close();
    const faulty = await startTestServer({ apiKeys: ['f:kb_fault_key'], faults: ['GET /v1/files 503 x1'] });
    await check(faulty, 'kb_fault_key', 'GET', '/v1/files');
    await faulty.close();

    // Every documented operation was called, and answered at least one success.
    expect([...exercised.keys()].sort()).toEqual([...documented].sort());
    for (const [operation, statuses] of exercised)
      expect([operation, [...statuses].some((s) => s < 300)]).toEqual([operation, true]);
  });
});
