import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import { createRequire } from 'node:module';
import type { Dispatcher } from 'undici';
// undici's root entry loads every API it has (~+100 ms at start-up), and its `request` API
// pulls in the fetch body machinery. kb imports only the Agent, bundled with the CLI, and
// reads responses through the low-level dispatch interface.
import Agent from 'undici/lib/dispatcher/agent.js';
import { ChunkQueue } from './chunk-queue.js';

/** Node's default; set here because the bundle does not load node:http to read it (rolldown.config.js). */
const MAX_HEADER_BYTES = 16 * 1024;

export interface TransportRequest {
  origin: string;
  path: string;
  method: Dispatcher.HttpMethod;
  headers: Record<string, string>;
  body?: string | Buffer | Readable;
  signal?: AbortSignal;
  /** The body may not be larger than this; the request fails with code BODY_TOO_LARGE. */
  maxBodyBytes: number;
  /**
   * For a body read as it arrives (an event stream): asked once the status and headers are
   * known; when it answers true, the response comes at once with `chunks` to read, and no body.
   */
  stream?: (status: number, headers: IncomingHttpHeaders) => boolean;
}

export interface TransportResponse {
  statusCode: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** A body read as it arrives (see TransportRequest.stream): stopping early drops the connection. */
  chunks?: AsyncIterable<Buffer>;
}

export interface Transport {
  request(options: TransportRequest): Promise<TransportResponse>;
  close(): Promise<void>;
}

export interface TransportOptions {
  connectTimeoutMs: number;
  env?: NodeJS.ProcessEnv;
}

function proxyConfigured(env: NodeJS.ProcessEnv): boolean {
  return Boolean(env.HTTPS_PROXY || env.https_proxy || env.HTTP_PROXY || env.http_proxy);
}

function abortError(): Error {
  return Object.assign(new Error('request aborted'), { name: 'AbortError', code: 'ABORT_ERR' });
}

/** One request through a dispatcher, with the whole response body collected, or read as it arrives. */
function dispatch(dispatcher: Dispatcher, req: TransportRequest): Promise<TransportResponse> {
  return new Promise((resolve, reject) => {
    let settled = false;
    let controller: Dispatcher.DispatchController | undefined;
    const finish = (error: Error | undefined, response?: TransportResponse) => {
      if (settled) return;
      settled = true;
      req.signal?.removeEventListener('abort', onAbort);
      if (error) reject(error);
      else resolve(response!);
    };
    // Rejects at once, even while still connecting; the connection is dropped when it can be.
    const onAbort = () => {
      controller?.abort(abortError());
      finish(abortError());
    };
    if (req.signal?.aborted) return finish(abortError());
    req.signal?.addEventListener('abort', onAbort, { once: true });

    let statusCode = 0;
    let headers: IncomingHttpHeaders = {};
    const chunks: Buffer[] = [];
    let size = 0;
    let queue: ChunkQueue | undefined;
    // Once the response is handed over, an abort ends the body the reader is reading.
    const stopReading = () => {
      queue?.end(abortError());
      controller?.abort(abortError());
    };
    dispatcher.dispatch(
      {
        origin: req.origin,
        path: req.path,
        method: req.method,
        headers: req.headers,
        body: req.body,
        headersTimeout: 0,
        bodyTimeout: 0,
      },
      {
        onRequestStart(c) {
          controller = c;
          if (settled) c.abort(abortError());
        },
        onResponseStart(c, status, responseHeaders) {
          statusCode = status;
          headers = responseHeaders;
          if (!req.stream?.(status, responseHeaders)) return;
          queue = new ChunkQueue(() => c.abort(abortError()));
          queue.setFlow(c);
          req.signal?.addEventListener('abort', stopReading, { once: true });
          finish(undefined, { statusCode, headers, body: Buffer.alloc(0), chunks: queue });
        },
        onResponseData(c, chunk) {
          if (queue) return void queue.push(chunk);
          size += chunk.length;
          if (size > req.maxBodyBytes)
            c.abort(Object.assign(new Error('body too large'), { code: 'BODY_TOO_LARGE' }));
          else chunks.push(chunk);
        },
        onResponseEnd() {
          req.signal?.removeEventListener('abort', stopReading);
          queue?.end();
          finish(undefined, { statusCode, headers, body: Buffer.concat(chunks) });
        },
        onResponseError(_c, error) {
          req.signal?.removeEventListener('abort', stopReading);
          queue?.end(error);
          finish(error);
        },
      },
    );
  });
}

/** A keep-alive dispatcher shared by every request of the process; proxy-aware when HTTP(S)_PROXY is set. */
export function createTransport(options: TransportOptions): Transport {
  const env = options.env ?? process.env;
  const common = { connect: { timeout: options.connectTimeoutMs }, maxHeaderSize: MAX_HEADER_BYTES };
  let dispatcher: Dispatcher;
  if (proxyConfigured(env)) {
    // Rare, so the proxy agent comes from the whole of undici in node_modules: its internals
    // cannot be mixed with the copy bundled into the CLI.
    const undici = createRequire(import.meta.url)('undici') as typeof import('undici');
    dispatcher = new undici.EnvHttpProxyAgent({
      ...common,
      httpProxy: env.HTTP_PROXY ?? env.http_proxy,
      httpsProxy: env.HTTPS_PROXY ?? env.https_proxy,
      noProxy: env.NO_PROXY ?? env.no_proxy,
    });
  } else {
    dispatcher = new Agent({ ...common, keepAliveTimeout: 10_000 });
  }
  return transportFor(dispatcher);
}

/** A transport over any undici dispatcher (tests pass undici's MockAgent). */
export function transportFor(dispatcher: Dispatcher): Transport {
  return { request: (req) => dispatch(dispatcher, req), close: () => dispatcher.close() };
}
