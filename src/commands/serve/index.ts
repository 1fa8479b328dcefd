import { Command, Option } from 'commander';
import { statSync } from 'node:fs';
import { basename, dirname, resolve, sep } from 'node:path';
import { readUserFile } from '../../util/user-file.js';
import { CliError, ExitCode, Stopped, UsageError } from '../../errors.js';
import type { SignalName } from '../../io/signals.js';
import { JournalDamaged } from '../../server/state/journal.js';
import { Context } from '../../factory.js';
import { safeJson } from '../../util/sanitize.js';
import { parseDuration } from '../../util/duration.js';
import { sanitizeDeep, sanitizeText } from '../../util/sanitize.js';
import { maskSecret } from '../../io/format.js';
import { showIndexing } from './indexing-progress.js';
import { collect, integer } from '../shared/options.js';
import { FAILURE_CODES, SUPPORTED } from '../../server/ingest/extraction/document-types.js';
import {
  DEFAULT_OCR_PAGES,
  OcrLanguageMissing,
  resolveOcrLanguages,
} from '../../server/ingest/extraction/ocr-languages.js';
import { parseByteSize } from '../../util/size.js';
import { describeImport, describeRepair, lockState, refuseState } from './state-file.js';
import { setV8Flag, setV8FlagEveryHeap } from '../../v8-flags.js';
import { flagsMissing, restartWithFlags } from './start-flags.js';

interface ServeOptions {
  port: string;
  host: string;
  demo?: boolean;
  docs?: string;
  apiKey: string[];
  apiKeysFile?: string;
  data?: string;
  repair?: boolean;
  lowMemory?: boolean;
  replyDelay?: string;
  streamDelay?: string;
  fault: string[];
  log?: boolean;
  allowLocalWebhooks?: boolean;
  llmBaseUrl?: string;
  llmModel?: string;
  embedBaseUrl?: string;
  embedModel?: string;
  embedMinSimilarity?: string;
  embedCoolDown?: string;
  rateLimit?: string;
  indexDelay?: string;
  webhookRetries?: string;
  maxFileSize?: string;
  ocr: boolean;
  ocrLang: string;
  ocrPages: string;
}

/** A workspace whose key was made by an earlier run: the database keeps only its hash. */
const KEY_SHOWN_BEFORE = (name: string) =>
  `(shown when it was made; to fix one: KB_SERVE_API_KEYS=${name}:<key>)`;

/** --docs must be a folder and --data a file in one: said before anything is stored. */
function checkPaths(opts: ServeOptions): void {
  const stat = (path: string) => statSync(path, { throwIfNoEntry: false });
  if (opts.docs !== undefined) {
    const docs = stat(opts.docs);
    if (!docs) throw new UsageError(`--docs ${opts.docs}: no such directory`);
    if (!docs.isDirectory())
      throw new UsageError(
        `--docs ${opts.docs}: not a directory`,
        'give the folder whose files are to be indexed',
      );
  }
  if (opts.data !== undefined) {
    // `--data "$STATE"` with STATE unset would otherwise serve from memory and lose it all at exit.
    if (opts.data.trim() === '') throw new UsageError('--data is empty: give the file that keeps the state');
    if (opts.data.endsWith('/') || opts.data.endsWith(sep))
      throw new UsageError(`--data ${opts.data} ends in /: give a file, not a folder`);
    const folder = dirname(resolve(opts.data));
    if (!stat(folder)?.isDirectory()) throw new UsageError(`--data ${opts.data}: no directory ${folder}`);
    const data = stat(opts.data);
    if (data && !data.isFile()) throw new UsageError(`--data ${opts.data}: not a file`);
  }
}

function nonNegativeInt(
  name: string,
  value: string | undefined,
  range: { max?: number; unit?: string } = {},
): number | undefined {
  if (value === undefined) return undefined;
  try {
    return integer(range)(value);
  } catch (err) {
    throw new UsageError(`invalid ${name} "${value}": ${(err as Error).message}`);
  }
}

function coolDown(value: string): number {
  const ms = parseDuration(value);
  if (ms === undefined)
    throw new UsageError(`invalid --embed-cool-down "${value}": expected a duration such as 30s or 2m`);
  return ms;
}

/** What --ocr-lang, --ocr-pages and --no-ocr ask for, its languages found installed. */
function ocrOptions(opts: ServeOptions) {
  if (!opts.ocr) return false as const;
  const maxPages = nonNegativeInt('--ocr-pages', opts.ocrPages);
  try {
    return { languages: resolveOcrLanguages(opts.ocrLang), maxPages };
  } catch (err) {
    if (err instanceof OcrLanguageMissing)
      throw new UsageError(
        `--ocr-lang ${err.code}: the language data is not installed`,
        `install it beside kb: npm install ${err.packageName} (or serve with --no-ocr)`,
      );
    throw new UsageError((err as Error).message);
  }
}

function similarity(value: string): number {
  const n = Number(value);
  if (!value.trim() || !Number.isFinite(n) || n <= 0 || n >= 1)
    throw new UsageError(
      `invalid --embed-min-similarity "${value}": expected a cosine between 0 and 1, such as 0.5`,
    );
  return n;
}

/**
 * The workspace:key pairs to fix, from KB_SERVE_API_KEYS (comma-separated), --api-keys-file
 * (one per line) and --api-key, which gets a warning: argv is visible to every user in ps.
 */
function serveKeys(ctx: Context, opts: ServeOptions): string[] {
  const keys = (ctx.env.KB_SERVE_API_KEYS ?? '')
    .split(',')
    .map((k) => k.trim())
    .filter(Boolean);
  if (opts.apiKeysFile) {
    const text = readUserFile(opts.apiKeysFile, '--api-keys-file', 1024 * 1024).toString('utf8');
    for (const line of text.split('\n')) {
      const pair = line.replace(/#.*/, '').trim();
      if (pair) keys.push(pair);
    }
  }
  if (opts.apiKey.length)
    ctx.warn(
      '--api-key puts the key where every user of this machine sees it (ps); use KB_SERVE_API_KEYS or --api-keys-file',
    );
  return [...keys, ...opts.apiKey];
}

export default function serveCommand(run = runServe): Command {
  return new Command('serve')
    .description('Run the local implementation of the service (stateful, in memory unless --data)')
    .option('--port <port>', 'port to listen on; 0 picks a free one', '4010')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--demo', 'seed a demo workspace (members, documents, threads) and a second workspace')
    .option(
      '--docs <dir>',
      'ingest the files of this folder, and files added later, into the first workspace',
    )
    .option(
      '--api-key <workspace:key>',
      'fix a key for a workspace (repeatable; visible in ps: prefer KB_SERVE_API_KEYS or --api-keys-file)',
      collect,
      [],
    )
    .option('--api-keys-file <file>', 'fix keys from a file: one workspace:key per line (# comments)')
    .option('--data <file>', 'keep the state in this SQLite database file (created when missing)')
    .option('--repair', 'with --data: start from a damaged file, keeping every valid record')
    .option(
      '--low-memory',
      'favour memory over speed (V8 optimizes for size): indexing peaks at a sixth less memory, up to a quarter slower',
    )
    .option('--reply-delay <ms>', 'wait this long before each assistant reply')
    .option('--stream-delay <ms>', 'beta streaming: pause this long between the pieces of a reply')
    .option('--fault <rule>', 'inject a fault, e.g. "GET /v1/threads 503 x2" (repeatable)', collect, [])
    .option('--log', 'log each request as a JSON line on stderr')
    .option('--allow-local-webhooks', 'accept http:// webhook URLs on loopback hosts')
    .option(
      '--llm-base-url <url>',
      'OpenAI-compatible endpoint that writes replies (key from KB_LLM_API_KEY)',
    )
    .option('--llm-model <name>', 'model for --llm-base-url', 'llama3.2')
    .option(
      '--embed-base-url <url>',
      'OpenAI-compatible /embeddings endpoint for retrieval by meaning (key from KB_EMBED_API_KEY)',
    )
    .option('--embed-model <name>', 'model for --embed-base-url', 'nomic-embed-text')
    .option(
      '--embed-min-similarity <cosine>',
      'the similarity at which a passage answers by meaning alone (depends on the model)',
      '0.5',
    )
    .option(
      '--embed-cool-down <duration>',
      'after the embeddings endpoint fails, answer by BM25 alone this long before asking it again',
      '30s',
    )
    .option('--rate-limit <n>', 'requests per second per key before 429 (default: no limit)')
    .option(
      '--max-file-size <size>',
      'documents larger than this FAIL as too_large (K, M, G: powers of 1024)',
      '100M',
    )
    .option(
      '--ocr-lang <codes>',
      'languages of scanned pages and images, e.g. eng+deu (each from its @tesseract.js-data/<code> package)',
      'eng',
    )
    .option('--ocr-pages <n>', 'pages of one scanned PDF read by OCR at most', String(DEFAULT_OCR_PAGES))
    .option(
      '--no-ocr',
      'do not read scanned PDF pages or images (they FAIL as no_text_layer, unsupported_type)',
    )
    .addOption(new Option('--index-delay <ms>', 'pause before each indexing step').default('200'))
    .addOption(new Option('--webhook-retries <ms,...>', 'delays between webhook delivery retries'))
    .addHelpText(
      'after',
      `
Prints the base URL and one key per workspace on stdout (--json: one JSON object), then
serves until Ctrl-C. Decisions where the interface leaves things open: docs/local-service.md.

--docs indexes the folder and its subfolders (a file's name is its path in the folder;
hidden files and folders are skipped, links are not followed out of the folder). Types:
  ${SUPPORTED}
and text of any other name (README, changelog, .conf, .yaml, .log), told by its bytes; a .gz
is read as what it unpacks to. PDF pages are cited: "manual.pdf p. 3"; text is read in UTF-8,
UTF-16 with a BOM, or windows-1252.
Scanned PDF pages (no text layer) and images are read by OCR, on this machine, from the
language data of installed npm packages: nothing is downloaded. A scan of more pages than
--ocr-pages, or that takes longer than 5 minutes, is indexed as far as it was read; kb files get
shows its "ocr" detail: pages recognised, mean confidence (0-100), pages skipped and why.
A file that cannot be indexed is FAILED with one of these codes, each named on stderr:
${Object.entries(FAILURE_CODES)
  .map(([code, meaning]) => `  ${code.padEnd(16)} ${meaning}`)
  .join('\n')}

Examples:
  $ kb serve --demo --port 4010
  $ KB_SERVE_API_KEYS=ci:kb_test_key kb serve --port 0 --docs ./handbook --data ./kb-state.db
  $ kb serve --demo --fault "GET /v1/threads 503 x2" --reply-delay 2000
  $ kb serve --demo --allow-local-webhooks --llm-base-url http://127.0.0.1:11434/v1
  $ kb serve --docs ./handbook --embed-base-url http://127.0.0.1:11434/v1 --embed-model nomic-embed-text`,
    )
    .action((opts: ServeOptions, cmd: Command) => run(Context.for(cmd), opts));
}

export async function runServe(ctx: Context, opts: ServeOptions): Promise<void> {
  const port = nonNegativeInt('port', opts.port, { unit: 'port', max: 65535 })!;
  const retrySchedule = opts.webhookRetries?.split(',').map((part) => {
    const ms = parseDuration(part.includes('s') || part.includes('m') ? part : `${part}ms`);
    if (ms === undefined) throw new UsageError(`invalid --webhook-retries "${opts.webhookRetries}"`);
    return ms;
  });
  const maxFileBytes = parseByteSize(opts.maxFileSize ?? '100M');
  if (maxFileBytes === undefined)
    throw new UsageError(`invalid --max-file-size "${opts.maxFileSize}": expected a size such as 100M or 2G`);
  checkPaths(opts);
  const ocr = ocrOptions(opts);
  const { LOW_MEMORY_V8_FLAGS, SERVE_ENVIRONMENT, SERVE_V8_FLAGS, YOUNG_GENERATION_HELD } =
    await import('../../server/v8-flags.js');
  const flags = [...SERVE_V8_FLAGS, ...(opts.lowMemory ? LOW_MEMORY_V8_FLAGS : [])];
  restartWithFlags(flags, process, SERVE_ENVIRONMENT);
  const { startServer } = await import('../../server/index.js');
  // Where kb serve could not start again with them: after the server's modules are loaded, since
  // Node's own loaded after a flag change lose their code cache.
  const missing = flagsMissing(flags, process.execArgv, process.env.NODE_OPTIONS);
  for (const flag of missing) setV8Flag(flag);
  if (missing.some((flag) => flag.startsWith('--max-semi-space-size=')))
    for (const flag of flagsMissing([YOUNG_GENERATION_HELD], process.execArgv, process.env.NODE_OPTIONS))
      setV8FlagEveryHeap(flag);
  const apiKeys = serveKeys(ctx, opts);
  const lock = opts.data ? await lockState(opts.data) : undefined;
  const log = opts.log ? (entry: Record<string, unknown>) => ctx.io.err(`${safeJson(entry)}\n`) : undefined;
  let server: Awaited<ReturnType<typeof startServer>>;
  try {
    server = await startServer({
      port,
      host: opts.host,
      demo: opts.demo,
      docsDir: opts.docs,
      apiKeys,
      dataFile: opts.data,
      repairData: opts.repair,
      replyDelayMs: nonNegativeInt('reply delay', opts.replyDelay),
      streamDelayMs: nonNegativeInt('stream delay', opts.streamDelay),
      faults: opts.fault,
      log,
      allowLocalWebhooks: opts.allowLocalWebhooks,
      generator: opts.llmBaseUrl
        ? { baseUrl: opts.llmBaseUrl, model: opts.llmModel ?? 'llama3.2', apiKey: ctx.env.KB_LLM_API_KEY }
        : undefined,
      embeddings: opts.embedBaseUrl
        ? {
            baseUrl: opts.embedBaseUrl,
            model: opts.embedModel ?? 'nomic-embed-text',
            apiKey: ctx.env.KB_EMBED_API_KEY,
            minSimilarity: similarity(opts.embedMinSimilarity ?? '0.5'),
            coolDownMs: coolDown(opts.embedCoolDown ?? '30s'),
          }
        : undefined,
      rateLimit: nonNegativeInt('rate limit', opts.rateLimit),
      indexDelayMs: nonNegativeInt('index delay', opts.indexDelay),
      webhookRetrySchedule: retrySchedule,
      maxFileBytes,
      ocr,
      onInternalError: (err) => ctx.warn(`internal error (kb serve goes on): ${sanitizeText(String(err))}`),
      onNotice: (message) => ctx.warn(sanitizeText(message)),
    });
  } catch (err) {
    lock?.release();
    await refuseState(err);
    if (err instanceof JournalDamaged)
      throw new CliError(
        `${err.message} (${err.damagedLines} damaged line${err.damagedLines === 1 ? '' : 's'}); nothing was changed`,
        ExitCode.failure,
        `start with --repair to keep every valid record (the file is moved aside to ${basename(err.path)}.damaged-<time>)`,
        'journal_damaged',
      );
    const code = (err as NodeJS.ErrnoException).code;
    // The command was right; the machine would not let it listen there: a failure, not a usage error.
    if (code === 'EADDRINUSE')
      throw new CliError(
        `port ${port} is already in use`,
        ExitCode.failure,
        'pick another with --port, or --port 0 for a free one',
        'port_in_use',
      );
    if (code === 'EACCES')
      throw new CliError(
        `not allowed to listen on ${opts.host}:${port}`,
        ExitCode.failure,
        port > 0 && port < 1024 ? 'ports below 1024 need privileges: pick another with --port' : undefined,
        'listen_refused',
      );
    throw new UsageError((err as Error).message);
  }
  const { io } = ctx;
  if (server.loaded.imported) ctx.warn(sanitizeText(describeImport(opts.data!, server.loaded.imported)));
  if (server.loaded.databaseRepair)
    ctx.warn(sanitizeText(describeRepair(opts.data!, server.loaded.databaseRepair)));
  const interrupted = server.loaded?.interrupted ?? 0;
  if (interrupted)
    ctx.warn(
      `${interrupted} repl${interrupted === 1 ? 'y was' : 'ies were'} being written when kb serve stopped: kept as written, marked incomplete`,
    );
  // A key the user gave is theirs: shown masked, never in full where a log would keep it. One
  // kb serve made is shown once, in full: how the user learns it.
  const given = new Set(apiKeys.map((pair) => pair.slice(pair.indexOf(':') + 1).trim()));
  const info = {
    url: server.url,
    workspaces: server.workspaces.map((w) => {
      const key = w.keys[0];
      return key !== undefined && given.has(key)
        ? { id: w.id, name: w.name, keyGiven: maskSecret(key) }
        : { id: w.id, name: w.name, key };
    }),
  };
  const shownKey = (w: (typeof info.workspaces)[number]) =>
    'keyGiven' in w ? `${w.keyGiven} (as given)` : (w.key ?? KEY_SHOWN_BEFORE(w.name));
  const view = (safe: typeof info) => {
    const lines = safe.workspaces.map((w) => `workspace ${w.name.padEnd(10)} ${w.id}  key ${shownKey(w)}\n`);
    return `kb serve listening on ${safe.url}\n${lines.join('')}`;
  };
  // What to do next, for a person at a terminal (as progress is): stdout is the data.
  const hints = (safe: typeof info) => {
    const first = safe.workspaces[0]!;
    const firstKey = 'keyGiven' in first ? '<the key you gave>' : (first.key ?? '<its key>');
    // "A key above" only when one is shown in full: after a restart the database keeps hashes.
    const shown = safe.workspaces.some((w) => !('keyGiven' in w) && w.key !== undefined);
    const signIn = shown ? 'a key above' : 'the workspace’s key';
    return `\nTry: export KB_BASE_URL=${safe.url} KB_API_KEY=${firstKey}\n     kb threads list\nWeb console: ${safe.url}/ (sign in with ${signIn}; upload files there)`;
  };
  // For scripts, one line that can be read before the server stops (it runs until Ctrl-C).
  if (ctx.format === 'human') {
    ctx.output.record(info, view);
    ctx.note(hints(sanitizeDeep(info)));
  } else ctx.output.event(info, view);

  const stopShowing = showIndexing(ctx, () => server.service.indexer.progress());

  const stoppedBy = await new Promise<SignalName>((resolve) => {
    const release = ctx.signals.trap((signal) => {
      release();
      stopShowing();
      const stopped = () => resolve(signal);
      server
        .close()
        .finally(() => lock?.release())
        .then(stopped, stopped);
    });
  });
  if (io.stderrIsTTY) io.err('kb serve stopped\n');
  throw new Stopped(stoppedBy);
}
