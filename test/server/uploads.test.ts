import { connect } from 'node:net';
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
    const before = server.service.store.everyFile().length;
    // Others' uploads being received hold all of it.
    expect(budget.reserve('ws_a', budget.limit / 2)).toBeUndefined();
    expect(budget.reserve('ws_b', budget.limit / 2 - 100)).toBeUndefined();
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
      expect(server.service.store.everyFile().length).toBe(before);
    } finally {
      budget.release('ws_a', budget.limit / 2);
      budget.release('ws_b', budget.limit / 2 - 100);
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
      // Two ended at the idle bound; two were over the workspace's share of what may be in flight.
      expect(statuses.map((s) => s.slice(9, 12)).sort()).toEqual(['400', '400', '503', '503']);
      expect((await other()).status).toBe(201);
      expect(idle.service.store.everyFile().filter((f) => /^s\d\.txt$/.test(f.originalFilename))).toEqual([]);
    } finally {
      await idle.close();
    }
  });
});

/**
 * An upload of `declared` bytes on a raw socket, sending one byte at once and then one every
 * `everyMs` (without it, none): the socket, and the status line it is answered with.
 */
function rawUpload(url: string, key: string, name: string, declared: number, everyMs?: number) {
  let timer: NodeJS.Timeout | undefined;
  const socket = connect(Number(new URL(url).port), '127.0.0.1', () => {
    socket.write(
      `POST /v1/files?filename=${name} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\n` +
        `Content-Type: application/octet-stream\r\nContent-Length: ${declared}\r\n\r\nx`,
    );
    if (everyMs) timer = setInterval(() => socket.write('x'), everyMs);
  });
  socket.on('error', () => {});
  socket.on('close', () => clearInterval(timer));
  const answer = new Promise<string>((resolve) =>
    socket.once('data', (d) => {
      clearInterval(timer);
      resolve(String(d).split('\r\n')[0]!);
      socket.end();
    }),
  );
  return { socket, answer };
}

describe("one workspace's uploads in flight", () => {
  it('may take half of what may be in flight: another workspace can still upload while they stall', async () => {
    const busy = await startTestServer({ demo: true, maxFileBytes: 4096, uploadIdleMs: 120_000 });
    const stalled: ReturnType<typeof rawUpload>[] = [];
    try {
      // Four uploads of one workspace declaring the largest size, sending one byte and stalling.
      for (let i = 0; i < 4; i++) stalled.push(rawUpload(busy.url, busy.keys.demo!, `s${i}.txt`, 4096));
      // Two of them are over the workspace's share: answered at once.
      const first = await Promise.race(stalled.map((u) => u.answer));
      expect(first).toMatch(/^HTTP\/1\.1 503/);
      const another = await api(busy, busy.keys.acme, 'POST', '/v1/files?filename=note.txt', 'a note', {
        'content-type': 'application/octet-stream',
      });
      expect(another.status).toBe(201);
      const mine = await api(busy, busy.keys.demo, 'POST', '/v1/files?filename=more.txt', 'more', {
        'content-type': 'application/octet-stream',
      });
      expect(mine.status).toBe(503);
      expect(mine.json.error.code).toBe('uploads_busy');
      expect(mine.json.error.message).toContain('this workspace');
    } finally {
      for (const { socket } of stalled) socket.destroy();
      await busy.close();
    }
  }, 60_000);
});

describe('an upload whose body trickles in', () => {
  it('is ended at its deadline (the idle bound plus its size at 64 KiB/s), however often a byte comes', async () => {
    const slow = await startTestServer({ demo: true, maxFileBytes: 4096, uploadIdleMs: 1000 });
    try {
      // A byte every 200 ms never trips the 1 s idle bound; 4096 bytes would take 13 minutes.
      const status = await rawUpload(slow.url, slow.keys.demo!, 'trickle.txt', 4096, 200).answer;
      expect(status).toMatch(/^HTTP\/1\.1 400/);
      expect(slow.service.uploadBudget.limit).toBe(4 * 4096);
      expect(slow.service.store.everyFile().filter((f) => f.originalFilename === 'trickle.txt')).toEqual([]);
    } finally {
      await slow.close();
    }
  }, 60_000);
});
