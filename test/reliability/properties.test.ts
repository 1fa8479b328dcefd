import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server/index.js';
import { getJson } from '../helpers/http.js';
import { startTestServer } from '../helpers/server.js';

let server: RunningServer;
let key: string;
let threadId: string;

beforeAll(async () => {
  server = await startTestServer({ demo: true });
  key = server.keys.demo!;
  threadId = (
    await getJson(`${server.url}/v1/threads`, { method: 'POST', headers: { authorization: `Bearer ${key}` } })
  ).data.id;
});
afterAll(() => server.close());

async function send(method: string, path: string, body?: string, contentType = 'application/json') {
  const response = await fetch(server.url + path, {
    method,
    headers: {
      authorization: `Bearer ${key}`,
      ...(body !== undefined ? { 'content-type': contentType } : {}),
    },
    body,
  });
  const text = await response.text();
  return { status: response.status, text, requestId: response.headers.get('x-request-id') };
}

function expectHandled(res: { status: number; text: string; requestId: string | null }) {
  expect(res.status).toBeLessThan(500);
  expect(res.requestId).toMatch(/^req_/);
  if (res.status >= 400 && res.status !== 405) {
    const body = JSON.parse(res.text);
    expect(typeof body.error.code).toBe('string');
    expect(typeof body.error.message).toBe('string');
  }
}

const anyJson = fc.oneof(
  fc.jsonValue().map((v) => JSON.stringify(v)),
  fc.string(),
  fc.constant(''),
  fc.constant('{"content":'),
);
const ROUTES: [string, () => string][] = [
  ['POST', () => '/v1/threads'],
  ['POST', () => `/v1/threads/${threadId}/messages`],
  ['POST', () => '/v1/webhooks'],
  ['PATCH', () => `/v1/threads/${threadId}`],
];

describe('request validation never fails with a 500 or a crash', () => {
  it('for random bodies on every write route', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...ROUTES), anyJson, async ([method, path], body) => {
        expectHandled(await send(method, path(), body));
      }),
      { numRuns: 300 },
    );
  });

  it('for random objects with the expected field names', async () => {
    const fieldValue = fc.oneof(
      fc.string(),
      fc.integer(),
      fc.boolean(),
      fc.constant(null),
      fc.array(fc.string()),
      fc.object(),
    );
    const body = fc.record(
      { title: fieldValue, content: fieldValue, url: fieldValue, events: fieldValue, status: fieldValue },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...ROUTES), body, async ([method, path], value) => {
        expectHandled(await send(method, path(), JSON.stringify(value)));
      }),
      { numRuns: 300 },
    );
  });

  it('for random query strings on every list route', async () => {
    const query = fc.dictionary(fc.constantFrom('limit', 'status', 'q', 'cursor', 'x'), fc.string(), {
      maxKeys: 4,
    });
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('/v1/threads', '/v1/files', '/v1/users', '/v1/webhooks'),
        query,
        async (path, params) => {
          expectHandled(await send('GET', `${path}?${new URLSearchParams(params)}`));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('for random ids in every path with an id', async () => {
    const id = fc.string({ minLength: 1, maxLength: 80 }).map(encodeURIComponent);
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(
          'GET /v1/threads/',
          'GET /v1/files/',
          'DELETE /v1/files/',
          'GET /v1/webhooks/',
          'DELETE /v1/webhooks/',
          'POST /v1/threads/',
        ),
        id,
        async (route, value) => {
          const [method, prefix] = route.split(' ');
          const path = method === 'POST' ? `${prefix}${value}/messages` : `${prefix}${value}`;
          const res = await send(method!, path, method === 'POST' ? '{"content":"hi"}' : undefined);
          expectHandled(res);
          expect([400, 404, 405]).toContain(res.status);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('for random content types and raw bytes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string(), fc.uint8Array({ maxLength: 200 }), async (type, bytes) => {
        const response = await fetch(`${server.url}/v1/threads`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${key}`,
            'content-type': type.replace(/[^\x20-\x7e]/g, '') || 'x/y',
          },
          body: bytes,
        });
        await response.arrayBuffer();
        expect(response.status).toBeLessThan(500);
      }),
      { numRuns: 200 },
    );
    // and the service still works afterwards
    expect((await send('GET', '/v1/threads')).status).toBe(200);
  });
});
