import { describe, expect, it } from 'vitest';
import { api, startTestServer } from '../helpers/server.js';
import { json, scriptedServer } from '../helpers/scripted.js';

describe('the optional OpenAI-compatible generator', () => {
  it('writes the reply from the retrieved chunks, cites sources, and falls back when it fails', async () => {
    const llm = await scriptedServer([
      json(200, {
        choices: [{ message: { role: 'assistant', content: 'Growth is **29 dollars** per agent.' } }],
      }),
      json(500, { error: { message: 'model overloaded' } }),
    ]);
    const server = await startTestServer({
      demo: true,
      generator: { baseUrl: `${llm.url}/v1`, model: 'tiny', apiKey: 'sk-local' },
    });
    const key = server.keys.demo!;
    const thread = (await api(server, key, 'POST', '/v1/threads', {})).json.data;
    const first = await api(server, key, 'POST', `/v1/threads/${thread.id}/messages`, {
      content: 'How much is the Growth plan?',
    });
    expect(first.json.data.aiResponse.content).toMatch(
      /^Growth is \*\*29 dollars\*\* per agent\.\n\nSources: .*\[pricing\.md\]/,
    );
    const request = llm.requests[0]!;
    expect(request.url).toBe('/v1/chat/completions');
    expect(request.headers.authorization).toBe('Bearer sk-local');
    const body = JSON.parse(request.body);
    expect(body.model).toBe('tiny');
    expect(body.messages[0].content).toContain('29 dollars per agent per month');
    expect(body.messages.at(-1)).toEqual({ role: 'user', content: 'How much is the Growth plan?' });
    const fallback = await api(server, key, 'POST', `/v1/threads/${thread.id}/messages`, {
      content: 'What does error E-4102 mean?',
    });
    expect(fallback.json.data.aiResponse.content).toContain('IMAP');
    await server.close();
    await llm.close();
  });
});

describe('the generator, streamed (beta)', () => {
  it('streams the pieces the endpoint sends (stream: true), ending with the sources line', async () => {
    const pieces = ['Growth ', 'is **29 ', 'dollars**', ' per agent.'];
    const llm = await scriptedServer([
      (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        for (const piece of pieces)
          res.write(`data: ${JSON.stringify({ choices: [{ delta: { content: piece } }] })}\n\n`);
        res.end('data: [DONE]\n\n');
      },
    ]);
    const server = await startTestServer({
      demo: true,
      generator: { baseUrl: `${llm.url}/v1`, model: 'tiny' },
    });
    const key = server.keys.demo!;
    try {
      const thread = (await api(server, key, 'POST', '/v1/threads', {})).json.data;
      const generation = (
        await api(server, key, 'POST', `/v1/threads/${thread.id}/generations`, {
          content: 'How much is Growth?',
        })
      ).json.data;
      const events = (await api(server, key, 'GET', `/v1/generations/${generation.id}/events`)).text;
      const deltas = [...events.matchAll(/event: delta\ndata: (.*)\n/g)].map((m) => JSON.parse(m[1]!).text);
      expect(deltas.slice(0, 4)).toEqual(pieces);
      expect(deltas[4]).toMatch(/^\n\nSources: .*\[pricing\.md\]/);
      expect(JSON.parse(llm.requests[0]!.body).stream).toBe(true);
      const stored = (await api(server, key, 'GET', `/v1/threads/${thread.id}`)).json.data.messages[1];
      expect(stored.content).toBe(deltas.join(''));
    } finally {
      await server.close();
      await llm.close();
    }
  });
});

describe('the generator, bounded', () => {
  const sse = (piece: string) => `data: ${JSON.stringify({ choices: [{ delta: { content: piece } }] })}\n\n`;

  async function withGenerator(
    handler: Parameters<typeof scriptedServer>[0][number],
    run: (ask: (content: string, stream?: boolean) => Promise<any>, notices: string[]) => Promise<void>,
    timeoutMs?: number,
  ) {
    const llm = await scriptedServer([handler]);
    const notices: string[] = [];
    const server = await startTestServer({
      demo: true,
      generator: { baseUrl: `${llm.url}/v1`, model: 'tiny', timeoutMs },
      onNotice: (m) => notices.push(m),
    });
    const key = server.keys.demo!;
    const ask = async (content: string, stream = false) => {
      const thread = (await api(server, key, 'POST', '/v1/threads', {})).json.data;
      if (!stream)
        return (await api(server, key, 'POST', `/v1/threads/${thread.id}/messages`, { content })).json.data
          .aiResponse;
      const generation = (await api(server, key, 'POST', `/v1/threads/${thread.id}/generations`, { content }))
        .json.data;
      await api(server, key, 'GET', `/v1/generations/${generation.id}/events`);
      return (await api(server, key, 'GET', `/v1/threads/${thread.id}`)).json.data.messages[1];
    };
    try {
      await run(ask, notices);
      if (llm.requests[0]) expect(JSON.parse(llm.requests[0].body).max_tokens).toBeGreaterThan(0);
    } finally {
      await server.close();
      await llm.close();
    }
  }

  it('caps a huge reply at a message and marks it incomplete, synchronous and streamed', async () => {
    const huge = 'x'.repeat(40_000);
    await withGenerator(
      (req, res, body) => {
        if (JSON.parse(body).stream) {
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          for (let i = 0; i < 100; i++) res.write(sse(huge));
          res.end('data: [DONE]\n\n');
        } else res.end(JSON.stringify({ choices: [{ message: { content: huge.repeat(100) } }] }));
      },
      async (ask, notices) => {
        for (const stream of [false, true]) {
          const reply = await ask('How much is the Growth plan?', stream);
          expect(reply.content.length).toBeLessThanOrEqual(32_000);
          expect(reply.content).toMatch(/^x{1000}/);
          expect(reply.incomplete).toBe(true);
        }
        expect(notices.join('\n')).toMatch(/generator http:\/\/127\.0\.0\.1:\d+\/v1: cut at \d+ characters/);
      },
    );
  });

  it('holds one deadline for a dripping stream: what came is kept, marked incomplete', async () => {
    let timer: NodeJS.Timeout | undefined;
    await withGenerator(
      (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write(sse('Growth is 29 dollars'));
        timer = setInterval(() => res.write(sse('.')), 50);
        res.on('close', () => clearInterval(timer));
      },
      async (ask, notices) => {
        const started = Date.now();
        const reply = await ask('How much is the Growth plan?', true);
        expect(Date.now() - started).toBeLessThan(5_000);
        expect(reply.content).toMatch(/^Growth is 29 dollars\.+/);
        expect(reply.incomplete).toBe(true);
        expect(notices.join('\n')).toMatch(/no complete reply within 1 s/);
      },
      1_000,
    );
    clearInterval(timer);
  });

  it('stores a stream that breaks midway as incomplete, never as complete', async () => {
    await withGenerator(
      (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write(sse('Growth is 29 '));
        setTimeout(() => res.socket?.destroy(), 50);
      },
      async (ask, notices) => {
        const reply = await ask('How much is the Growth plan?', true);
        expect(reply.content).toMatch(/^Growth is 29/);
        expect(reply.incomplete).toBe(true);
        expect(notices.join('\n')).toMatch(/stream/);
      },
    );
  });

  it('says on the console why it fell back to the documents, and asks nothing when nothing answers', async () => {
    await withGenerator(
      (_req, res) => res.writeHead(503).end('overloaded'),
      async (ask, notices) => {
        const reply = await ask('What does error E-4102 mean?');
        expect(reply.content).toContain('IMAP');
        expect(reply.incomplete).toBeUndefined();
        expect(notices).toEqual([
          expect.stringMatching(
            /^generator http:\/\/127\.0\.0\.1:\d+\/v1: answered 503; answered from the documents instead$/,
          ),
        ]);
        const none = await ask('How long is parental leave?');
        expect(none.sources).toEqual([]);
        expect(notices).toHaveLength(1);
      },
    );
  });
});
