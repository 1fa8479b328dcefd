import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { runKb, tempDir } from '../helpers/cli.js';
import { type ScriptedServer, scriptedServer } from '../helpers/scripted.js';
import { api, startTestServer } from '../helpers/server.js';

const KEY = 'kb_paging_secret_key';
const FILES = Array.from({ length: 130 }, (_, i) => ({
  id: `file_${String(i).padStart(3, '0')}`,
  originalFilename: `doc-${i}.md`,
  fileSize: 10,
  mimeType: 'text/markdown',
  indexingStatus: 'COMPLETED',
  createdAt: '2026-11-20T10:00:00Z',
}));

type Style = (query: URLSearchParams, url: string) => { body: unknown; headers?: Record<string, string> };

/** A service that pages its 130 files in one of the ways real services do. */
const STYLES: Record<string, Style> = {
  cursor: (q) => {
    const from = Number(q.get('cursor') ?? 0);
    const to = Math.min(from + Number(q.get('limit')), FILES.length);
    return {
      body: { data: FILES.slice(from, to), meta: { nextCursor: to < FILES.length ? String(to) : null } },
    };
  },
  'has_more and starting_after': (q) => {
    const after = q.get('starting_after');
    const from = after ? FILES.findIndex((f) => f.id === after) + 1 : 0;
    const to = Math.min(from + Number(q.get('limit')), FILES.length);
    return { body: { object: 'list', data: FILES.slice(from, to), has_more: to < FILES.length } };
  },
  'a next URL in the body': (q, url) => {
    const from = Number(q.get('from') ?? 0);
    const to = Math.min(from + 40, FILES.length);
    const next = new URL(url);
    next.searchParams.set('from', String(to));
    return { body: { data: FILES.slice(from, to), next: to < FILES.length ? next.href : null } };
  },
  'a Link header': (q) => {
    const from = Number(q.get('from') ?? 0);
    const to = Math.min(from + 40, FILES.length);
    const headers: Record<string, string> =
      to < FILES.length
        ? { link: `</v1/files?from=${to}&limit=40>; rel="next", </v1/files>; rel="first"` }
        : {};
    return { body: FILES.slice(from, to), headers };
  },
  'offset and total': (q) => {
    const offset = Number(q.get('offset') ?? 0);
    const limit = Number(q.get('limit'));
    return {
      body: { data: FILES.slice(offset, offset + limit), meta: { offset, limit, total: FILES.length } },
    };
  },
  'page numbers': (q) => {
    const page = Number(q.get('page') ?? 1);
    const limit = Number(q.get('limit'));
    return {
      body: {
        data: FILES.slice((page - 1) * limit, page * limit),
        meta: { page, totalPages: Math.ceil(FILES.length / limit) },
      },
    };
  },
};

function serving(style: Style) {
  return (req: IncomingMessage, res: ServerResponse) => {
    const url = `http://${req.headers.host}${req.url}`;
    const { body, headers } = style(new URL(url).searchParams, url);
    res.writeHead(200, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };
}

let server: ScriptedServer | undefined;
afterEach(() => server?.close());

async function kb(args: string[]) {
  return runKb(args, { env: { KB_BASE_URL: server!.url, KB_API_KEY: KEY }, configDir: tempDir() });
}

describe('kb follows the paging of any service', () => {
  it.each(Object.keys(STYLES))('lists all 130 files of a service that pages by %s', async (name) => {
    server = await scriptedServer([serving(STYLES[name]!)]);
    const all = await kb(['files', 'list', '--all', '--ids']);
    expect(all.stderr).toBe('');
    expect(all.stdout.trim().split('\n')).toEqual(FILES.map((f) => f.id));
    const some = await kb(['files', 'list', '--limit', '120', '--ids']);
    expect(some.stdout.trim().split('\n')).toEqual(FILES.slice(0, 120).map((f) => f.id));
    expect(some.stderr).toBe('note: showing the first 120 files; more exist (--all lists every one)\n');
    expect(server.requests.every((r) => r.headers.authorization === `Bearer ${KEY}`)).toBe(true);
  });

  it('gives one page and says more may exist when the service does not page at all', async () => {
    server = await scriptedServer([(_req, res) => res.end(JSON.stringify({ data: FILES.slice(0, 100) }))]);
    const res = await kb(['files', 'list', '--all', '--ids']);
    expect(res.stdout.trim().split('\n')).toHaveLength(100);
    expect(res.stderr).toBe(
      'note: showing the first 100 files; more may exist, but the service gives no way to ask for the next page\n',
    );
    expect(server.requests).toHaveLength(1);
  });

  it('stops on a cursor that repeats, and never follows a next page to another host', async () => {
    server = await scriptedServer([
      (_req, res) => res.end(JSON.stringify({ data: FILES.slice(0, 10), meta: { nextCursor: 'same' } })),
    ]);
    const repeated = await kb(['files', 'list', '--all', '--ids']);
    expect(repeated).toMatchObject({ code: 0 });
    expect(repeated.stdout.trim().split('\n')).toHaveLength(20);
    expect(repeated.stderr).toBe(
      'warning: showing the first 20 files: the service gave the same next page twice, so paging stopped\n',
    );
    await server.close();

    const elsewhere = await scriptedServer([(_req, res) => res.end('{"data":[]}')]);
    server = await scriptedServer([
      (_req, res) =>
        res.end(JSON.stringify({ data: FILES.slice(0, 10), next: `${elsewhere.url}/v1/files?p=2` })),
    ]);
    const foreign = await kb(['files', 'list', '--all', '--ids']);
    expect(foreign.stdout.trim().split('\n')).toHaveLength(10);
    expect(foreign.stderr).toContain('the next page is at another address');
    expect(elsewhere.requests).toHaveLength(0);
    await elsewhere.close();
  });
});

describe('kb against kb serve with 130 files and 130 threads', () => {
  it('lists every one with --all, exactly N with --limit N, and says when the list was cut', async () => {
    const local = await startTestServer({ apiKeys: ['many:kb_many_key'], indexDelayMs: 0 });
    try {
      const ws = local.workspaces.find((w) => w.name === 'many')!.id;
      for (let i = 0; i < 130; i++) local.service.indexer.upload(ws, `doc-${i}.md`, Buffer.from(`Doc ${i}.`));
      for (let i = 0; i < 130; i++)
        await api(local, 'kb_many_key', 'POST', '/v1/threads', { title: `Thread ${i}` });
      await local.service.indexer.idle();
      const run = (args: string[]) =>
        runKb(args, { env: { KB_BASE_URL: local.url, KB_API_KEY: 'kb_many_key' }, configDir: tempDir() });
      const ids = (out: string) => out.trim().split('\n');
      const all = await run(['files', 'list', '--all', '--ids']);
      expect([new Set(ids(all.stdout)).size, all.stderr]).toEqual([130, '']);
      const some = await run(['files', 'list', '--limit', '120', '--ids']);
      expect(new Set(ids(some.stdout)).size).toBe(120);
      expect(some.stderr).toBe('note: showing the first 120 files; more exist (--all lists every one)\n');
      const threads = await run(['threads', 'list', '--all', '--jsonl']);
      const titles = ids(threads.stdout).map((l) => (JSON.parse(l) as { title: string }).title);
      expect(new Set(titles).size).toBe(130);
      expect(threads.stderr).toBe('');
    } finally {
      await local.close();
    }
  });
});
