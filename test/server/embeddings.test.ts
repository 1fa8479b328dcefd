import { describe, expect, it } from 'vitest';
import { embed, EmbeddingsFailed } from '../../src/server/search/embeddings/client.js';
import { docsFolder } from '../helpers/documents.js';
import { fakeEmbeddingsServer } from '../helpers/fake-embeddings.js';
import { json, scriptedServer } from '../helpers/scripted.js';
import { api, startTestServer } from '../helpers/server.js';

describe('the embeddings client', () => {
  it('asks in batches and returns unit vectors in input order (by their index)', async () => {
    const server = await scriptedServer([
      (_req, res, body) => {
        const { input, model } = JSON.parse(body) as { input: string[]; model: string };
        expect(model).toBe('m');
        res.end(
          JSON.stringify({
            data: input.map((t, index) => ({ index, embedding: [t.length, 0, 0] })).reverse(),
          }),
        );
      },
    ]);
    try {
      const vectors = await embed({ baseUrl: `${server.url}/v1/`, model: 'm', batchSize: 2 }, [
        'a',
        'bb',
        'ccc',
      ]);
      expect(vectors.map((x) => Array.from(x))).toEqual([
        [1, 0, 0],
        [1, 0, 0],
        [1, 0, 0],
      ]);
      expect(server.requests.map((r) => r.url)).toEqual(['/v1/embeddings', '/v1/embeddings']);
      expect(JSON.parse(server.requests[0]!.body).input).toEqual(['a', 'bb']);
    } finally {
      await server.close();
    }
  });

  it.each([
    ['an error status', json(500, {}), /^answered 500$/],
    ['too few vectors', json(200, { data: [] }), /^0 vectors for 1 inputs$/],
    ['a vector of strings', json(200, { data: [{ embedding: ['x'] }] }), /not a list of numbers/],
    ['a vector that is not finite', json(200, { data: [{ embedding: [1, null] }] }), /not a list of numbers/],
    ['not JSON', (_req: unknown, res: { end: (s: string) => void }) => res.end('<html>'), /not JSON/],
  ])('refuses %s with one reason', async (_name, handler, reason) => {
    const server = await scriptedServer([handler as never]);
    try {
      const error = await embed({ baseUrl: server.url, model: 'm' }, ['a']).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(EmbeddingsFailed);
      expect((error as Error).message).toMatch(reason);
    } finally {
      await server.close();
    }
  });

  it('gives up on an endpoint that never answers, at its deadline', async () => {
    const server = await scriptedServer([() => {}]);
    try {
      const started = Date.now();
      const error = await embed({ baseUrl: server.url, model: 'm', timeoutMs: 300 }, ['a']).catch(
        (e: unknown) => e,
      );
      expect((error as Error).message).toBe('no answer within 0.3 s');
      expect(Date.now() - started).toBeLessThan(2_000);
    } finally {
      await server.close();
    }
  });
});

describe('an embeddings endpoint that stops answering (#35)', () => {
  const DOCS = {
    'backups.md': '# Backups\n\nBackups run nightly at 2 am and are kept for 30 days.',
    'benefits.md': '# Benefits\n\nParental leave is sixteen weeks at full pay.',
  };

  async function serveWith(coolDownMs: number) {
    const fake = await fakeEmbeddingsServer();
    const notices: string[] = [];
    const server = await startTestServer({
      docsDir: docsFolder(DOCS).docs,
      embeddings: { baseUrl: fake.url, model: 'm', questionTimeoutMs: 1_000, coolDownMs },
      onNotice: (m) => notices.push(m),
    });
    const key = Object.values(server.keys)[0]!;
    const ask = async (content: string): Promise<string[]> => {
      const thread = (await api(server, key, 'POST', '/v1/threads', {})).json.data;
      const sent = await api(server, key, 'POST', `/v1/threads/${thread.id}/messages`, { content });
      return sent.json.data.aiResponse.sources;
    };
    const close = async () => {
      await server.close();
      await fake.close();
    };
    return { fake, notices, ask, close };
  }

  // It was asked for every message, each waiting out its 60 s deadline.
  it('costs one question its short deadline, then answers by BM25 without asking for the cool-down, said once', async () => {
    const { fake, notices, ask, close } = await serveWith(10 * 60_000);
    try {
      fake.hanging(true);
      const asked = fake.requests();
      expect(await ask('How long are backups kept?')).toEqual(['backups.md']);
      expect(fake.requests()).toBe(asked + 1);
      for (let i = 0; i < 5; i++) expect(await ask('How long are backups kept?')).toEqual(['backups.md']);
      expect(fake.requests()).toBe(asked + 1);
      expect(notices).toEqual([
        expect.stringMatching(
          /^embeddings http:\/\/127\.0\.0\.1:\d+\/v1: no answer within 1 s; retrieval is BM25 alone until it answers \(asked again after 10m\)$/,
        ),
      ]);
    } finally {
      await close();
    }
  });

  it('asks again after the cool-down, one question at a time, and says once that it is back', async () => {
    const { fake, notices, ask, close } = await serveWith(200);
    try {
      fake.hanging(true);
      expect(await ask('How long are backups kept?')).toEqual(['backups.md']);
      fake.hanging(false);
      // Only meaning leads to benefits.md.
      await expect
        .poll(() => ask('How much time off do new mothers and fathers get?'), { timeout: 20_000 })
        .toEqual(['benefits.md']);
      expect(notices).toHaveLength(2);
      expect(notices[1]).toMatch(/answering again; semantic retrieval is back$/);
    } finally {
      await close();
    }
  });
});
