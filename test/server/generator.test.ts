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
