import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server/index.js';
import { api, startTestServer } from '../helpers/server.js';

let server: RunningServer;
let demo: string;

beforeAll(async () => {
  server = await startTestServer({ demo: true });
  demo = server.keys.demo!;
});
afterAll(() => server.close());

describe('threads', () => {
  it('creates an OPEN thread with an ISO-8601 UTC createdAt', async () => {
    const res = await api(server, demo, 'POST', '/v1/threads', { title: '  Roadmap  ' });
    expect(res.status).toBe(201);
    expect(res.json.data).toMatchObject({ title: 'Roadmap', status: 'OPEN' });
    expect(res.json.data.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(res.json.data.id).toMatch(/^thr_/);
  });

  it('gives a default title when none is sent, and accepts an empty body', async () => {
    const res = await api(server, demo, 'POST', '/v1/threads');
    expect(res.status).toBe(201);
    expect(res.json.data.title).toBe('Untitled thread');
  });

  it('lists newest first, filters by status and applies limit', async () => {
    const a = (await api(server, demo, 'POST', '/v1/threads', { title: 'a' })).json.data;
    const b = (await api(server, demo, 'POST', '/v1/threads', { title: 'b' })).json.data;
    const list = await api(server, demo, 'GET', '/v1/threads?limit=2');
    expect(list.json.data.map((t: any) => t.id)).toEqual([b.id, a.id]);
    expect(list.json.meta).toEqual({ returned: 2, limit: 2, nextCursor: expect.any(String), hasMore: true });
    const closed = await api(server, demo, 'GET', '/v1/threads?status=CLOSED');
    expect(closed.json.data.length).toBeGreaterThan(0);
    expect(closed.json.data.every((t: any) => t.status === 'CLOSED')).toBe(true);
    expect((await api(server, demo, 'GET', '/v1/threads?status=NOPE')).status).toBe(400);
  });

  it('posts a message and returns user message and grounded assistant reply', async () => {
    const thread = (await api(server, demo, 'POST', '/v1/threads', { title: 'q' })).json.data;
    const res = await api(server, demo, 'POST', `/v1/threads/${thread.id}/messages`, {
      content: 'How much does the Growth plan cost per agent?',
    });
    expect(res.status).toBe(201);
    const { userMessage, aiResponse } = res.json.data;
    expect(userMessage).toMatchObject({
      role: 'user',
      content: 'How much does the Growth plan cost per agent?',
    });
    expect(aiResponse.role).toBe('assistant');
    expect(aiResponse.content).toContain('29 dollars');
    expect(aiResponse.content).toContain('[pricing.md]');
    const got = await api(server, demo, 'GET', `/v1/threads/${thread.id}`);
    expect(got.json.data.messages.map((m: any) => m.role)).toEqual(['user', 'assistant']);
    expect(got.json.data.messages[0].id).toBe(userMessage.id);
    // A thread's updatedAt is its last activity: the reply's time, in the thread and in the list.
    expect(got.json.data.updatedAt).toBe(aiResponse.createdAt);
    expect(got.json.data.updatedAt > thread.updatedAt).toBe(true);
    const listed = (await api(server, demo, 'GET', '/v1/threads?limit=50')).json.data;
    expect(listed.find((t: any) => t.id === thread.id).updatedAt).toBe(aiResponse.createdAt);
  });

  it('says so when no document is relevant', async () => {
    const thread = (await api(server, demo, 'POST', '/v1/threads', {})).json.data;
    const res = await api(server, demo, 'POST', `/v1/threads/${thread.id}/messages`, {
      content: 'zebra quasar xylophone',
    });
    expect(res.json.data.aiResponse.content).toMatch(/couldn't find anything/);
  });

  it('refuses messages to a thread that is not OPEN with 409', async () => {
    const closed = (await api(server, demo, 'GET', '/v1/threads?status=CLOSED')).json.data[0];
    const res = await api(server, demo, 'POST', `/v1/threads/${closed.id}/messages`, { content: 'hi' });
    expect(res.status).toBe(409);
    expect(res.json.error.code).toBe('thread_not_open');
  });

  it.each([
    [{ content: '' }, 422],
    [{ content: '   ' }, 422],
    [{ content: 42 }, 400],
    [{}, 400],
    [{ content: 'x'.repeat(32_001) }, 422],
  ])('validates message body %#', async (body, status) => {
    const thread = (await api(server, demo, 'POST', '/v1/threads', {})).json.data;
    const res = await api(server, demo, 'POST', `/v1/threads/${thread.id}/messages`, body);
    expect(res.status).toBe(status);
    expect(res.json.error.code).toEqual(expect.any(String));
    expect(res.json.error.message).toEqual(expect.any(String));
  });

  it('validates titles', async () => {
    expect((await api(server, demo, 'POST', '/v1/threads', { title: 5 })).status).toBe(400);
    expect((await api(server, demo, 'POST', '/v1/threads', { title: 'x'.repeat(201) })).status).toBe(422);
  });

  it('changes status with PATCH (extension)', async () => {
    const thread = (await api(server, demo, 'POST', '/v1/threads', {})).json.data;
    const res = await api(server, demo, 'PATCH', `/v1/threads/${thread.id}`, { status: 'archived' });
    expect(res.json.data.status).toBe('ARCHIVED');
  });
});

describe('files', () => {
  it('lists with {data, meta:{returned, limit}} and filters by status', async () => {
    const res = await api(server, demo, 'GET', '/v1/files');
    expect(res.json.meta).toEqual({
      returned: res.json.data.length,
      limit: 50,
      nextCursor: null,
      hasMore: false,
    });
    const failed = await api(server, demo, 'GET', '/v1/files?status=FAILED');
    // OCR is off in this server (test/helpers/server.ts): the demo's scans fail as they would.
    expect(failed.json.data.map((f: any) => f.originalFilename).sort()).toEqual([
      'architecture-diagram.png',
      'empty-notes.txt',
      'signed-agreement-scanned.pdf',
    ]);
    for (const f of res.json.data)
      expect(Object.keys(f).sort()).toEqual([
        'createdAt',
        'fileSize',
        'id',
        'indexingStatus',
        'mimeType',
        'originalFilename',
      ]);
  });

  it('gives detail with the indexing error, chunk count and timestamps', async () => {
    const failed = (await api(server, demo, 'GET', '/v1/files?status=FAILED')).json.data;
    const png = failed.find((f: any) => f.originalFilename.endsWith('.png'));
    const res = await api(server, demo, 'GET', `/v1/files/${png.id}`);
    expect(res.json.data.indexingError).toEqual({
      code: 'unsupported_type',
      message: 'images are read by OCR, which is off (--no-ocr)',
    });
    const empty = failed.find((f: any) => f.originalFilename === 'empty-notes.txt');
    const emptyDetail = (await api(server, demo, 'GET', `/v1/files/${empty.id}`)).json.data;
    expect(emptyDetail.indexingError.code).toBe('empty_file');
    // It was never indexed: when it failed is its updatedAt.
    expect(emptyDetail.indexedAt).toBeNull();
    expect(emptyDetail.updatedAt >= emptyDetail.indexingStartedAt).toBe(true);
    const done = (await api(server, demo, 'GET', '/v1/files?status=COMPLETED')).json.data[0];
    const detail = (await api(server, demo, 'GET', `/v1/files/${done.id}`)).json.data;
    expect(detail.chunkCount).toBeGreaterThan(0);
    expect(detail.indexingError).toBeNull();
    expect(detail.indexedAt >= detail.indexingStartedAt).toBe(true);
  });

  it('soft-deletes: gone from lists, get and the assistant at once; second delete is 404', async () => {
    const before = (await api(server, demo, 'GET', '/v1/files')).json.data;
    const pricing = before.find((f: any) => f.originalFilename === 'pricing.md');
    const thread = (await api(server, demo, 'POST', '/v1/threads', {})).json.data;
    const ask = () =>
      api(server, demo, 'POST', `/v1/threads/${thread.id}/messages`, {
        content: 'What does the Growth plan cost per agent per month?',
      });
    expect((await ask()).json.data.aiResponse.content).toContain('[pricing.md]');
    const del = await api(server, demo, 'DELETE', `/v1/files/${pricing.id}`);
    expect(del.status).toBe(204);
    expect(del.text).toBe('');
    expect(
      (await api(server, demo, 'GET', '/v1/files')).json.data.some((f: any) => f.id === pricing.id),
    ).toBe(false);
    expect((await api(server, demo, 'GET', `/v1/files/${pricing.id}`)).status).toBe(404);
    expect((await ask()).json.data.aiResponse.content).not.toContain('pricing.md');
    expect((await api(server, demo, 'DELETE', `/v1/files/${pricing.id}`)).status).toBe(404);
  });
});

describe('users', () => {
  it('searches name or e-mail, case- and accent-insensitively', async () => {
    const byName = await api(server, demo, 'GET', `/v1/users?q=${encodeURIComponent('ZOË')}`);
    expect(byName.json.data.map((u: any) => u.name)).toEqual(['Zoë Müller']);
    const folded = await api(server, demo, 'GET', '/v1/users?q=lukasz');
    expect(folded.json.data.map((u: any) => u.name)).toEqual(['Łukasz Nowak']);
    const byMail = await api(server, demo, 'GET', '/v1/users?q=PRIYA.RAMAN@');
    expect(byMail.json.data).toHaveLength(1);
    const all = await api(server, demo, 'GET', '/v1/users?limit=2');
    expect(all.json.data).toHaveLength(2);
  });
});

describe('search (an extension)', () => {
  const search = (query: string) => api(server, demo, 'GET', `/v1/search?${query}`);

  it('lists what the assistant retrieves for a question: the chunk the answer is made of first', async () => {
    // (pricing.md is deleted above)
    const res = await search(`q=${encodeURIComponent('When is API v0 switched off?')}`);
    expect(res.status).toBe(200);
    expect(res.json.query).toBe('When is API v0 switched off?');
    expect(res.json.answered).toBe(true);
    const [first] = res.json.data;
    expect(first).toMatchObject({ rank: 1, filename: 'release-notes-v2.md', pages: null, answers: true });
    expect(first.fileId).toMatch(/^file_/);
    expect(first.passages.map((p: any) => p.text).join(' ')).toContain('30 June');
    expect(first.text).toContain('30 June');
    expect(res.json.data.map((h: any) => h.rank)).toEqual(
      res.json.data.map((_: unknown, i: number) => i + 1),
    );
  });

  it('reads a question in a thread as a follow-up, as a message sent there would be', async () => {
    const thread = (await api(server, demo, 'POST', '/v1/threads', {})).json.data;
    await api(server, demo, 'POST', `/v1/threads/${thread.id}/messages`, {
      content: 'When is API v0 switched off?',
    });
    const q = `q=${encodeURIComponent('What replaces it?')}`;
    const followUp = await search(`${q}&threadId=${thread.id}`);
    expect(followUp.json.answered).toBe(true);
    expect(followUp.json.data[0]).toMatchObject({ filename: 'release-notes-v2.md', answers: true });
    expect(followUp.json.data[0].passages[0].text).toContain('API v1');
    // Alone, the same words answer nothing.
    expect((await search(q)).json).toMatchObject({ answered: false });
    const missing = await search(`${q}&threadId=thr_none`);
    expect(missing.status).toBe(404);
    expect(missing.json.error.code).toBe('not_found');
  });

  it('says when nothing answers: answered false, no chunk answering', async () => {
    const res = await search('q=zebra%20quasar%20xylophone');
    expect(res.status).toBe(200);
    expect(res.json.answered).toBe(false);
    expect(res.json.data.every((h: any) => !h.answers && h.passages.length === 0)).toBe(true);
  });

  it('takes a limit from 1 (default 10, above 50 counts as 50) and needs a question of at most 2,000 characters', async () => {
    expect((await search('q=plans&limit=1')).json.data).toHaveLength(1);
    expect((await search('q=plans&limit=500')).status).toBe(200);
    for (const bad of ['0', '-1', 'abc', '']) {
      const res = await search(`q=plans&limit=${bad}`);
      expect(res.status, `limit=${bad}`).toBe(400);
      expect(res.json.error.code).toBe('invalid_limit');
    }
    for (const bad of ['', 'q=', 'q=%20%20', `q=${'x'.repeat(2001)}`]) {
      const res = await search(bad);
      expect(res.status, bad.slice(0, 10)).toBe(400);
      expect(res.json.error.code).toBe('invalid_query');
    }
    expect((await search(`q=${'x'.repeat(2000)}`)).status).toBe(200);
  });
});

describe('limit', () => {
  it.each(['/v1/threads', '/v1/files', '/v1/users'])(
    'clamps above 100 and refuses 0, -1, abc on %s',
    async (path) => {
      const clamped = await api(server, demo, 'GET', `${path}?limit=500`);
      expect(clamped.status).toBe(200);
      expect(clamped.json.meta.limit).toBe(100);
      for (const bad of ['0', '-1', 'abc', '1.5', '']) {
        const res = await api(server, demo, 'GET', `${path}?limit=${bad}`);
        expect(res.status, `limit=${bad}`).toBe(400);
        expect(res.json.error.code).toBe('invalid_limit');
      }
    },
  );
});

describe('webhooks', () => {
  it('registers with a secret shown only once', async () => {
    const res = await api(server, demo, 'POST', '/v1/webhooks', {
      url: 'https://example.com/hook',
      events: ['file.indexed'],
    });
    expect(res.status).toBe(201);
    expect(res.json.data).toMatchObject({
      url: 'https://example.com/hook',
      events: ['file.indexed'],
      isActive: true,
    });
    expect(res.json.data.secret).toMatch(/^whsec_/);
    const got = await api(server, demo, 'GET', `/v1/webhooks/${res.json.data.id}`);
    expect(got.json.data.secret).toBeUndefined();
    const list = await api(server, demo, 'GET', '/v1/webhooks');
    expect(list.json.data.every((w: any) => w.secret === undefined)).toBe(true);
    expect((await api(server, demo, 'DELETE', `/v1/webhooks/${res.json.data.id}`)).status).toBe(204);
    expect((await api(server, demo, 'GET', `/v1/webhooks/${res.json.data.id}`)).status).toBe(404);
  });

  it.each([
    [{ url: 'http://example.com', events: ['file.indexed'] }, 422],
    [{ url: 'http://127.0.0.1:9/x', events: ['file.indexed'] }, 422],
    [{ url: 'not a url', events: ['file.indexed'] }, 422],
    [{ url: 'https://example.com', events: [] }, 422],
    [{ url: 'https://example.com', events: ['file.deleted'] }, 422],
    [{ url: 'https://example.com', events: 'file.indexed' }, 400],
    [{ url: 'https://example.com' }, 400],
    [{ events: ['file.indexed'] }, 400],
  ])('refuses %j', async (body, status) => {
    const res = await api(server, demo, 'POST', '/v1/webhooks', body);
    expect(res.status).toBe(status);
  });
});

describe('protocol', () => {
  it('puts x-request-id on every response, errors included', async () => {
    for (const [key, method, path] of [
      [demo, 'GET', '/v1/threads'],
      [undefined, 'GET', '/v1/threads'],
      [demo, 'GET', '/v1/nope'],
      [demo, 'PUT', '/v1/threads'],
    ] as const) {
      const res = await api(server, key, method, path);
      expect(res.headers.get('x-request-id'), `${method} ${path}`).toMatch(/^req_/);
    }
  });

  it('answers 405 with Allow for a known path and a wrong method', async () => {
    const res = await api(server, demo, 'PUT', '/v1/threads');
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toContain('POST');
    expect(res.json.error.code).toBe('method_not_allowed');
  });

  it('answers 413 for bodies over 1 MiB, 415 for non-JSON, 400 for malformed JSON', async () => {
    const big = await api(
      server,
      demo,
      'POST',
      '/v1/threads',
      JSON.stringify({ title: 'x'.repeat(1024 * 1024) }),
    );
    expect(big.status).toBe(413);
    const text = await api(server, demo, 'POST', '/v1/threads', 'title=x', { 'content-type': 'text/plain' });
    expect(text.status).toBe(415);
    const broken = await api(server, demo, 'POST', '/v1/threads', '{"title":');
    expect(broken.status).toBe(400);
    expect(broken.json.error.code).toBe('invalid_json');
    const array = await api(server, demo, 'POST', '/v1/threads', '[1]');
    expect(array.status).toBe(400);
  });

  it('answers 429 with Retry-After when a key exceeds the rate limit', async () => {
    const limited = await startTestServer({ rateLimit: 3 });
    const key = Object.values(limited.keys)[0]!;
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push(await api(limited, key, 'GET', '/v1/threads'));
    expect(statuses.map((r) => r.status)).toEqual([200, 200, 200, 429, 429]);
    expect(Number(statuses[3]!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    await limited.close();
  });
});

describe('paging', () => {
  it('pages every list with a cursor: no record skipped or given twice while records come and go', async () => {
    const s = await startTestServer({ apiKeys: ['paging:kb_paging_key'] });
    try {
      const key = 'kb_paging_key';
      const workspace = [...s.service.store.workspaces.values()].find((w) => w.name === 'paging')!.id;
      const upload = (name: string) =>
        s.service.indexer.upload(workspace, name, Buffer.from(`text of ${name}`));
      const first = Array.from({ length: 130 }, (_, i) => upload(`doc-${i}.txt`).id);
      await s.service.indexer.idle();
      const seen: string[] = [];
      let res = await api(s, key, 'GET', '/v1/files?limit=50');
      seen.push(...res.json.data.map((f: { id: string }) => f.id));
      expect(res.json.meta).toEqual({
        returned: 50,
        limit: 50,
        nextCursor: expect.any(String),
        hasMore: true,
      });
      // Meanwhile: new files (newer, so before the cursor), one seen and one not yet seen deleted.
      for (let i = 0; i < 20; i++) upload(`new-${i}.txt`);
      const unseen = first.find((id) => !seen.includes(id))!;
      expect((await api(s, key, 'DELETE', `/v1/files/${unseen}`)).status).toBe(204);
      expect((await api(s, key, 'DELETE', `/v1/files/${seen[0]}`)).status).toBe(204);
      while (res.json.meta.nextCursor) {
        res = await api(s, key, 'GET', `/v1/files?limit=50&cursor=${res.json.meta.nextCursor}`);
        seen.push(...res.json.data.map((f: { id: string }) => f.id));
      }
      expect(res.json.meta).toMatchObject({ nextCursor: null, hasMore: false });
      expect(new Set(seen).size).toBe(seen.length);
      expect(seen.sort()).toEqual(first.filter((id) => id !== unseen).sort());

      for (const path of ['/v1/threads', '/v1/users', '/v1/webhooks', '/v1/files']) {
        const bad = await api(s, key, 'GET', `${path}?cursor=not-a-cursor`);
        expect([path, bad.status, bad.json.error.code]).toEqual([path, 400, 'invalid_cursor']);
      }
    } finally {
      await s.close();
    }
  });

  it('pages threads, users and webhooks the same way', async () => {
    const s = await startTestServer({ apiKeys: ['lists:kb_lists_key'], allowLocalWebhooks: true });
    try {
      const key = 'kb_lists_key';
      const workspace = [...s.service.store.workspaces.values()].find((w) => w.name === 'lists')!.id;
      for (let i = 0; i < 7; i++) {
        await api(s, key, 'POST', '/v1/threads', { title: `t${i}` });
        await api(s, key, 'POST', '/v1/webhooks', {
          url: `http://127.0.0.1:9/${i}`,
          events: ['file.indexed'],
        });
        s.service.store.commit({
          op: 'user',
          user: {
            id: `usr_${i}`,
            workspaceId: workspace,
            name: `Member ${i % 3}`,
            email: `m${i}@x.test`,
            createdAt: 'x',
          },
        });
      }
      for (const path of ['/v1/threads', '/v1/users', '/v1/webhooks']) {
        const all = (await api(s, key, 'GET', `${path}?limit=100`)).json.data.map(
          (r: { id: string }) => r.id,
        );
        const paged: string[] = [];
        let cursor = '';
        do {
          const res = await api(s, key, 'GET', `${path}?limit=3${cursor ? `&cursor=${cursor}` : ''}`);
          paged.push(...res.json.data.map((r: { id: string }) => r.id));
          cursor = res.json.meta.nextCursor ?? '';
        } while (cursor);
        expect([path, paged]).toEqual([path, all]);
        expect(all).toHaveLength(7);
      }
    } finally {
      await s.close();
    }
  });
});
