import { afterEach, describe, expect, it } from 'vitest';
import { ChunkQueue } from '../../src/api/chunk-queue.js';
import { KbClient } from '../../src/api/client.js';
import { AbortedError } from '../../src/api/errors.js';
import { hostileServer } from '../helpers/hostile.js';

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanup) await c();
  cleanup = [];
});

describe('ChunkQueue', () => {
  it('pauses its producer while the reader is behind, resumes it once half is read, and says when the reader stops', async () => {
    const flow = { paused: 0, resumed: 0, pause: () => flow.paused++, resume: () => flow.resumed++ };
    let returned = 0;
    const queue = new ChunkQueue(() => returned++);
    queue.setFlow(flow);
    for (let i = 0; i < 40; i++) queue.push(Buffer.from(`${i}`));
    expect(flow).toMatchObject({ paused: 1, resumed: 0 });
    const read: string[] = [];
    for await (const chunk of queue) {
      read.push(chunk.toString());
      if (read.length === 30) break;
    }
    expect(flow).toMatchObject({ paused: 1, resumed: 1 });
    expect(read[29]).toBe('29');
    expect(returned).toBe(1);
  });

  it('ends with the error the body broke with, after the chunks that came before it', async () => {
    const queue = new ChunkQueue(() => {});
    queue.push(Buffer.from('a'));
    queue.end(new Error('reset'));
    queue.end(); // the first end counts
    const read: string[] = [];
    await expect(
      (async () => {
        for await (const chunk of queue) read.push(chunk.toString());
      })(),
    ).rejects.toThrow('reset');
    expect(read).toEqual(['a']);
  });
});

describe('an event stream read as it arrives', () => {
  it('is pulled by the reader: stopping early drops the connection, Ctrl-C is an AbortedError', async () => {
    let closed = 0;
    const server = await hostileServer({
      'GET /endless': (req, res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        const timer = setInterval(() => res.write(`event: delta\ndata: {"text":"x"}\n\n`), 5);
        req.socket.on('close', () => {
          clearInterval(timer);
          closed++;
        });
      },
    });
    const client = new KbClient({ baseUrl: server.url, apiKey: 'kb_test_0123456789abcdef' });
    cleanup.push(() => client.close(), server.close);

    const res = await client.request({ method: 'GET', path: '/endless', stream: true });
    let chunks = 0;
    for await (const _ of res.chunks!) if (++chunks === 3) break;
    await expect.poll(() => closed, { timeout: 2_000 }).toBe(1);

    const stop = new AbortController();
    const again = await client.request({
      method: 'GET',
      path: '/endless',
      stream: true,
      signal: stop.signal,
    });
    setTimeout(() => stop.abort(), 50);
    await expect(
      (async () => {
        for await (const _ of again.chunks!);
      })(),
    ).rejects.toBeInstanceOf(AbortedError);
    await expect.poll(() => closed, { timeout: 2_000 }).toBe(2);
  });
});
