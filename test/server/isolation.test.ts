import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server/index.js';
import { api, startTestServer } from '../helpers/server.js';

let server: RunningServer;
let a: string;
let b: string;
const ids: Record<string, string> = {};

/** Every route of the interface, with `:thread`, `:file`, `:webhook`, `:generation` standing for workspace B's ids. */
const ROUTES: [method: string, path: string, body?: unknown][] = [
  ['GET', '/v1/threads'],
  ['POST', '/v1/threads', { title: 'x' }],
  ['GET', '/v1/threads/:thread'],
  ['PATCH', '/v1/threads/:thread', { status: 'CLOSED' }],
  ['POST', '/v1/threads/:thread/messages', { content: 'rocket skates' }],
  ['POST', '/v1/threads/:thread/generations', { content: 'rocket skates' }],
  ['GET', '/v1/generations/:generation'],
  ['GET', '/v1/generations/:generation/events'],
  ['POST', '/v1/generations/:generation/cancel'],
  ['GET', '/v1/files'],
  ['GET', '/v1/files/:file'],
  ['DELETE', '/v1/files/:file'],
  ['GET', '/v1/users'],
  ['GET', '/v1/search?q=rocket%20skates'],
  ['GET', '/v1/search?q=When%20do%20they%20ship%3F&threadId=:thread'],
  ['POST', '/v1/webhooks', { url: 'https://example.com', events: ['file.indexed'] }],
  ['GET', '/v1/webhooks'],
  ['GET', '/v1/webhooks/:webhook'],
  ['GET', '/v1/webhooks/:webhook/deliveries'],
  ['DELETE', '/v1/webhooks/:webhook'],
  ['GET', '/_kb/faults'],
];

const fill = (path: string) => path.replace(/:(thread|file|webhook|generation)/, (_, k: string) => ids[k]!);

beforeAll(async () => {
  server = await startTestServer({ demo: true });
  a = server.keys.demo!;
  b = server.keys.acme!;
  ids.thread = (await api(server, b, 'GET', '/v1/threads')).json.data[0].id;
  ids.file = (await api(server, b, 'GET', '/v1/files')).json.data[0].id;
  ids.webhook = (
    await api(server, b, 'POST', '/v1/webhooks', {
      url: 'https://acme.example/hook',
      events: ['file.indexed'],
    })
  ).json.data.id;
  // In a thread of its own: B's first thread must stay empty.
  const own = (await api(server, b, 'POST', '/v1/threads', { title: 'generations' })).json.data.id;
  ids.generation = (
    await api(server, b, 'POST', `/v1/threads/${own}/generations`, { content: 'hi' })
  ).json.data.id;
});
afterAll(() => server.close());

describe.each(ROUTES)('%s %s', (method, path, body) => {
  it('answers 401 with WWW-Authenticate without a key and with an unknown key', async () => {
    for (const key of [undefined, 'kb_not_a_key']) {
      const res = await api(server, key, method, fill(path), body);
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
      expect(res.json.error.code).toBe('unauthorized');
    }
  });

  it("never shows or touches workspace B's resources with workspace A's key", async () => {
    const res = await api(server, a, method, fill(path), body);
    if (path.includes(':')) {
      expect(res.status).toBe(404);
      expect(res.text).not.toContain('acme');
    } else {
      expect(res.status).toBeLessThan(300);
      const text = res.text;
      for (const id of Object.values(ids)) expect(text).not.toContain(id);
      expect(text).not.toContain('acme');
      expect(text).not.toContain('Coyote');
    }
  });
});

it("left workspace B's resources unchanged", async () => {
  const thread = await api(server, b, 'GET', `/v1/threads/${ids.thread}`);
  expect(thread.json.data.status).toBe('OPEN');
  expect(thread.json.data.messages).toHaveLength(0);
  expect((await api(server, b, 'GET', `/v1/files/${ids.file}`)).status).toBe(200);
  expect((await api(server, b, 'GET', `/v1/webhooks/${ids.webhook}`)).status).toBe(200);
  expect((await api(server, b, 'GET', `/v1/generations/${ids.generation}`)).json.data.status).toBe(
    'completed',
  );
});

it("answers workspace A's questions from A's documents only", async () => {
  const thread = (await api(server, a, 'POST', '/v1/threads', {})).json.data;
  const res = await api(server, a, 'POST', `/v1/threads/${thread.id}/messages`, {
    content: 'When do the rocket skates ship?',
  });
  expect(res.json.data.aiResponse.content).not.toContain('acme-roadmap');
});
