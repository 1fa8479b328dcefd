import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server/index.js';
import { api, startTestServer } from '../helpers/server.js';

let server: RunningServer;
beforeAll(async () => {
  server = await startTestServer({ demo: true, maxFileBytes: 4096 });
});
afterAll(() => server.close());

/** Signs in to the web console as a browser would: its cookie and anti-CSRF token. */
async function signIn(): Promise<{ cookie: string; csrf: string }> {
  const res = await fetch(`${server.url}/console/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.url },
    body: new URLSearchParams({ key: server.keys.demo! }).toString(),
    redirect: 'manual',
  });
  const cookie = res.headers.get('set-cookie')!.split(';')[0]!;
  const page = await (await fetch(`${server.url}/`, { headers: { cookie } })).text();
  return { cookie, csrf: /<meta name="csrf-token" content="([^"]+)"/.exec(page)![1]! };
}

describe('uploads past what may be in flight', () => {
  it('are refused by the API and the console alike: 503 uploads_busy with Retry-After, nothing kept', async () => {
    const budget = server.service.uploadBudget;
    expect(budget.limit).toBe(4 * 4096);
    const before = server.service.store.files.size;
    // Others' uploads being received hold all of it.
    expect(budget.reserve(budget.limit - 100)).toBe(true);
    try {
      const viaApi = await api(
        server,
        server.keys.demo,
        'POST',
        '/v1/files?filename=a.txt',
        'x'.repeat(200),
        {
          'content-type': 'application/octet-stream',
        },
      );
      expect(viaApi.status).toBe(503);
      expect(viaApi.json.error.code).toBe('uploads_busy');
      expect(viaApi.headers.get('retry-after')).toBe('2');
      const { cookie, csrf } = await signIn();
      const viaConsole = await fetch(`${server.url}/console/uploads?filename=b.txt`, {
        method: 'POST',
        headers: {
          'content-type': 'application/octet-stream',
          cookie,
          origin: server.url,
          'x-csrf-token': csrf,
        },
        body: 'x'.repeat(200),
      });
      expect(viaConsole.status).toBe(503);
      expect(((await viaConsole.json()) as any).error.code).toBe('uploads_busy');
      expect(viaConsole.headers.get('retry-after')).toBe('2');
      expect(server.service.store.files.size).toBe(before);
    } finally {
      budget.release(budget.limit - 100);
    }
    // Once they end, the same upload is taken.
    const taken = await api(server, server.keys.demo, 'POST', '/v1/files?filename=a.txt', 'x'.repeat(200), {
      'content-type': 'application/octet-stream',
    });
    expect(taken.status).toBe(201);
  });
});
