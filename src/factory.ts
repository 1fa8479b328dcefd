import type { Command } from 'commander';
import type { KbClient } from './api/client.js';
import { join } from 'node:path';
import { CONFIG_FILE, configDir } from './config/paths.js';
import { type ReadResult, readConfig } from './config/read.js';
import { checkBaseUrl, type ResolvedAuth, resolveAuth } from './config/resolve.js';
import type { ConfigData } from './config/schema.js';
import { updateConfig } from './config/write.js';
import { CliError, ExitCode, UsageError } from './errors.js';
import { type Format, Output, resolveFormat } from './io/output.js';
import { Signals } from './io/signals.js';
import { createIO, type IO, processStreams, type Streams } from './io/streams.js';
import type { Transport } from './api/transport.js';
import { running } from './running.js';
import { parseDuration } from './util/duration.js';
import { userAgent } from './version.js';
import { setV8Flag } from './v8-flags.js';

/**
 * The client class, for commands. undici parses HTTP with a WebAssembly build of llhttp, which
 * V8 compiles with its baseline compiler and then again optimised: ~100 ms that a short-lived
 * process waits for at exit. The CLI keeps the baseline code, fast enough for its few requests
 * (the library leaves its host's V8 flags alone). The flag is set once the client is loaded:
 * Node's own modules loaded after a flag change lose their built-in code cache.
 */
export async function loadClientClass(): Promise<typeof import('./api/client.js').KbClient> {
  const { KbClient } = await import('./api/client.js');
  setV8Flag('--liftoff-only');
  return KbClient;
}

export interface GlobalOptions {
  profile?: string;
  baseUrl?: string;
  json?: boolean;
  jsonl?: boolean;
  ids?: boolean;
  color?: boolean;
  debug?: boolean;
  timeout?: string;
  retries?: string;
  insecure?: boolean;
}

export interface ClientOptions {
  /** False: a client without a key is allowed (kb auth login checking a URL). */
  requireKey?: boolean;
  apiKey?: string;
  baseUrl?: string;
  maxRetries?: number;
}

/** What a context is built from. Tests pass fakes; `Context.for` passes the process's own. */
export interface ContextDeps {
  options?: GlobalOptions;
  streams: Streams;
  env: NodeJS.ProcessEnv;
  /** Default: from the environment (KB_CONFIG_DIR, XDG_CONFIG_HOME). */
  configDir?: string;
  /** How the HTTP client sends requests; default: undici. */
  transport?: Transport;
  /** Milliseconds since the epoch, for relative times. */
  clock?: () => number;
  signals?: Signals;
}

/**
 * Everything a command may need, built only when first asked for: IO facts, config, output,
 * the resolved credentials, the HTTP client, and a signal that fires on Ctrl-C.
 */
export class Context {
  readonly options: GlobalOptions;
  readonly env: NodeJS.ProcessEnv;
  readonly signals: Signals;
  readonly #deps: ContextDeps;
  readonly #abort = new AbortController();
  #io?: IO;
  #output?: Output;
  #config?: ReadResult;
  /** Clients made so far, one per distinct set of client() options; all closed by close(). */
  readonly #clients = new Map<string, Promise<KbClient>>();
  #warned = false;

  constructor(deps: ContextDeps) {
    this.#deps = deps;
    this.options = deps.options ?? {};
    this.env = deps.env;
    this.signals = deps.signals ?? new Signals();
  }

  /**
   * The context for a running command: the only place that reads the process's streams and
   * environment. With `ownsTimeout`, `--timeout` belongs to the verb (e.g. how long `kb files
   * wait` waits) and does not set the request timeout.
   */
  static for(command: Command, options: { ownsTimeout?: boolean } = {}): Context {
    let root = command;
    while (root.parent) root = root.parent;
    const globals = root.opts<GlobalOptions>();
    const timeout = options.ownsTimeout ? undefined : globals.timeout;
    running.context = new Context({
      options: { ...command.optsWithGlobals<GlobalOptions>(), timeout },
      streams: processStreams(),
      env: process.env,
      signals: running.signals,
    });
    return running.context;
  }

  /** The context for an error before any command made one: colour and debug as argv and the environment say. */
  static beforeCommand(argv: string[]): Context {
    return new Context({
      options: { color: !argv.includes('--no-color'), debug: argv.includes('--debug') },
      streams: processStreams(),
      env: process.env,
      signals: running.signals,
    });
  }

  /** A context built from the same things, that reads the config again (for commands that run long). */
  fresh(): Context {
    return new Context(this.#deps);
  }

  /** A global option's value as given on the command line, wherever it appeared. */
  static globalOption(command: Command, name: keyof GlobalOptions): unknown {
    let root = command;
    while (root.parent) root = root.parent;
    return root.opts<GlobalOptions>()[name];
  }

  /** A message for a person: on stderr, and only on a terminal. */
  note(text: string): void {
    if (this.io.stderrIsTTY) this.io.err(`${text}\n`);
  }

  /** A warning: on stderr, always. */
  warn(text: string): void {
    this.io.err(`${this.io.errColor.yellow('warning:')} ${text}\n`);
  }

  get signal(): AbortSignal {
    return this.#abort.signal;
  }

  abort(): void {
    this.#abort.abort();
  }

  now(): number {
    return (this.#deps.clock ?? Date.now)();
  }

  get io(): IO {
    this.#io ??= createIO(this.#deps.streams, {
      noColor: this.options.color === false,
      colorSetting: this.#settingsColor(),
      env: this.env,
    });
    return this.#io;
  }

  /** The only writer of stdout. */
  get output(): Output {
    this.#output ??= new Output(this.io, this.format, () => this.now());
    return this.#output;
  }

  #settingsColor() {
    try {
      return this.config.settings.color;
    } catch {
      return undefined;
    }
  }

  get configDir(): string {
    return this.#deps.configDir ?? configDir(this.env);
  }

  get config(): ConfigData {
    this.#config ??= readConfig(this.configDir);
    if (this.#config.permissionWarning && !this.#warned) {
      this.#warned = true;
      this.warn(this.#config.permissionWarning);
    }
    return this.#config.data;
  }

  get configPath(): string {
    return join(this.configDir, CONFIG_FILE);
  }

  async updateConfig(change: (data: ConfigData) => void): Promise<ConfigData> {
    const data = await updateConfig(this.configDir, change);
    this.#config = undefined;
    return data;
  }

  get auth(): ResolvedAuth {
    return resolveAuth(this.options, this.env, this.config);
  }

  debug(line: string): void {
    if (this.debugEnabled) this.io.err(`${this.io.errColor.dim(`[debug] ${line}`)}\n`);
  }

  get debugEnabled(): boolean {
    return Boolean(this.options.debug || (this.env.KB_DEBUG && this.env.KB_DEBUG !== '0'));
  }

  /** Output format: --json, --jsonl or --ids (one at most), then KB_FORMAT or the `format` setting. */
  get format(): Format {
    return resolveFormat(this.options, this.env.KB_FORMAT, () => this.config.settings.format);
  }

  get timeoutOverrideMs(): number | undefined {
    const text = this.options.timeout ?? this.env.KB_TIMEOUT ?? this.config.settings.timeout;
    if (text === undefined) return undefined;
    const ms = parseDuration(String(text));
    if (ms === undefined)
      throw new UsageError(`invalid timeout ${JSON.stringify(text)}`, 'use e.g. 30s, 500ms, 5m');
    return ms;
  }

  /** Retries for failed requests: --retries, KB_RETRIES or the setting, else `fallback` (2). */
  maxRetriesOr(fallback: number): number {
    const text = this.options.retries ?? this.env.KB_RETRIES ?? this.config.settings.retries;
    if (text === undefined) return fallback;
    const n = Number(text);
    if (!Number.isInteger(n) || n < 0 || n > 10)
      throw new UsageError(`invalid retries ${JSON.stringify(text)}: expected 0-10`);
    return n;
  }

  get maxRetries(): number {
    return this.maxRetriesOr(2);
  }

  /**
   * A profile asked for by name (--profile, KB_PROFILE) that does not exist: a usage error naming
   * it (a typo), rather than "not logged in", and rather than going on silently with a key and URL
   * from the environment, which would have overridden the profile's, had it existed.
   */
  #checkProfileExists(): void {
    const asked = this.options.profile ?? this.env.KB_PROFILE;
    if (asked === undefined || Object.hasOwn(this.config.profiles, asked)) return;
    const known = Object.keys(this.config.profiles);
    throw new UsageError(
      `no profile named "${asked}"`,
      known.length ? `profiles: ${known.join(', ')}` : 'log in first: kb auth login --profile NAME',
    );
  }

  /** The base URL to talk to, checked; fails with exit 4 when none is configured. */
  baseUrl(): string {
    this.#checkProfileExists();
    const { baseUrl, profile } = this.auth;
    if (!baseUrl) {
      throw new CliError(
        `no service URL for profile "${profile}"`,
        ExitCode.auth,
        'run `kb auth login --base-url URL`, or set KB_BASE_URL',
      );
    }
    return checkBaseUrl(baseUrl, this.options.insecure);
  }

  /**
   * The HTTP client, with the resolved key; fails with exit 4 when no key is available. Asked
   * again with the same options, the same client (its connections) is given.
   */
  client(options: ClientOptions = {}): Promise<KbClient> {
    const key = JSON.stringify([options.requireKey, options.apiKey, options.baseUrl, options.maxRetries]);
    let client = this.#clients.get(key);
    if (!client) {
      client = this.#newClient(options);
      this.#clients.set(key, client);
      client.catch(() => this.#clients.delete(key));
    }
    return client;
  }

  async #newClient(options: ClientOptions): Promise<KbClient> {
    // A bad output format is a usage error before anything is sent, not after a write succeeded.
    void this.output;
    const auth = this.auth;
    const apiKey = options.apiKey ?? auth.apiKey;
    const baseUrl = options.baseUrl ? checkBaseUrl(options.baseUrl, this.options.insecure) : this.baseUrl();
    if (!apiKey && options.requireKey !== false) {
      this.#checkProfileExists();
      throw new CliError(
        `not logged in (profile "${auth.profile}")`,
        ExitCode.auth,
        'run `kb auth login`, or set KB_API_KEY',
      );
    }
    const KbClient = await loadClientClass();
    return new KbClient({
      baseUrl,
      apiKey,
      timeoutOverrideMs: this.timeoutOverrideMs,
      maxRetries: options.maxRetries ?? this.maxRetries,
      userAgent: userAgent(),
      transport: this.#deps.transport,
      debug: this.debugEnabled ? (line) => this.debug(line) : undefined,
    });
  }

  async close(): Promise<void> {
    const clients = [...this.#clients.values()];
    this.#clients.clear();
    await Promise.all(clients.map((client) => client.then((c) => c.close()).catch(() => {})));
  }
}
