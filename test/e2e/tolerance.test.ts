import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runKb } from '../helpers/cli.js';

/**
 * A server that answers in the other shapes the interface allows: lists without meta, a thread
 * as {thread, messages}, deletes as 200 with a body, extra fields, timestamps without
 * milliseconds, and problem+json errors.
 */
let url = '';
let server: ReturnType<typeof createServer>;
const seen: string[] = [];

function reply(res: ServerResponse, status: number, body?: unknown, type = 'application/json') {
  res.writeHead(status, { 'content-type': type });
  res.end(body === undefined ? '' : JSON.stringify(body));
}

const thread = {
  id: 'thr_alt',
  title: 'Alt shapes',
  status: 'OPEN',
  createdAt: '2026-01-02T03:04:05Z',
  owner: { id: 'x' },
  tags: ['a'],
};
const message = (id: string, role: string, content: string) => ({
  id,
  role,
  content,
  createdAt: '2026-01-02T03:04:06Z',
  tokens: 12,
});

const failedFile = {
  id: 'file_1',
  originalFilename: 'a.pdf',
  fileSize: 2048,
  mimeType: 'application/pdf',
  indexingStatus: 'FAILED',
  createdAt: '2026-01-02T03:04:05Z',
};

function handle(req: IncomingMessage, res: ServerResponse) {
  seen.push(`${req.method} ${req.url}`);
  const path = req.url!.split('?')[0];
  if (req.method === 'GET' && path === '/v1/threads')
    return reply(res, 200, { data: [thread], nextCursor: null });
  if (req.method === 'GET' && path === '/v1/threads/thr_alt')
    return reply(res, 200, {
      data: {
        thread,
        messages: [message('m1', 'user', 'hi'), message('m2', 'assistant', 'hello **there**')],
      },
    });
  if (req.method === 'POST' && path === '/v1/threads/thr_alt/messages')
    return reply(res, 200, {
      data: {
        userMessage: message('m3', 'user', 'q'),
        aiResponse: message('m4', 'assistant', 'the answer'),
        usage: {},
      },
    });
  if (req.method === 'GET' && path === '/v1/files')
    return reply(res, 200, {
      data: [{ ...failedFile, bucket: 'b' }],
    });
  if (req.method === 'GET' && path === '/v1/files/file_1')
    return reply(res, 200, {
      data: { ...failedFile, error: 'OCR failed on page 3', pages: 12 },
    });
  if (req.method === 'DELETE' && path === '/v1/files/file_1')
    return reply(res, 200, { data: { id: 'file_1', deleted: true } });
  if (req.method === 'GET' && path === '/v1/users')
    return reply(res, 200, [
      { id: 'u1', name: 'Ana', email: 'ana@example.com', createdAt: '2026-01-02T03:04:05Z' },
    ]);
  if (req.method === 'GET' && path === '/v1/threads/thr_gone')
    return reply(
      res,
      404,
      { type: 'about:blank', title: 'Not Found', detail: 'thread thr_gone does not exist' },
      'application/problem+json',
    );
  reply(res, 404, { message: 'no route' });
}

beforeAll(async () => {
  server = createServer(handle);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const kb = (args: string[], input?: string) =>
  runKb(args, { env: { KB_BASE_URL: url, KB_API_KEY: 'kb_alt' }, input });

describe('other plausible response shapes', () => {
  it('lists without meta, with extra fields and second-precision timestamps', async () => {
    const threads = await kb(['threads', 'list']);
    expect(threads.code).toBe(0);
    expect(threads.stdout).toBe('thr_alt\tAlt shapes\tOPEN\t2026-01-02T03:04:05Z\n');
    expect(JSON.parse((await kb(['threads', 'list', '--json'])).stdout)[0].tags).toEqual(['a']);
    expect((await kb(['files', 'list', '--ids'])).stdout).toBe('file_1\n');
  });

  it('reads users from a bare array', async () => {
    expect((await kb(['users', 'list'])).stdout).toBe('u1\tAna\tana@example.com\t2026-01-02T03:04:05Z\n');
  });

  it('reads a thread given as {thread, messages}', async () => {
    const res = await kb(['threads', 'get', 'thr_alt', '--json']);
    const body = JSON.parse(res.stdout);
    expect(body).toMatchObject({ id: 'thr_alt', title: 'Alt shapes' });
    expect(body.messages.map((m: { id: string }) => m.id)).toEqual(['m1', 'm2']);
    expect((await kb(['threads', 'get', 'thr_alt'])).stdout).toContain('hello **there**');
  });

  it('sends through a 200 (not 201) with extra fields', async () => {
    expect((await kb(['threads', 'send', 'thr_alt', 'q'])).stdout).toBe('the answer\n');
  });

  it('shows an indexing error given as a plain string field', async () => {
    const res = await kb(['files', 'get', 'file_1']);
    expect(res.stdout).toContain('Error\tOCR failed on page 3');
    expect(res.stdout).toContain('Pages\t12');
  });

  it('accepts a delete answered 200 with a body', async () => {
    const res = await kb(['files', 'delete', 'file_1', '--yes']);
    expect(res.code).toBe(0);
    expect(res.stdout).toBe('deleted\tfile_1\n');
  });

  it('reads problem+json errors', async () => {
    const res = await kb(['threads', 'get', 'thr_gone']);
    expect(res.code).toBe(3);
    expect(res.stderr).toBe(
      'error: Not Found: thread thr_gone does not exist\nhint: `kb threads list` shows the threads there are\n',
    );
  });
});
