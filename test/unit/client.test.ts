import { afterEach, describe, expect, it } from 'vitest';
import { certificateProblem } from '../../src/api/certificate.js';
import { KbClient, parseRetryAfter } from '../../src/api/client.js';
import {
  AuthenticationError,
  BadRequestError,
  ConflictError,
  ConnectionError,
  InvalidResponseError,
  NotFoundError,
  RateLimitError,
  ServerError,
  TimeoutError,
  UnprocessableError,
} from '../../src/api/errors.js';
import { json, raw, type ScriptedServer, scriptedServer } from '../helpers/scripted.js';

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function client(url: string, extra: Partial<ConstructorParameters<typeof KbClient>[0]> = {}) {
  const delays: number[] = [];
  const c = new KbClient({
    baseUrl: url,
    apiKey: 'kb_secret_canary_1234',
    sleep: async (ms) => {
      delays.push(ms);
    },
    random: () => 0,
    ...extra,
  });
  return { c, delays };
}

describe('KbClient transport', () => {
  it('sends bearer auth, user agent and JSON, and unwraps envelopes', async () => {
    server = await scriptedServer([
      json(201, { data: { id: 'thr_1', title: 'x', status: 'OPEN', createdAt: 'now' } }),
    ]);
    const { c } = client(server.url, { userAgent: 'kb/9.9.9 node/20' });
    const thread = await c.threads.create({ title: 'x' });
    expect(thread.id).toBe('thr_1');
    const req = server.requests[0]!;
    expect(req.headers.authorization).toBe('Bearer kb_secret_canary_1234');
    expect(req.headers['user-agent']).toBe('kb/9.9.9 node/20');
    expect(req.headers['content-type']).toBe('application/json');
    expect(JSON.parse(req.body)).toEqual({ title: 'x' });
    await c.close();
  });

  it('keeps a base URL path prefix and encodes ids into one segment', async () => {
    server = await scriptedServer([json(200, { data: { id: 'a/b', messages: [] } })]);
    const { c } = client(`${server.url}/api/`);
    await c.threads.get('a/b?x=1#f');
    expect(server.requests[0]!.url).toBe('/api/v1/threads/a%2Fb%3Fx%3D1%23f');
    await expect(c.threads.get('..')).rejects.toThrow(/invalid id/);
    await c.close();
  });

  it('retries a GET after 429 with Retry-After in seconds', async () => {
    server = await scriptedServer([
      json(429, { error: { message: 'slow down' } }, { 'retry-after': '2' }),
      json(200, { data: [] }),
    ]);
    const { c, delays } = client(server.url);
    const page = await c.threads.list();
    expect(page.data).toEqual([]);
    expect(server.requests).toHaveLength(2);
    expect(delays).toEqual([2000]);
    await c.close();
  });

  it('honours Retry-After as an HTTP date and caps it at 60 s', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:05 GMT', now)).toBe(5000);
    expect(parseRetryAfter('3600', now)).toBe(60_000);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
  });

  it('retries 503 with exponential backoff, then succeeds', async () => {
    server = await scriptedServer([json(503, {}), json(503, {}), json(200, { data: [] })]);
    const { c, delays } = client(server.url);
    await c.files.list();
    expect(server.requests).toHaveLength(3);
    expect(delays).toEqual([500, 1000]);
    await c.close();
  });

  it('gives up after the retry budget with a ServerError', async () => {
    server = await scriptedServer([
      json(503, { error: { message: 'down for maintenance', code: 'maintenance' } }),
    ]);
    const { c } = client(server.url, { maxRetries: 1 });
    const err = await c.users.list().catch((e) => e);
    expect(err).toBeInstanceOf(ServerError);
    expect(err.message).toBe('down for maintenance');
    expect(err.code).toBe('maintenance');
    expect(server.requests).toHaveLength(2);
    await c.close();
  });

  it('does not retry a POST on 503, but does on 429', async () => {
    server = await scriptedServer([json(503, {})]);
    const { c } = client(server.url);
    await expect(c.threads.send('thr_1', 'hi')).rejects.toBeInstanceOf(ServerError);
    expect(server.requests).toHaveLength(1);
    await server.close();
    server = await scriptedServer([
      json(429, {}, { 'retry-after': '1' }),
      json(201, { data: { userMessage: {}, aiResponse: { content: 'ok' } } }),
    ]);
    const second = client(server.url);
    const exchange = await second.c.threads.send('thr_1', 'hi');
    expect(exchange.aiResponse.content).toBe('ok');
    expect(server.requests).toHaveLength(2);
    await c.close();
    await second.c.close();
  });

  it('retries a POST when the connection is refused (nothing was sent)', async () => {
    const { c, delays } = client('http://127.0.0.1:9', { maxRetries: 2 });
    const err = await c.threads.create({ title: 'x' }).catch((e) => e);
    expect(err).toBeInstanceOf(ConnectionError);
    expect(err.message).toMatch(/connection refused/);
    expect(delays).toHaveLength(2);
    await c.close();
  });

  it('times out a slow response with a TimeoutError and does not retry a POST', async () => {
    server = await scriptedServer([() => {}]);
    const { c } = client(server.url, { timeoutOverrideMs: 200 });
    const started = Date.now();
    const err = await c.threads.send('thr_1', 'hi').catch((e) => e);
    expect(err).toBeInstanceOf(TimeoutError);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(server.requests).toHaveLength(1);
    await c.close();
  });

  it('turns an HTML 502 page into a one-line error', async () => {
    server = await scriptedServer([
      raw(502, '<html><body><h1>502 Bad Gateway</h1>\n<p>nginx</p></body></html>', {
        'content-type': 'text/html',
      }),
    ]);
    const { c } = client(server.url, { maxRetries: 0 });
    const err = await c.threads.list().catch((e) => e);
    expect(err).toBeInstanceOf(ServerError);
    expect(err.message).toMatch(
      /^unexpected 502 text\/html response from http:\/\/127\.0\.0\.1:\d+\/v1\/threads: 502 Bad Gateway/,
    );
    await c.close();
  });

  it('reports malformed JSON in a 200 as an invalid response', async () => {
    server = await scriptedServer([raw(200, '{"data": [', { 'content-type': 'application/json' })]);
    const { c } = client(server.url);
    const err = await c.threads.list().catch((e) => e);
    expect(err).toBeInstanceOf(InvalidResponseError);
    expect(err.message).toMatch(/malformed JSON/);
    await c.close();
  });

  it.each([
    [{ error: { message: 'm1', code: 'c1' } }, 'm1', 'c1'],
    [{ error: 'm2' }, 'm2', 'm2'],
    [{ message: 'm3', code: 'c3' }, 'm3', 'c3'],
    [{ title: 'Bad thing', detail: 'm4' }, 'Bad thing: m4', undefined],
  ])('reads the message of error shape %j', async (body, message, code) => {
    server = await scriptedServer([json(400, body)]);
    const { c } = client(server.url);
    const err = await c.threads.list().catch((e) => e);
    expect(err).toBeInstanceOf(BadRequestError);
    expect(err.message).toBe(message);
    expect(err.code).toBe(code);
    await c.close();
  });

  it.each([
    [401, AuthenticationError],
    [404, NotFoundError],
    [409, ConflictError],
    [422, UnprocessableError],
    [429, RateLimitError],
  ])('maps status %i to its error class, with the request id', async (status, cls) => {
    server = await scriptedServer([json(status, { error: { message: 'x' } }, { 'x-request-id': 'req_abc' })]);
    const { c } = client(server.url, { maxRetries: 0 });
    const err = await c.threads.list().catch((e) => e);
    expect(err).toBeInstanceOf(cls);
    expect(err.status).toBe(status);
    expect(err.requestId).toBe('req_abc');
    expect(JSON.stringify(err)).not.toContain('kb_secret_canary_1234');
    expect(String(err.stack)).not.toContain('kb_secret_canary_1234');
    await c.close();
  });

  it('logs requests for --debug without the Authorization header', async () => {
    server = await scriptedServer([json(200, { data: [] }, { 'x-request-id': 'req_dbg' })]);
    const lines: string[] = [];
    const { c } = client(server.url, { debug: (l) => lines.push(l) });
    await c.users.list({ q: 'zo' });
    expect(lines[0]).toMatch(/^--> GET http:\/\/127\.0\.0\.1:\d+\/v1\/users\?q=zo$/);
    expect(lines[1]).toMatch(/^<-- 200 GET .* \d+ms req_dbg$/);
    expect(lines.join('\n')).not.toContain('kb_secret_canary_1234');
    await c.close();
  });
});

describe('certificate problems', () => {
  it.each([
    ['DEPTH_ZERO_SELF_SIGNED_CERT', 'self_signed'],
    ['SELF_SIGNED_CERT_IN_CHAIN', 'self_signed'],
    ['ERR_TLS_CERT_ALTNAME_INVALID', 'wrong_host'],
    ['CERT_HAS_EXPIRED', 'expired'],
    ['CERT_NOT_YET_VALID', 'not_yet_valid'],
    ['UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'untrusted'],
    ['UNABLE_TO_GET_ISSUER_CERT_LOCALLY', 'untrusted'],
    ['CERT_UNTRUSTED', 'untrusted'],
    ['ECONNREFUSED', undefined],
    [undefined, undefined],
  ])('%s is %s', (code, problem) => {
    expect(certificateProblem(code)).toBe(problem);
  });
});
