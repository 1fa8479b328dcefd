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

describe('an upload whose body stops arriving', () => {
  it('is ended once no byte has come for the idle deadline, giving back its share of what may be in flight', async () => {
    const { connect } = await import('node:net');
    const idle = await startTestServer({ demo: true, maxFileBytes: 4096, uploadIdleMs: 300 });
    try {
      const { port } = new URL(idle.url);
      // One workspace's four uploads, each declaring the largest size and sending one byte.
      const answers = Array.from(
        { length: 4 },
        (_, i) =>
          new Promise<string>((resolve) => {
            const socket = connect(Number(port), '127.0.0.1', () =>
              socket.write(
                `POST /v1/files?filename=s${i}.txt HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${idle.keys.demo}\r\n` +
                  'Content-Type: application/octet-stream\r\nContent-Length: 4096\r\n\r\nx',
              ),
            );
            let head = '';
            socket.on('data', (d) => (head += String(d)));
            socket.on('close', () => resolve(head.split('\r\n')[0]!));
            socket.on('data', () => socket.end());
          }),
      );
      const other = () =>
        api(idle, idle.keys.acme, 'POST', '/v1/files?filename=note.txt', 'a note', {
          'content-type': 'application/octet-stream',
        });
      // Once the four are answered, another workspace's upload is taken.
      const statuses = await Promise.all(answers);
      for (const status of statuses) expect(status).toMatch(/^HTTP\/1\.1 400/);
      expect((await other()).status).toBe(201);
      expect(
        [...idle.service.store.files.values()].filter((f) => /^s\d\.txt$/.test(f.originalFilename)),
      ).toEqual([]);
    } finally {
      await idle.close();
    }
  });
});
