import { createRequire } from 'node:module';
import { setFlagsFromString } from 'node:v8';
import type { Dispatcher } from 'undici';
// undici's root entry loads every API it has (~+100 ms at start-up); a direct request only
// needs the Agent and `request`, imported directly and bundled with the CLI.
import Agent from 'undici/lib/dispatcher/agent.js';
import apiRequest from 'undici/lib/api/api-request.js';

// undici parses HTTP with a WebAssembly build of llhttp. V8 compiles it with its baseline
// compiler and then re-compiles it optimised in the background, and a short-lived process
// waits ~100 ms for that at exit. The baseline code is fast enough for a CLI's few requests.
setFlagsFromString('--liftoff-only');

type RequestFn = (this: Dispatcher, options: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>;

export interface Transport {
  request(options: Dispatcher.RequestOptions): Promise<Dispatcher.ResponseData>;
  close(): Promise<void>;
}

export interface TransportOptions {
  connectTimeoutMs: number;
  env?: NodeJS.ProcessEnv;
}

function proxyConfigured(env: NodeJS.ProcessEnv): boolean {
  return Boolean(env.HTTPS_PROXY || env.https_proxy || env.HTTP_PROXY || env.http_proxy);
}

/** A keep-alive dispatcher shared by every request of the process; proxy-aware when HTTP(S)_PROXY is set. */
export function createTransport(options: TransportOptions): Transport {
  const env = options.env ?? process.env;
  const connect = { timeout: options.connectTimeoutMs };
  if (proxyConfigured(env)) {
    // Rare, so the whole of undici is loaded from node_modules: its proxy agent and `request`
    // must come from the same copy of the library.
    const undici = createRequire(import.meta.url)('undici') as typeof import('undici');
    const dispatcher = new undici.EnvHttpProxyAgent({
      connect,
      httpProxy: env.HTTP_PROXY ?? env.http_proxy,
      httpsProxy: env.HTTPS_PROXY ?? env.https_proxy,
      noProxy: env.NO_PROXY ?? env.no_proxy,
    });
    return { request: (opts) => dispatcher.request(opts), close: () => dispatcher.close() };
  }
  const dispatcher: Dispatcher = new Agent({ connect, keepAliveTimeout: 10_000 });
  const request = apiRequest as RequestFn;
  return { request: (opts) => request.call(dispatcher, opts), close: () => dispatcher.close() };
}
