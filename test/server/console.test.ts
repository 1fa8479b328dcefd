import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server/index.js';
import { startTestServer } from '../helpers/server.js';

let server: RunningServer;
let origin: string;
beforeAll(async () => {
  server = await startTestServer({ demo: true, maxFileBytes: 4096 });
  origin = server.url;
});
afterAll(() => server.close());

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

/** Signs in as a browser would; the cookie and the page's anti-CSRF token. */
async function signIn(key = server.keys.demo!): Promise<{ cookie: string; csrf: string }> {
  const res = await fetch(`${origin}/console/session`, {
    method: 'POST',
    headers: { ...FORM, origin },
    body: form({ key }),
    redirect: 'manual',
  });
  expect(res.status).toBe(303);
  const cookie = res.headers.get('set-cookie')!.split(';')[0]!;
  const page = await (await fetch(`${origin}/`, { headers: { cookie } })).text();
  const csrf = /<meta name="csrf-token" content="([^"]+)"/.exec(page)![1]!;
  return { cookie, csrf };
}

const fileCount = () => server.service.store.everyFile().filter((f) => !f.deletedAt).length;

function upload(name: string, body: string | Buffer, headers: Record<string, string>) {
  return fetch(`${origin}/console/uploads?filename=${encodeURIComponent(name)}`, {
    method: 'POST',
    headers: { 'content-type': 'application/octet-stream', ...headers },
    body,
  });
}

describe('the web console', () => {
  it('signs in with a key into a session: an HttpOnly, SameSite=Strict cookie of a random id, never the key', async () => {
    const res = await fetch(`${origin}/console/session`, {
      method: 'POST',
      headers: { ...FORM, origin },
      body: form({ key: server.keys.demo! }),
      redirect: 'manual',
    });
    const cookie = res.headers.get('set-cookie')!;
    expect(cookie).toMatch(/^kb_session_\d+=[\w-]{40,}; Path=\/; HttpOnly; SameSite=Strict$/);
    expect(cookie).not.toContain(server.keys.demo!);
    const page = await (await fetch(`${origin}/`, { headers: { cookie: cookie.split(';')[0]! } })).text();
    expect(page).toContain('<h1>Files</h1>');
    expect(page).toContain('demo');
    expect(page).not.toContain(server.keys.demo!);
  });

  it('changes nothing without a session, from another origin, or without the anti-CSRF token', async () => {
    const { cookie, csrf } = await signIn();
    const before = fileCount();
    const attempts = [
      upload('a.txt', 'a', { origin, 'x-csrf-token': csrf }), // no session
      upload('a.txt', 'a', { cookie, origin: 'https://evil.example', 'x-csrf-token': csrf }),
      upload('a.txt', 'a', { cookie, origin }), // no token
      upload('a.txt', 'a', { cookie, origin, 'x-csrf-token': `${csrf.slice(0, -1)}x` }),
      upload('a.txt', 'a', { cookie, 'x-csrf-token': csrf, 'sec-fetch-site': 'cross-site' }),
    ];
    const statuses = await Promise.all(attempts.map(async (r) => (await r).status));
    expect(statuses).toEqual([401, 403, 403, 403, 403]);
    const victim = server.service.store.everyFile().find((f) => !f.deletedAt)!;
    const deleted = await fetch(`${origin}/console/files/${victim.id}/delete`, {
      method: 'POST',
      headers: { ...FORM, cookie, origin: 'https://evil.example' },
      body: form({ csrf }),
      redirect: 'manual',
    });
    expect(deleted.status).toBe(403);
    expect(fileCount()).toBe(before);
    expect(server.service.store.storedFile(victim.id)!.deletedAt).toBeFalsy();
    // The same upload, with everything, works.
    expect((await upload('a.txt', 'Accepted.', { cookie, origin, 'x-csrf-token': csrf })).status).toBe(201);
    expect(fileCount()).toBe(before + 1);
  });

  it("takes an upload's anti-CSRF token from its header only: the body is the file, never a form", async () => {
    const { cookie, csrf } = await signIn();
    const before = fileCount();
    const inBody = await upload('form.txt', form({ csrf }), { ...FORM, cookie, origin });
    expect(inBody.status).toBe(403);
    expect(await inBody.json()).toEqual({
      error: {
        code: 'invalid_csrf_token',
        message: 'an upload carries the anti-CSRF token in the x-csrf-token header',
      },
    });
    expect(fileCount()).toBe(before);
    // With the header, a body of any type is the file's bytes, read once.
    const res = await upload('form.txt', 'csrf=not-a-field', {
      ...FORM,
      cookie,
      origin,
      'x-csrf-token': csrf,
    });
    expect(res.status).toBe(201);
    expect(((await res.json()) as any).data.fileSize).toBe('csrf=not-a-field'.length);
  });

  it('shows a notice from what the session did, once, and never from the address', async () => {
    const { cookie, csrf } = await signIn();
    const lure = `/?deleted=${encodeURIComponent('x. Your key was revoked: sign in at http://evil.example')}`;
    const lured = await (await fetch(`${origin}${lure}`, { headers: { cookie } })).text();
    expect(lured).not.toContain('evil.example');
    expect(lured).not.toContain('class="notice"');
    const made = await upload('notice.txt', 'To be deleted.', { cookie, origin, 'x-csrf-token': csrf });
    const { id } = ((await made.json()) as any).data;
    const deleted = await fetch(`${origin}/console/files/${id}/delete`, {
      method: 'POST',
      headers: { ...FORM, cookie, origin },
      body: form({ csrf }),
      redirect: 'manual',
    });
    expect(deleted.status).toBe(303);
    expect(deleted.headers.get('location')).toBe('/');
    const after = await (await fetch(`${origin}/`, { headers: { cookie } })).text();
    expect(after).toMatch(/<p class="notice" role="status">Deleted <bdi>notice\.txt<\/bdi>\.<\/p>/);
    const again = await (await fetch(`${origin}/`, { headers: { cookie } })).text();
    expect(again).not.toContain('class="notice"');
  });

  it('reads no more of a form than a key or a token needs', async () => {
    const res = await fetch(`${origin}/console/session`, {
      method: 'POST',
      headers: { ...FORM, origin },
      body: `key=${server.keys.demo!}&pad=${'x'.repeat(2 * 1024 * 1024)}`,
      redirect: 'manual',
    });
    expect(res.status).toBe(401);
    expect(res.headers.get('set-cookie')).toBeNull();
  });

  it('indexes an upload of a text file of no known extension (TODO) as text/plain; a binary one FAILs unsupported_type (#33)', async () => {
    const { cookie, csrf } = await signIn();
    const headers = { cookie, origin, 'x-csrf-token': csrf };
    const todo = await upload('TODO', '* Teach the kiosk to print visitor badges.\n', headers);
    const blob = await upload('kiosk.bin', Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, 0, 0]), headers);
    expect([todo.status, blob.status]).toEqual([201, 201]);
    const ids = [((await todo.json()) as any).data.id, ((await blob.json()) as any).data.id];
    const settled = () =>
      ids
        .map((id) => server.service.store.storedFile(id)!)
        .filter((f) => /COMPLETED|FAILED/.test(f.indexingStatus));
    for (const deadline = Date.now() + 10_000; settled().length < 2 && Date.now() < deadline;)
      await new Promise((r) => setTimeout(r, 50));
    const [text, binary] = ids.map((id) => server.service.store.storedFile(id)!);
    expect(text).toMatchObject({ indexingStatus: 'COMPLETED', mimeType: 'text/plain' });
    expect(binary).toMatchObject({ indexingStatus: 'FAILED', indexingError: { code: 'unsupported_type' } });
    const page = await (await fetch(`${origin}/`, { headers: { cookie } })).text();
    expect(page).toContain('text of any');
  });

  it('refuses an upload over --max-file-size with a clear message, and a name with a path in it', async () => {
    const { cookie, csrf } = await signIn();
    const big = await upload('big.txt', Buffer.alloc(5000, 'a'), { cookie, origin, 'x-csrf-token': csrf });
    expect(big.status).toBe(413);
    expect(((await big.json()) as any).error.message).toBe(
      'the file is 4.9 KiB, over the limit of 4 KiB (kb serve --max-file-size)',
    );
    const path = await upload('../../etc/x.txt', 'x', { cookie, origin, 'x-csrf-token': csrf });
    expect(path.status).toBe(422);
  });

  it('refuses names with bidi controls or invisible characters, saying which, from the console and the API', async () => {
    const { cookie, csrf } = await signIn();
    const before = fileCount();
    const cases = [
      ['\u202efdp.exe.md', 'bidirectional controls (U+202E)'],
      ['report\u2067.pdf', 'bidirectional controls (U+2067)'],
      ['pay\u200broll.txt', 'invisible characters (U+200B)'],
      ['\ufeffnotes.md', 'invisible characters (U+FEFF)'],
      ['a\u200dtxt.md', 'invisible characters (U+200D)'],
      // Fillers and a joiner that show as blank space: "invoice.pdf      .md".
      ['invoice.pdf\u3164\u3164\u3164.md', 'invisible characters (U+3164)'],
      ['\u115f.md', 'invisible characters (U+115F)'],
      ['x\uffa0.md', 'invisible characters (U+FFA0)'],
      ['a\u034fb.md', 'invisible characters (U+034F)'],
    ];
    for (const [name, what] of cases) {
      const message = `the file name may not contain ${what}`;
      const res = await upload(name!, 'text', { cookie, origin, 'x-csrf-token': csrf });
      expect(res.status).toBe(422);
      expect(await res.json()).toEqual({ error: { code: 'invalid_filename', message } });
      const api = await fetch(`${origin}/v1/files?filename=${encodeURIComponent(name!)}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${server.keys.demo!}`, 'content-type': 'application/octet-stream' },
        body: 'text',
      });
      expect(api.status).toBe(422);
      expect(((await api.json()) as any).error.message).toBe(message);
    }
    expect(fileCount()).toBe(before);
    // Scripts that join letters with them, and emoji sequences, keep their names.
    for (const name of [
      '\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645.txt',
      'family \u{1f468}\u200d\u{1f469}\u200d\u{1f467}.md',
      '\ud55c\uad6d\uc5b4 \u1112\u1161\u11ab.md',
    ])
      expect((await upload(name, 'text', { cookie, origin, 'x-csrf-token': csrf })).status).toBe(201);
  });

  it('isolates every name on a page, so that one cannot reorder the text around it', async () => {
    const { cookie } = await signIn();
    const ws = server.workspaces.find((w) => w.name === 'demo')!.id;
    const at = new Date().toISOString();
    // A name the upload would refuse, as a --docs folder may still hold one.
    server.service.store.commit({
      op: 'file',
      file: {
        id: 'file_bidi',
        workspaceId: ws,
        originalFilename: '\u202efdp.exe.md',
        fileSize: 4,
        mimeType: 'text/markdown',
        indexingStatus: 'FAILED',
        createdAt: at,
        updatedAt: at,
        indexingStartedAt: null,
        indexedAt: null,
        chunkCount: 0,
        indexingError: { code: 'empty', message: 'no text' },
      },
    });
    const page = await (await fetch(`${origin}/`, { headers: { cookie } })).text();
    expect(page).toContain('<td class="name"><bdi>\u202efdp.exe.md</bdi></td>');
    const confirm = await (
      await fetch(`${origin}/console/files/file_bidi/delete`, { headers: { cookie } })
    ).text();
    expect(confirm).toContain('<h1>Delete <bdi>\u202efdp.exe.md</bdi>?</h1>');
  });

  it('escapes every string from a file or a thread', async () => {
    const { cookie, csrf } = await signIn();
    const evil = '<img src=x onerror=alert(1)>"\'.txt';
    expect((await upload(evil, 'text', { cookie, origin, 'x-csrf-token': csrf })).status).toBe(201);
    const page = await (await fetch(`${origin}/`, { headers: { cookie } })).text();
    expect(page).not.toContain('<img src=x');
    expect(page).toContain('&lt;img src=x onerror=alert(1)&gt;&quot;&#39;.txt');
    const ws = server.workspaces.find((w) => w.name === 'demo')!.id;
    const thread = [...server.service.store.threads.values()].find((t) => t.workspaceId === ws)!;
    server.service.store.commit({
      op: 'threadStatus',
      id: thread.id,
      status: thread.status,
      at: thread.updatedAt,
    });
    server.service.store.commit({
      op: 'messages',
      messages: [
        {
          id: 'msg_evil',
          threadId: thread.id,
          role: 'assistant',
          content: '<script>alert(1)</script>',
          createdAt: new Date().toISOString(),
          sources: ['<b>x</b>.md'],
        },
      ],
    });
    const transcript = await (
      await fetch(`${origin}/console/threads/${thread.id}`, { headers: { cookie } })
    ).text();
    expect(transcript).not.toContain('<script>alert');
    expect(transcript).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(transcript).toContain('&lt;b&gt;x&lt;/b&gt;.md');
  });

  it('sends a policy that allows no inline script, no framing, and no referrer to other sites', async () => {
    const res = await fetch(`${origin}/`);
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(res.headers.get('referrer-policy')).toBe('same-origin');
    expect((await fetch(`${origin}/console/app.js`)).headers.get('content-type')).toMatch(
      /^text\/javascript/,
    );
    // The API keeps its own answers.
    expect((await fetch(`${origin}/v1/threads`)).headers.get('content-security-policy')).toBeNull();
  });

  it('ends the session on sign-out, and another workspace sees only its own files', async () => {
    const { cookie, csrf } = await signIn();
    const out = await fetch(`${origin}/console/session/end`, {
      method: 'POST',
      headers: { ...FORM, cookie, origin },
      body: form({ csrf }),
      redirect: 'manual',
    });
    expect(out.status).toBe(303);
    expect((await fetch(`${origin}/console/files.json`, { headers: { cookie } })).status).toBe(401);

    const other = await signIn(server.keys.acme!);
    const demoFile = server.service.store
      .everyFile()
      .find((f) => f.workspaceId === server.workspaces.find((w) => w.name === 'demo')!.id)!;
    const page = await fetch(`${origin}/console/files/${demoFile.id}/delete`, {
      headers: { cookie: other.cookie },
    });
    expect(page.status).toBe(404);
    const listed: any = await (
      await fetch(`${origin}/console/files.json`, { headers: { cookie: other.cookie } })
    ).json();
    expect(listed.data.some((f: { id: string }) => f.id === demoFile.id)).toBe(false);
  });

  it('says a wrong key plainly, and slows down an address that keeps guessing (429), even with the right key', async () => {
    const guessed = await startTestServer({ demo: true });
    const tries = [];
    for (let i = 0; i < 11; i++)
      tries.push(
        await fetch(`${guessed.url}/console/session`, {
          method: 'POST',
          headers: { ...FORM, origin: guessed.url },
          body: form({ key: `kb_wrong_${i}` }),
        }),
      );
    expect(tries[0]!.status).toBe(401);
    expect(await tries[0]!.text()).toContain('That key is not valid for this service.');
    expect(tries[10]!.status).toBe(429);
    expect(Number(tries[10]!.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await tries[10]!.text()).toMatch(/Too many wrong keys: try again in \d+ s\./);
    const right = await fetch(`${guessed.url}/console/session`, {
      method: 'POST',
      headers: { ...FORM, origin: guessed.url },
      body: form({ key: guessed.keys.demo! }),
      redirect: 'manual',
    });
    expect(right.status).toBe(429);
    await guessed.close();
  });

  it('keeps at most 20 sessions per key: the 21st sign-in ends the one used longest ago', async () => {
    const first = await signIn();
    const later = [];
    for (let i = 0; i < 20; i++) later.push(await signIn());
    expect((await fetch(`${origin}/console/files.json`, { headers: { cookie: first.cookie } })).status).toBe(
      401,
    );
    for (const { cookie } of later)
      expect((await fetch(`${origin}/console/files.json`, { headers: { cookie } })).status).toBe(200);
    expect(server.service.sessions.size).toBeLessThanOrEqual(2 * 20);
  });

  it('counts a sign-in when it starts: bodies sent after the headers get no more tries', async () => {
    const guessed = await startTestServer({ demo: true });
    const { hostname, port } = new URL(guessed.url);
    // Twenty sign-ins whose headers arrive first, and their bodies only when told.
    const tries = Array.from({ length: 20 }, (_, i) => {
      const body = form({ key: `kb_wrong_${i}` });
      const req = httpRequest({
        host: hostname,
        port,
        method: 'POST',
        path: '/console/session',
        headers: { ...FORM, origin: guessed.url, 'content-length': Buffer.byteLength(body) },
      });
      const answer = { status: 0 };
      const answered = new Promise<void>((resolve, reject) => {
        req.on('response', (res) => {
          answer.status = res.statusCode!;
          res.resume().on('end', resolve);
        });
        req.on('error', reject);
      });
      req.flushHeaders();
      return { req, body, answer, answered };
    });
    // Ten are waiting for their bodies; the other ten are refused before theirs.
    await expect
      .poll(() => tries.filter((t) => t.answer.status === 429).length, { timeout: 15_000 })
      .toBe(10);
    for (const t of tries) if (!t.answer.status) t.req.end(t.body);
    await Promise.all(tries.filter((t) => t.answer.status !== 429).map((t) => t.answered));
    for (const t of tries) t.req.destroy();
    expect(tries.map((t) => t.answer.status).sort()).toEqual([
      ...Array<number>(10).fill(401),
      ...Array<number>(10).fill(429),
    ]);
    const right = await fetch(`${guessed.url}/console/session`, {
      method: 'POST',
      headers: { ...FORM, origin: guessed.url },
      body: form({ key: guessed.keys.demo! }),
      redirect: 'manual',
    });
    expect(right.status).toBe(429);
    await guessed.close();
  });

  it('pages the lists it cuts: older and newer links reach every file and thread', async () => {
    const paged = await startTestServer({ apiKeys: ['paged:kb_paged_key_0123456789abcdef'] });
    const ws = paged.workspaces[0]!.id;
    const at = (i: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString();
    for (let i = 0; i < 228; i++)
      paged.service.store.commit({
        op: 'file',
        file: {
          id: `file_p${String(i).padStart(3, '0')}`,
          workspaceId: ws,
          originalFilename: `f${i}.txt`,
          fileSize: 1,
          mimeType: 'text/plain',
          indexingStatus: 'COMPLETED',
          createdAt: at(i),
          updatedAt: at(i),
          indexingStartedAt: at(i),
          indexedAt: at(i),
          chunkCount: 1,
          indexingError: null,
        },
      });
    for (let i = 0; i < 55; i++)
      paged.service.store.commit({
        op: 'thread',
        thread: {
          id: `thr_p${i}`,
          workspaceId: ws,
          title: `t${i}`,
          status: 'OPEN',
          createdAt: at(i),
          updatedAt: at(i),
        },
      });
    const signedIn = await fetch(`${paged.url}/console/session`, {
      method: 'POST',
      headers: { ...FORM, origin: paged.url },
      body: form({ key: 'kb_paged_key_0123456789abcdef' }),
      redirect: 'manual',
    });
    const cookie = signedIn.headers.get('set-cookie')!.split(';')[0]!;
    const get = async (path: string) => (await fetch(`${paged.url}${path}`, { headers: { cookie } })).text();
    const ids = (page: string) => [...page.matchAll(/<tr data-id="(file_\w+)"/g)].map((m) => m[1]);
    const link = (page: string, rel: string) =>
      [...page.matchAll(/<a id="\w+" rel="(\w+)" href="([^"]*)"( hidden)?/g)].find((m) => m[1] === rel);

    const first = await get('/');
    expect(ids(first)).toHaveLength(200);
    expect(ids(first)[0]).toBe('file_p227');
    expect(first).toContain('Files 1–200 of 228, newest first');
    expect(link(first, 'prev')![3]).toBe(' hidden');
    const older = link(first, 'next')!;
    expect(older[3]).toBeUndefined();
    const second = await get(older[2]!.replaceAll('&amp;', '&'));
    expect(ids(second)).toEqual(
      Array.from({ length: 28 }, (_, i) => `file_p${String(27 - i).padStart(3, '0')}`),
    );
    expect(second).toContain('Files 201–228 of 228, newest first');
    expect(link(second, 'next')![3]).toBe(' hidden');
    const back = await get(link(second, 'prev')![2]!);
    expect(ids(back)).toEqual(ids(first));
    // The script's poll reads the same window.
    const polled: any = await (
      await fetch(`${paged.url}/console/files.json${older[2]!.slice(1)}`, { headers: { cookie } })
    ).json();
    expect(polled.data.map((f: { id: string }) => f.id)).toEqual(ids(second));
    expect([polled.start, polled.total, polled.older, typeof polled.newer]).toEqual([
      200,
      228,
      null,
      'string',
    ]);

    const threads = await get('/console/threads');
    expect(threads.match(/href="\/console\/threads\/thr_/g)).toHaveLength(50);
    expect(threads).toContain('Threads 1–50 of 55, newest first');
    const olderThreads = await get(link(threads, 'next')![2]!);
    expect(olderThreads.match(/href="\/console\/threads\/thr_/g)).toHaveLength(5);
    expect(olderThreads).toContain('href="/console/threads/thr_p0"');
    await paged.close();
  });

  it("tells the page each upload's current status, and why a failed one failed", async () => {
    const { cookie, csrf } = await signIn();
    const made = await upload('broken.pdf', 'not a PDF at all', { cookie, origin, 'x-csrf-token': csrf });
    const { id } = ((await made.json()) as any).data;
    await server.service.indexer.idle();
    const polled: any = await (
      await fetch(`${origin}/console/files.json?track=${id},file_gone`, { headers: { cookie } })
    ).json();
    expect(polled.tracked).toEqual([
      expect.objectContaining({
        id,
        indexingStatus: 'FAILED',
        indexingError: expect.objectContaining({ code: expect.any(String) }),
      }),
    ]);
  });
});
