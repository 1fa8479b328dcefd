import { PassThrough, Readable } from 'node:stream';
import { MockAgent } from 'undici';
import { transportFor } from '../../src/api/transport.js';
import { Context, type GlobalOptions } from '../../src/factory.js';
import { Signals } from '../../src/io/signals.js';
import type { Streams } from '../../src/io/streams.js';
import { tempDir } from './cli.js';

export const ORIGIN = 'https://kb.test';
export const KEY = 'kb_test_0123456789abcdef';

/** A writable stream that keeps what was written, with the TTY facts of a terminal or a pipe. */
function sink(isTTY: boolean, columns: number) {
  const chunks: Buffer[] = [];
  const stream = new PassThrough();
  stream.on('data', (c: Buffer) => chunks.push(c));
  Object.assign(stream, { isTTY, columns: isTTY ? columns : undefined });
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}

export interface FakeOptions {
  /** stdout (and stdin, stderr unless given) is a terminal. */
  tty?: boolean;
  stdinIsTTY?: boolean;
  stderrIsTTY?: boolean;
  columns?: number;
  stdin?: string;
  options?: GlobalOptions;
  env?: NodeJS.ProcessEnv;
  configDir?: string;
  now?: number;
}

export interface Fake {
  ctx: Context;
  agent: MockAgent;
  /** Intercepts `method path` on the test origin (see undici's MockPool.intercept). */
  on: (method: string, path: string | RegExp) => ReturnType<ReturnType<MockAgent['get']>['intercept']>;
  stdout(): string;
  stderr(): string;
  signals: Signals;
}

/**
 * A context for running a verb's run function in-process: fake streams with chosen TTY facts,
 * undici's MockAgent as the transport (no request leaves the process), a throwaway config dir.
 */
export function fakeContext(options: FakeOptions = {}): Fake {
  const tty = options.tty ?? false;
  const out = sink(tty, options.columns ?? 100);
  const err = sink(options.stderrIsTTY ?? tty, options.columns ?? 100);
  const stdin = Readable.from(options.stdin === undefined ? [] : [Buffer.from(options.stdin)]);
  Object.assign(stdin, { isTTY: options.stdinIsTTY ?? tty });
  const streams: Streams = {
    stdin,
    stdout: out.stream,
    stderr: err.stream,
    stdinIsTTY: options.stdinIsTTY ?? tty,
    stdoutIsTTY: tty,
    stderrIsTTY: options.stderrIsTTY ?? tty,
  };
  const agent = new MockAgent();
  agent.disableNetConnect();
  const signals = new Signals();
  const ctx = new Context({
    options: options.options ?? {},
    streams,
    env: { KB_BASE_URL: ORIGIN, KB_API_KEY: KEY, TERM: 'xterm-256color', ...options.env },
    configDir: options.configDir ?? tempDir(),
    transport: transportFor(agent),
    clock: () => options.now ?? Date.parse('2026-11-22T12:00:00Z'),
    signals,
  });
  return {
    ctx,
    agent,
    on: (method, path) => agent.get(ORIGIN).intercept({ method, path }),
    stdout: out.text,
    stderr: err.text,
    signals,
  };
}

/** A JSON reply for MockAgent. */
export const json = (body: unknown, headers: Record<string, string> = {}) => ({
  statusCode: 200,
  data: JSON.stringify(body),
  responseOptions: { headers: { 'content-type': 'application/json', ...headers } },
});
