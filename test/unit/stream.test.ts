import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KbClient } from '../../src/api/client.js';
import { InvalidResponseError } from '../../src/api/errors.js';
import { SseParser } from '../../src/api/sse.js';
import type { StreamEvent } from '../../src/api/stream.js';
import type { RunningServer } from '../../src/server/index.js';
import { hostileServer, send } from '../helpers/hostile.js';
import { api, startTestServer } from '../helpers/server.js';

let server: RunningServer;
beforeAll(async () => {
  server = await startTestServer({ demo: true, streamDelayMs: 5 });
});
afterAll(() => server.close());

const collect = async (events: AsyncIterable<StreamEvent>) => {
  const all: StreamEvent[] = [];
  for await (const e of events) all.push(e);
  return all;
};
const newThread = async () =>
  (await api(server, server.keys.demo, 'POST', '/v1/threads', { title: 'stream' })).json.data.id as string;

describe('SseParser', () => {
  it('splits events across any chunk boundary, UTF-8 included', () => {
    const text =
      'id: 1\nevent: delta\ndata: {"text":"Zoë"}\n\n: comment\nid: 2\nevent: delta\ndata: a\ndata: b\n\n';
    const bytes = Buffer.from(text);
    const parser = new SseParser();
    const events = [...bytes].flatMap((b) => parser.push(Uint8Array.of(b)));
    expect(events).toEqual([
      { id: '1', event: 'delta', data: '{"text":"Zoë"}' },
      { id: '2', event: 'delta', data: 'a\nb' },
    ]);
  });

  it('ends lines at \\r\\n split across chunks once, not twice', () => {
    const parser = new SseParser();
    const events = [
      ...parser.push(Buffer.from('data: a\r')),
      ...parser.push(Buffer.from('\n\r')),
      ...parser.push(Buffer.from('\ndata: b\r\n\r\n')),
    ];
    expect(events).toEqual([
      { id: undefined, event: 'message', data: 'a' },
      { id: undefined, event: 'message', data: 'b' },
    ]);
  });

  it('reads a long line a chunk at a time without reading it again, and refuses one past the limit', () => {
    const parser = new SseParser();
    const chunk = Buffer.from('x'.repeat(64 * 1024));
    parser.push(Buffer.from('event: delta\ndata: '));
    for (let i = 0; i < 100; i++) expect(parser.push(chunk)).toEqual([]);
    const [event] = parser.push(Buffer.from('\n\n'));
    expect(event!.data.length).toBe(100 * 64 * 1024);
    // An event that never ends: refused once it passes the line limit, never held whole.
    const endless = new SseParser();
    expect(() => {
      for (let i = 0; i < 1000; i++) endless.push(chunk);
    }).toThrow(/a line longer than 8388608 characters/);
  });
});

describe('the events of a generation', () => {
  it('end with the terminal event for a reader resuming past the end; past the end of a finished one is a 400', async () => {
    const id = await newThread();
    const started = await api(server, server.keys.demo, 'POST', `/v1/threads/${id}/generations`, {
      content: 'What does error E-4102 mean?',
    });
    const generation = started.json.data.id as string;
    const res = await fetch(`${server.url}/v1/generations/${generation}/events`, {
      headers: { authorization: `Bearer ${server.keys.demo}`, 'last-event-id': '1000000' },
      signal: AbortSignal.timeout(10_000),
    });
    // Before the fix this body never ended: the terminal event was filtered out as seen.
    const body = await res.text();
    expect(body).toMatch(/^id: \d+\nevent: completed\ndata: \{"userMessage"/);
    expect(body.match(/^event: /gm)).toHaveLength(1);
    const past = await api(
      server,
      server.keys.demo,
      'GET',
      `/v1/generations/${generation}/events?after=1000000`,
    );
    expect([past.status, past.json.error.code]).toEqual([400, 'invalid_cursor']);
    expect(past.json.error.message).toMatch(
      /^event 1000000 is past the end: the generation ended with event \d+$/,
    );
  });
});

describe('client.threads.stream', () => {
  it('yields started, the deltas in order, then completed with the stored exchange', async () => {
    const client = new KbClient({ baseUrl: server.url, apiKey: server.keys.demo });
    const id = await newThread();
    const events = await collect(client.threads.stream(id, { content: 'What does error E-4102 mean?' }));
    expect(events[0]).toMatchObject({ type: 'started', threadId: id });
    const deltas = events.filter((e) => e.type === 'delta');
    expect(deltas.length).toBeGreaterThan(5);
    expect(deltas.map((e) => (e as { seq: number }).seq)).toEqual(deltas.map((_, i) => i + 1));
    const done = events.at(-1) as Extract<StreamEvent, { type: 'completed' }>;
    expect(done.type).toBe('completed');
    expect(deltas.map((e) => (e as { text: string }).text).join('')).toBe(done.exchange.aiResponse.content);
    const stored = (await api(server, server.keys.demo, 'GET', `/v1/threads/${id}`)).json.data.messages;
    expect(stored.map((m: { id: string }) => m.id)).toEqual([
      done.exchange.userMessage.id,
      done.exchange.aiResponse.id,
    ]);
    await client.close();
  });

  it('resumes a dropped stream from the last event: every event exactly once', async () => {
    const client = new KbClient({ baseUrl: server.url, apiKey: server.keys.demo });
    const id = await newThread();
    await api(server, server.keys.demo, 'POST', '/_kb/faults', {
      rules: ['GET /v1/generations/*/events drop after=3 x2'],
    });
    const events = await collect(client.threads.stream(id, { content: 'How much is the Growth plan?' }));
    const seqs = events.filter((e) => 'seq' in e).map((e) => (e as { seq: number }).seq);
    expect(seqs).toEqual(seqs.map((_, i) => i + 1));
    expect(events.at(-1)!.type).toBe('completed');
    expect((await api(server, server.keys.demo, 'GET', '/_kb/faults')).json.data).toEqual([]);
    await client.close();
  });

  it('resumes a stream whose service is away for a second and a half (a restart), not only for a moment', async () => {
    const message = (id: string, role: string, content: string) => ({
      id,
      threadId: 'thr_1',
      role,
      content,
      createdAt: '2026-11-24T00:00:00Z',
    });
    const completed = JSON.stringify({
      userMessage: message('msg_1', 'user', 'Hello?'),
      aiResponse: message('msg_2', 'assistant', 'Hello there.'),
    });
    const listen = (server: Server, port = 0) =>
      new Promise<number>((resolve) =>
        server.listen(port, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
      );
    const first = createServer((req, res) => {
      if (req.method === 'POST') {
        res.writeHead(202, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ data: { id: 'gen_1', threadId: 'thr_1' } }));
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('id: 1\nevent: delta\ndata: {"text":"Hello"}\n\n');
      // The service stops mid-reply: the connection drops, and nothing listens for 1.5 s.
      setTimeout(() => {
        first.closeAllConnections();
        first.close();
        setTimeout(() => void listen(second, port), 1500);
      }, 50);
    });
    const second = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(`id: 2\nevent: completed\ndata: ${completed}\n\n`);
    });
    const port = await listen(first);
    const client = new KbClient({ baseUrl: `http://127.0.0.1:${port}`, apiKey: 'kb_test' });
    try {
      const events = await collect(client.threads.stream('thr_1', { content: 'Hello?' }));
      expect(events.map((e) => e.type)).toEqual(['started', 'delta', 'completed']);
    } finally {
      await client.close();
      second.close();
    }
  }, 15_000);

  it('cancels a generation: what was written is stored, marked incomplete', async () => {
    const slow = await startTestServer({ demo: true, streamDelayMs: 50 });
    const client = new KbClient({ baseUrl: slow.url, apiKey: slow.keys.demo });
    const id = (await api(slow, slow.keys.demo, 'POST', '/v1/threads', { title: 'cancel' })).json.data.id;
    let generation = '';
    let seen = '';
    for await (const e of client.threads.stream(id, { content: 'How much is the Growth plan?' })) {
      if (e.type === 'started') generation = e.generationId;
      if (e.type === 'delta') seen += e.text;
      if (seen.length > 20) break;
    }
    const stored = await client.threads.cancelGeneration(generation);
    expect(stored!.aiResponse).toMatchObject({ incomplete: true });
    expect(stored!.aiResponse.content.startsWith(seen)).toBe(true);
    expect(stored!.aiResponse.content.length).toBeLessThan(200);
    await client.close();
    await slow.close();
  });

  it('a generation cancelled while it waits for its turn ends with a cancelled event and nothing kept', async () => {
    const slow = await startTestServer({ demo: true, replyDelayMs: 1_000 });
    const client = new KbClient({ baseUrl: slow.url, apiKey: slow.keys.demo });
    const id = (await api(slow, slow.keys.demo, 'POST', '/v1/threads', { title: 'queued' })).json.data.id;
    await api(slow, slow.keys.demo, 'POST', `/v1/threads/${id}/generations`, { content: 'first' });
    const events: StreamEvent[] = [];
    for await (const e of client.threads.stream(id, { content: 'second' })) {
      events.push(e);
      if (e.type === 'started') expect(await client.threads.cancelGeneration(e.generationId)).toBeUndefined();
    }
    expect(events.map((e) => e.type)).toEqual(['started', 'cancelled']);
    expect(events[1]).toEqual({ type: 'cancelled', seq: 1 });
    await client.close();
    await slow.close();
  });

  it('refuses a completed event without its messages, data that is not JSON, and an endless event: one error each', async () => {
    const stream = (body: string) =>
      hostileServer({
        'POST /v1/threads/thr_1/generations': send(202, '{"data":{"id":"gen_1"}}'),
        'GET /v1/generations/gen_1/events': send(200, body, 'text/event-stream'),
      });
    for (const [body, message] of [
      [
        'id: 1\nevent: completed\ndata: null\n\n',
        'the event stream sent a completed event without the two messages',
      ],
      ['id: 1\nevent: delta\ndata: {nope\n\n', 'the event stream sent a delta event whose data is not JSON'],
      [
        `id: 1\nevent: delta\ndata: ${'x'.repeat(9 * 1024 * 1024)}`,
        'the event stream sent a line longer than 8388608 characters',
      ],
    ]) {
      const hostile = await stream(body!);
      const client = new KbClient({ baseUrl: hostile.url, apiKey: 'k' });
      const error = await collect(client.threads.stream('thr_1', { content: 'q' })).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InvalidResponseError);
      expect((error as Error).message).toBe(message);
      await client.close();
      await hostile.close();
    }
  });

  it('falls back to posting synchronously where the service has no streaming interface', async () => {
    const createdAt = '2026-11-22T10:00:00Z';
    const exchange = {
      userMessage: { id: 'm1', role: 'user', content: 'q', createdAt },
      aiResponse: { id: 'm2', role: 'assistant', content: 'whole reply', createdAt },
    };
    const plain = await hostileServer({
      'POST /v1/threads/thr_1/messages': send(201, JSON.stringify({ data: exchange })),
    });
    const client = new KbClient({ baseUrl: plain.url, apiKey: 'k' });
    expect(await collect(client.threads.stream('thr_1', { content: 'q' }))).toEqual([
      { type: 'completed', seq: 1, exchange, streamed: false },
    ]);
    await client.close();
    await plain.close();
  });
});
