import { Readable } from 'node:stream';
import {
  AbortedError,
  ApiError,
  ConnectionError,
  errorForStatus,
  InvalidResponseError,
  messageFromBody,
  NotTheServiceError,
  TimeoutError,
} from './errors.js';
import { certificateProblem, describeCertificateProblem } from './certificate.js';
import { FilesResource } from './resources/files.js';
import { SearchResource, type SearchParams } from './resources/search.js';
import { ThreadsResource } from './resources/threads.js';
import { UsersResource } from './resources/users.js';
import { WebhooksResource } from './resources/webhooks.js';
import { stopwatch } from '../util/duration.js';
import { sleep } from '../util/sleep.js';
import { CONNECT_TIMEOUT_MS, DEFAULT_TIMEOUT_MS } from './timeouts.js';
import { createTransport, type Transport } from './transport.js';
import type { SearchResult } from './types.js';

const MAX_RETRY_AFTER_MS = 60_000;
const MAX_BACKOFF_MS = 8_000;
const MAX_BODY_BYTES = 64 * 1024 * 1024;

export type Query = Record<string, string | number | boolean | undefined>;

export interface ClientOptions {
  baseUrl: string;
  apiKey?: string;
  /** Per-request timeout; falls back to 30 s (300 s for posting a message). */
  timeoutMs?: number;
  /** Overrides every per-request default when set (from --timeout / KB_TIMEOUT). */
  timeoutOverrideMs?: number;
  maxRetries?: number;
  userAgent?: string;
  debug?: (line: string) => void;
  transport?: Transport;
  /** For tests: how to wait between attempts. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  random?: () => number;
}

export interface RequestOptions {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD' | 'OPTIONS';
  path: string;
  query?: Query;
  body?: unknown;
  /** A raw body sent as is (kb api --input, an upload). */
  rawBody?: string | Buffer;
  /** With a Buffer rawBody: called as its bytes are sent (for a progress bar). */
  onUploadProgress?: (sent: number, total: number) => void;
  headers?: Record<string, string>;
  timeoutMs?: number;
  signal?: AbortSignal;
  maxRetries?: number;
  /**
   * Read an answer that is an event stream (2xx, text/event-stream) as it arrives: the response
   * comes with `chunks` and an empty body. `timeoutMs` then bounds the silence between chunks.
   */
  stream?: boolean;
}

/** How much of an upload is handed to the connection at a time: the grain of its progress. */
const UPLOAD_PART = 256 * 1024;

/** `bytes` in parts, saying after each how much was taken: the body's consumer pulls them as it sends. */
function* sentInParts(bytes: Buffer, onProgress: (sent: number, total: number) => void): Generator<Buffer> {
  onProgress(0, bytes.length);
  for (let at = 0; at < bytes.length; at += UPLOAD_PART) {
    yield bytes.subarray(at, at + UPLOAD_PART);
    onProgress(Math.min(bytes.length, at + UPLOAD_PART), bytes.length);
  }
}

export interface ApiResponse<T = unknown> {
  status: number;
  headers: Record<string, string>;
  /** Parsed JSON (undefined for an empty body). */
  body: T;
  rawBody: Buffer;
  requestId?: string;
  /**
   * An event stream's body as it arrives (RequestOptions.stream), pulled by the reader;
   * breaking off drops the connection. Its failures are this client's errors.
   */
  chunks?: AsyncIterable<Buffer>;
}

const CONNECT_PHASE_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);
const RETRYABLE_STATUS = new Set([408, 429, 500, 502, 503, 504]);
/** A page (not JSON) with these says the route is not there: the base URL is not the service's. */
const NOT_THE_SERVICE = new Set([404, 405, 501]);

/** Joins the base URL (which may carry a path prefix) with an API path and query. */
export function joinUrl(baseUrl: string, path: string, query?: Query): string {
  const url = new URL(baseUrl.replace(/\/+$/, '') + (path.startsWith('/') ? path : `/${path}`));
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== '') url.searchParams.set(key, String(value));
  }
  return url.toString();
}

/** Retry-After in seconds or as an HTTP date, in milliseconds; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.min(Number(trimmed) * 1000, MAX_RETRY_AFTER_MS);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.min(Math.max(0, date - now), MAX_RETRY_AFTER_MS);
}

function errorCode(err: unknown): string | undefined {
  let current: any = err;
  for (let depth = 0; current && depth < 4; depth++) {
    if (typeof current.code === 'string' && current.code !== 'UND_ERR_SOCKET') return current.code;
    if (current.code === 'UND_ERR_SOCKET') return 'ECONNRESET';
    current = current.cause;
  }
  return undefined;
}

function headerMap(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(raw)) {
    if (value !== undefined) out[key.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/** The transport shared by the CLI's client: one per process. */
export class KbClient {
  readonly threads = new ThreadsResource(this);
  readonly files = new FilesResource(this);
  readonly users = new UsersResource(this);
  readonly webhooks = new WebhooksResource(this);
  readonly #search = new SearchResource(this);
  readonly baseUrl: string;
  readonly #apiKey: string | undefined;
  readonly #options: ClientOptions;
  #transport: Transport | undefined;

  constructor(options: ClientOptions) {
    this.baseUrl = options.baseUrl;
    this.#apiKey = options.apiKey;
    this.#options = options;
    this.#transport = options.transport;
  }

  async close(): Promise<void> {
    await this.#transport?.close();
  }

  /**
   * The passages retrieved for a question, ranked, with file, pages, score and whether each
   * answers (`GET /v1/search`, an extension of kb serve; elsewhere an UnsupportedError).
   */
  search(params: SearchParams): Promise<SearchResult> {
    return this.#search.search(params);
  }

  get #http(): Transport {
    this.#transport ??= createTransport({ connectTimeoutMs: CONNECT_TIMEOUT_MS });
    return this.#transport;
  }

  /** Sends a request with retries; returns the response or throws a typed ApiError. */
  async request<T = unknown>(req: RequestOptions): Promise<ApiResponse<T>> {
    const maxRetries = req.maxRetries ?? this.#options.maxRetries ?? 2;
    const wait = this.#options.sleep ?? sleep;
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.#attempt<T>(req);
      } catch (err) {
        const delay = this.#retryDelay(req, err, attempt, maxRetries);
        if (delay === undefined) throw err;
        this.#debug(
          `retrying ${req.method} ${req.path} in ${Math.round(delay)}ms (attempt ${attempt + 2} of ${maxRetries + 1})`,
        );
        try {
          await wait(delay, req.signal);
        } catch {
          throw new AbortedError('request cancelled', { method: req.method, url: this.#url(req) });
        }
      }
    }
  }

  #url(req: RequestOptions): string {
    return joinUrl(this.baseUrl, req.path, req.query);
  }

  #debug(line: string) {
    this.#options.debug?.(line);
  }

  #retryDelay(req: RequestOptions, err: unknown, attempt: number, maxRetries: number): number | undefined {
    if (attempt >= maxRetries || !(err instanceof ApiError)) return undefined;
    const idempotent = req.method === 'GET' || req.method === 'DELETE' || req.method === 'HEAD';
    let retryable = false;
    // A certificate is no better a second later.
    if (err instanceof ConnectionError)
      retryable = !certificateProblem(err.code) && (idempotent || CONNECT_PHASE_CODES.has(err.code ?? ''));
    else if (err.status !== undefined && RETRYABLE_STATUS.has(err.status))
      retryable = idempotent || err.status === 429;
    if (!retryable) return undefined;
    const retryAfter = err.retryAfterMs;
    if (retryAfter !== undefined) return retryAfter;
    const base = Math.min(500 * 2 ** attempt, MAX_BACKOFF_MS);
    const jitter = 1 - 0.25 * (this.#options.random ?? Math.random)();
    return base * jitter;
  }

  #timeoutFor(req: RequestOptions): number {
    return this.#options.timeoutOverrideMs ?? req.timeoutMs ?? this.#options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  }

  async #attempt<T>(req: RequestOptions): Promise<ApiResponse<T>> {
    const url = this.#url(req);
    const fields = { method: req.method, url };
    const headers: Record<string, string> = {
      accept: 'application/json',
      'user-agent': this.#options.userAgent ?? 'kb',
      ...req.headers,
    };
    if (this.#apiKey) headers.authorization = `Bearer ${this.#apiKey}`;
    let body: string | Buffer | Readable | undefined;
    if (req.rawBody !== undefined) body = req.rawBody;
    if (Buffer.isBuffer(req.rawBody) && req.onUploadProgress) {
      headers['content-length'] = String(req.rawBody.length);
      body = Readable.from(sentInParts(req.rawBody, req.onUploadProgress), { objectMode: false });
    } else if (req.body !== undefined) {
      body = JSON.stringify(req.body);
      headers['content-type'] ??= 'application/json';
    }

    const timeoutMs = this.#timeoutFor(req);
    const elapsed = stopwatch();
    const controller = new AbortController();
    let timedOut = false;
    const expire = () => {
      timedOut = true;
      controller.abort();
    };
    let timer = setTimeout(expire, timeoutMs);
    const stillAlive = () => {
      clearTimeout(timer);
      timer = setTimeout(expire, timeoutMs);
    };
    const stream = !req.stream
      ? undefined
      : (status: number, h: Record<string, string | string[] | undefined>) => {
          const events = status < 300 && /^text\/event-stream/i.test(String(h['content-type'] ?? ''));
          if (events) stillAlive();
          return events;
        };
    const onUserAbort = () => controller.abort();
    if (req.signal?.aborted) controller.abort();
    req.signal?.addEventListener('abort', onUserAbort, { once: true });
    /** Done with the request: its timer and the caller's signal are let go (after a stream is read). */
    let handedOver = false;
    const settle = () => {
      clearTimeout(timer);
      req.signal?.removeEventListener('abort', onUserAbort);
    };
    /** What a failure of the transport is, as this client's error. */
    const failure = (err: unknown): ApiError => {
      const ms = Math.round(elapsed());
      if (req.signal?.aborted) return new AbortedError('request cancelled', fields);
      if (timedOut) {
        this.#debug(`<-- timeout ${req.method} ${url} ${ms}ms`);
        return new TimeoutError(`no response from ${new URL(url).host} within ${timeoutMs / 1000}s`, fields);
      }
      const code = errorCode(err);
      this.#debug(`<-- ${code ?? 'error'} ${req.method} ${url} ${ms}ms: ${(err as Error).message}`);
      return new ConnectionError(describeConnectionFailure(code, url), { ...fields, code });
    };

    this.#debug(`--> ${req.method} ${url}`);
    try {
      const target = new URL(url);
      const response = await this.#http.request({
        origin: target.origin,
        path: target.pathname + target.search,
        method: req.method,
        headers,
        body,
        signal: controller.signal,
        maxBodyBytes: MAX_BODY_BYTES,
        stream,
      });
      const rawBody = response.body;
      const responseHeaders = headerMap(response.headers);
      const requestId = responseHeaders['x-request-id'];
      const ms = Math.round(elapsed());
      this.#debug(
        `<-- ${response.statusCode} ${req.method} ${url} ${ms}ms${requestId ? ` ${requestId}` : ''}`,
      );
      if (response.chunks) {
        const { chunks } = response;
        handedOver = true;
        return {
          status: response.statusCode,
          headers: responseHeaders,
          body: undefined as T,
          rawBody,
          requestId,
          chunks: (async function* () {
            try {
              for await (const chunk of chunks) {
                stillAlive();
                yield chunk;
              }
            } catch (err) {
              throw failure(err);
            } finally {
              settle();
            }
          })(),
        };
      }
      return this.#interpret<T>(response.statusCode, responseHeaders, rawBody, { ...fields, requestId });
    } catch (err) {
      if (err instanceof ApiError) throw err;
      throw failure(err);
    } finally {
      if (!handedOver) settle();
    }
  }

  #interpret<T>(
    status: number,
    headers: Record<string, string>,
    rawBody: Buffer,
    fields: { method: string; url: string; requestId?: string },
  ): ApiResponse<T> {
    const contentType = headers['content-type'] ?? '';
    const text = rawBody.toString('utf8');
    let body: unknown;
    let parseFailed = false;
    if (text.trim()) {
      try {
        body = JSON.parse(text);
      } catch {
        parseFailed = true;
      }
    }
    const looksJson = /json/i.test(contentType) || (!contentType && !parseFailed);
    if (status >= 200 && status < 300) {
      if (parseFailed || (text.trim() && !looksJson && body === undefined)) {
        throw new InvalidResponseError(
          unexpectedResponse(status, contentType, fields.url, text, parseFailed),
          {
            ...fields,
            status,
          },
        );
      }
      return { status, headers, body: body as T, rawBody, requestId: fields.requestId };
    }
    const empty = text.trim() === '';
    const page = !empty && (parseFailed || !looksJson);
    // The service's errors always say what went wrong in a body; only an answer to HEAD has none.
    const bare = empty && fields.method !== 'HEAD';
    if ((page || bare) && NOT_THE_SERVICE.has(status)) {
      const what = bare ? 'with an empty body' : contentType.split(';')[0]?.trim() || 'untyped';
      throw new NotTheServiceError(
        `${this.baseUrl} does not look like the kb service (${fields.method} ${new URL(fields.url).pathname} answered ${status} ${what})`,
        { ...fields, status, code: 'not_the_service' },
      ).withResponse({ status, headers, rawBody });
    }
    const parsed = parseFailed ? {} : messageFromBody(body);
    const message =
      parsed.message ??
      (text.trim() && (parseFailed || !looksJson)
        ? unexpectedResponse(status, contentType, fields.url, text, false)
        : `${status} from ${fields.method} ${new URL(fields.url).pathname}${redirectedTo(status, headers.location)}`);
    const error = errorForStatus(status, message, { ...fields, code: parsed.code });
    error.withResponse({ status, headers, rawBody });
    error.retryAfterMs = parseRetryAfter(headers['retry-after']);
    throw error;
  }
}

/** A redirect's target, which kb does not follow (it would carry the key elsewhere): said, so it can be fixed. */
function redirectedTo(status: number, location: string | undefined): string {
  return status >= 300 && status < 400 && location ? `, redirected to ${location.slice(0, 300)}` : '';
}

function firstLine(text: string): string {
  const line =
    text
      .replace(/<[^>]*>/g, ' ')
      .split(/\r?\n/)
      .map((l) => l.replace(/\s+/g, ' ').trim())
      .find(Boolean) ?? '';
  return line.length > 120 ? `${line.slice(0, 117)}...` : line;
}

function unexpectedResponse(
  status: number,
  contentType: string,
  url: string,
  text: string,
  truncated: boolean,
) {
  const type = contentType.split(';')[0]?.trim() || 'untyped';
  if (truncated && /json/i.test(type)) return `malformed JSON in ${status} response from ${url}`;
  const line = firstLine(text);
  return `unexpected ${status} ${type} response from ${url}${line ? `: ${line}` : ''}`;
}

function describeConnectionFailure(code: string | undefined, url: string): string {
  const { host, hostname } = new URL(url);
  const certificate = certificateProblem(code);
  if (certificate) return `${describeCertificateProblem(certificate, host, hostname)} (${code})`;
  switch (code) {
    case 'ECONNREFUSED':
      return `cannot connect to ${host}: connection refused`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `cannot resolve host ${new URL(url).hostname}`;
    case 'UND_ERR_CONNECT_TIMEOUT':
      return `cannot connect to ${host}: connection timed out`;
    case 'ECONNRESET':
    case 'UND_ERR_SOCKET':
      return `connection to ${host} was closed before a complete response`;
    case 'BODY_TOO_LARGE':
      return `response from ${host} is larger than ${MAX_BODY_BYTES / 1024 / 1024} MiB`;
    default:
      return `request to ${host} failed${code ? ` (${code})` : ''}`;
  }
}
