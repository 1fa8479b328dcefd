#!/usr/bin/env node
// npm run bench: whole-process timings of kb against `node -e 0`, interleaved, plus the local
// service's indexing and message latency, the REPL's client-side cost per turn, and the local
// service's scale curve (bench/scale.js; BENCH_SCALE sets its sizes, 0 leaves it out), and the
// cost of drawing a streamed reply as Markdown (bench/stream-render.js).
// Prints a table and writes bench/results.json (or BENCH_OUT). No assertions: targets are reported,
// not enforced.
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, openSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { corpus } from './corpus.js';
import { answerQuality, qualityLine } from './answers.js';
import { makePdf, scannedPage } from './pdf.js';
import { DEFAULT_SIZES, parseSizes, scaleCurve, scaleTable, scaleTargets } from './scale.js';
import { streamRenderCost, streamRenderLine } from './stream-render.js';
import { benchTempDir } from './temp.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(ROOT, 'bin', 'kb.cjs');
const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 3);
const DOCS = Number(process.env.BENCH_DOCS ?? 2000);

const { startServer } = await import(join(ROOT, 'dist/server/index.js'));
const { signPayload } = await import(join(ROOT, 'dist/webhooks/signature.js'));

const work = benchTempDir('kb-bench-');
// The machine's own environment (as users run kb here), less any kb settings; both kb and the
// node -e 0 baseline pay for it alike (e.g. NODE_EXTRA_CA_CERTS adds ~40 ms to every start).
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('KB_')));
Object.assign(env, { HOME: work, KB_CONFIG_DIR: work, XDG_CACHE_HOME: join(work, 'cache'), CI: 'true' });

function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** Runs a process to completion (asynchronously: the service under test lives in this process). */
function run(cmd, args, options = {}) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(cmd, args, {
      env: { ...env, ...options.env },
      stdio: ['pipe', options.stdout ?? 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stdout?.resume();
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (status) => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (status !== 0 && !options.allowFail)
        reject(new Error(`${args.join(' ')} exited ${status}: ${stderr}`));
      else resolve({ ms, stderr });
    });
    child.stdin.end(options.input ?? '');
  });
}

async function timeOnce(cmd, args, options = {}) {
  return (await run(cmd, args, options)).ms;
}

async function peakRss(args, options = {}) {
  const { stderr } = await run(process.execPath, ['--import', join(ROOT, 'bench/rss.mjs'), ...args], options);
  const match = /__KB_MAXRSS__ (\d+)/.exec(stderr);
  return match ? Math.round(Number(match[1]) / 1024) : undefined;
}

/** Runs a kb scenario interleaved with the baseline, so both see the same machine state. */
async function compare(name, args, options = {}) {
  const base = [];
  const kb = [];
  for (let i = 0; i < WARMUP + RUNS; i++) {
    const b = await timeOnce(process.execPath, ['-e', '0']);
    const k = await timeOnce(process.execPath, [BIN, ...args], options);
    if (i >= WARMUP) {
      base.push(b);
      kb.push(k);
    }
  }
  const median = percentile(kb, 50);
  const baseline = percentile(base, 50);
  return {
    name,
    command: `kb ${args.join(' ')}`,
    medianMs: round(median),
    p90Ms: round(percentile(kb, 90)),
    baselineMedianMs: round(baseline),
    ratio: round(median / baseline, 2),
    peakRssMb: await peakRss([BIN, ...args], options),
    target: options.target,
    ok: options.target ? median / baseline <= options.target : undefined,
  };
}

const round = (n, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;

// A warm local service with the demo workspace.
const server = await startServer({ port: 0, demo: true, indexDelayMs: 0 });
await server.service.indexer.idle();
const key = server.keys.demo;
const kbEnv = { KB_BASE_URL: server.url, KB_API_KEY: key };
const thread = await (
  await fetch(`${server.url}/v1/threads`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: '{"title":"bench"}',
  })
).json();
const body = Buffer.alloc(1024 * 1024, 'x');
const bodyFile = join(work, 'body.json');
writeFileSync(bodyFile, body);
writeFileSync(join(work, 'secret.txt'), 'whsec_bench');
const header = signPayload(body, 'whsec_bench');

// The JSONL scenario writes to a real file, as `> file` would.
const listing = openSync(join(work, 'files.jsonl'), 'w');
const scenarios = [
  await compare('version', ['--version'], { target: 1.3 }),
  await compare('help', ['--help'], { target: 1.3 }),
  await compare('threads list --json', ['threads', 'list', '--json'], { env: kbEnv, target: 1.8 }),
  await compare('files list --json', ['files', 'list', '--json'], { env: kbEnv, target: 1.8 }),
  // For comparison: as on a first run, before kb's compile cache exists (no target).
  await compare('threads list --json, no compile cache', ['threads', 'list', '--json'], {
    env: { ...kbEnv, NODE_DISABLE_COMPILE_CACHE: '1' },
  }),
  await compare('threads send', ['threads', 'send', thread.data.id, 'How much is the Growth plan?'], {
    env: kbEnv,
    target: 1.8,
  }),
  // For comparison: a whole chat in pipe mode (create a thread, ask, print the reply; no target).
  await compare('chat, one question piped', ['chat'], {
    env: kbEnv,
    input: 'How much is the Growth plan?\n',
  }),
  await compare(
    'webhooks verify 1 MB',
    [
      'webhooks',
      'verify',
      '--header',
      header,
      '--payload-file',
      bodyFile,
      '--secret-file',
      join(work, 'secret.txt'),
    ],
    { target: 1.5 },
  ),
  await compare('files list --jsonl --limit 100 > file', ['files', 'list', '--jsonl', '--limit', '100'], {
    env: kbEnv,
    stdout: listing,
    target: 1.8,
  }),
];
closeSync(listing);
const prompt = await chatPrompt();
await server.close();

/** ms from spawn to the first output containing `marker`, on a pseudo-terminal (util-linux script). */
function timeToOutput(command, marker, extraEnv) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn('script', ['-qefc', command, '/dev/null'], { env: { ...env, ...extraEnv } });
    let seen = '';
    child.stdout.on('data', (d) => {
      seen += d;
      if (!seen.includes(marker)) return;
      resolve(Number(process.hrtime.bigint() - started) / 1e6);
      child.kill('SIGKILL');
    });
    child.on('error', reject);
    child.on('close', () => reject(new Error(`${command} ended without printing ${marker}: ${seen}`)));
  });
}

// kb chat on a terminal: time until its prompt is shown, against node printing the same on its own.
async function chatPrompt() {
  if (spawnSync('script', ['--version']).status !== 0) return undefined;
  const quote = (s) => `'${s.replace(/'/g, `'\\''`)}'`;
  const kb = `${quote(process.execPath)} ${quote(BIN)} chat`;
  const node = `${quote(process.execPath)} -e ${quote("process.stdout.write('you \u203a ')")}`;
  const terminal = { ...kbEnv, CI: '', TERM: 'xterm-256color' };
  // A returning user: one message sent in a thread before (kb chat -c continues that one).
  // (Not spawnSync: the service runs in this process and must keep answering.)
  await new Promise((resolve) => {
    const seed = spawn(process.execPath, [BIN, 'chat', '-c'], {
      env: { ...env, ...kbEnv },
      stdio: ['pipe', 'ignore', 'ignore'],
    });
    seed.on('close', resolve);
    seed.stdin.end('And Enterprise?\n');
  });
  const base = [];
  const chat = [];
  const resumed = [];
  for (let i = 0; i < WARMUP + RUNS; i++) {
    const b = await timeToOutput(node, '\u203a', terminal);
    const k = await timeToOutput(kb, '\u203a', terminal);
    // kb chat -c: the newest thread's last messages, then the prompt.
    const c = await timeToOutput(`${kb} -c`, '\u203a', terminal);
    if (i >= WARMUP) {
      base.push(b);
      chat.push(k);
      resumed.push(c);
    }
  }
  const median = percentile(chat, 50);
  const baseline = percentile(base, 50);
  const continued = percentile(resumed, 50);
  return {
    medianMs: round(median),
    baselineMedianMs: round(baseline),
    ratio: round(median / baseline, 2),
    continueMedianMs: round(continued),
    continueRatio: round(continued / median, 2),
    continueOk: continued / median <= 1.5,
  };
}

// kb eval: 100 cases against the local demo service. Wall time at the default concurrency (4),
// and the client's overhead per case at concurrency 1: wall time less the server's own time.
async function evalScenario() {
  const serverMs = [];
  const s = await startServer({
    port: 0,
    demo: true,
    indexDelayMs: 0,
    log: (e) => e.method === 'POST' && e.status && serverMs.push(e.ms),
  });
  await s.service.indexer.idle();
  const cases = join(work, 'bench.eval.jsonl');
  const questions = [
    'How much is the Growth plan?',
    'What does error E-4102 mean?',
    'Which certifications does Orbitdesk have?',
  ];
  writeFileSync(
    cases,
    Array.from({ length: 100 }, (_, i) =>
      JSON.stringify({
        name: `case ${i}`,
        question: questions[i % 3],
        expect: { icontains: ['dollars', 'imap', 'soc 2'][i % 3] },
      }),
    ).join('\n'),
  );
  // Not spawnSync: the service runs in this process and must keep answering.
  const run = (concurrency) =>
    new Promise((resolve, reject) => {
      serverMs.length = 0;
      const started = performance.now();
      const child = spawn(process.execPath, [BIN, 'eval', cases, '--concurrency', String(concurrency)], {
        env: { ...env, KB_BASE_URL: s.url, KB_API_KEY: s.keys.demo },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (d) => (stderr += d));
      child.on('close', (code) =>
        code === 0
          ? resolve({ wallMs: performance.now() - started, serverMs: serverMs.reduce((a, b) => a + b, 0) })
          : reject(new Error(`kb eval failed: ${stderr}`)),
      );
    });
  const parallel = await run(4);
  const serial = await run(1);
  await s.close();
  return {
    cases: 100,
    wallMs: round(parallel.wallMs),
    serialWallMs: round(serial.wallMs),
    clientMsPerCase: round((serial.wallMs - serial.serverMs) / 100, 2),
  };
}

// Streaming: time to the first text of a reply, and to all of it, with the service pacing its
// pieces 20 ms apart: kb threads send --stream through a pipe, and kb chat on a terminal.
async function firstText() {
  const s = await startServer({ port: 0, demo: true, indexDelayMs: 0, streamDelayMs: 20 });
  await s.service.indexer.idle();
  const streamEnv = { ...env, KB_BASE_URL: s.url, KB_API_KEY: s.keys.demo };
  const question = 'How much is the Growth plan?';
  const send = [];
  for (let i = 0; i < Math.min(RUNS, 10); i++) {
    const thread = (
      await (
        await fetch(`${s.url}/v1/threads`, {
          method: 'POST',
          headers: { authorization: `Bearer ${s.keys.demo}`, 'content-type': 'application/json' },
          body: '{}',
        })
      ).json()
    ).data.id;
    send.push(
      await new Promise((resolve, reject) => {
        const started = performance.now();
        let first;
        const child = spawn(process.execPath, [BIN, 'threads', 'send', thread, question, '--stream'], {
          env: streamEnv,
        });
        child.stdout.on('data', () => (first ??= performance.now() - started));
        child.on('close', (code) =>
          code === 0
            ? resolve({ first, all: performance.now() - started })
            : reject(new Error('send --stream failed')),
        );
      }),
    );
  }
  let chat;
  if (spawnSync('script', ['--version']).status === 0) {
    // On a terminal: from the question being typed to the first text of the reply.
    const quote = (v) => `'${v.replace(/'/g, `'\\''`)}'`;
    const command = `printf '%s\\n' ${quote(question)} | ${quote(process.execPath)} ${quote(BIN)} chat --stream`;
    const runs = [];
    for (let i = 0; i < Math.min(RUNS, 10); i++)
      runs.push(await timeToOutput(command, 'The Growth', { ...streamEnv, CI: '' }));
    chat = round(percentile(runs, 50));
  }
  await s.close();
  return {
    sendFirstTextMs: round(
      percentile(
        send.map((r) => r.first),
        50,
      ),
    ),
    sendAllMs: round(
      percentile(
        send.map((r) => r.all),
        50,
      ),
    ),
    pipedChatFirstTextMs: chat,
  };
}

// REPL turn overhead: 100 turns in process; the server's own handling time is subtracted.
async function replOverhead() {
  const serverMs = [];
  const s = await startServer({
    port: 0,
    demo: true,
    indexDelayMs: 0,
    log: (e) => e.method === 'POST' && e.status && serverMs.push(e.ms),
  });
  await s.service.indexer.idle();
  const { KbClient } = await import(join(ROOT, 'dist/api/client.js'));
  const { Repl } = await import(join(ROOT, 'dist/chat/repl.js'));
  const { createRenderer } = await import(join(ROOT, 'dist/chat/render.js'));
  const { Chalk } = await import('chalk');
  const client = new KbClient({ baseUrl: s.url, apiKey: s.keys.demo });
  const input = new PassThrough();
  const sink = new PassThrough();
  sink.resume();
  // The synchronous path (as against a service without streaming), whose server time the log
  // gives whole; streaming is measured by firstText().
  const { threads } = client;
  const repl = new Repl({
    input,
    output: sink,
    errOutput: sink,
    terminal: false,
    client: {
      threads: {
        create: (p, s) => threads.create(p, s),
        get: (id, s) => threads.get(id, s),
        list: (p) => threads.list(p),
        send: (id, c, s) => threads.send(id, c, s),
      },
    },
    color: new Chalk({ level: 0 }),
    renderer: await createRenderer({ width: () => 100, raw: false, color: false }),
  });
  const done = repl.run();
  const turns = 100;
  const started = performance.now();
  for (let i = 0; i < turns; i++) {
    const before = repl.session.messages.length;
    input.write(`Question ${i}: what does the Growth plan cost?\n`);
    while (repl.session.messages.length === before) await new Promise((r) => setImmediate(r));
  }
  const total = performance.now() - started;
  input.end();
  await done;
  await client.close();
  await s.close();
  const server = serverMs.reduce((a, b) => a + b, 0);
  return {
    turns,
    totalMs: round(total),
    serverMs: round(server),
    clientMsPerTurn: round((total - server) / turns, 2),
    target: 5,
    ok: (total - server) / turns <= 5,
  };
}

// The local service with a generated workspace of DOCS documents (~2.5 kB each, ~5 MB).
async function serviceFigures() {
  const docs = benchTempDir('kb-bench-docs-');
  const { docs: generated, queries } = corpus(DOCS);
  let bytes = 0;
  for (const [name, text] of generated) {
    bytes += text.length;
    writeFileSync(join(docs, name), text);
  }
  const started = performance.now();
  const s = await startServer({ port: 0, docsDir: docs, indexDelayMs: 0 });
  await s.service.indexer.idle();
  const indexMs = performance.now() - started;
  const k = Object.values(s.keys)[0];
  const headers = { authorization: `Bearer ${k}`, 'content-type': 'application/json' };
  const t = await (await fetch(`${s.url}/v1/threads`, { method: 'POST', headers, body: '{}' })).json();
  const latencies = [];
  for (let i = 0; i < 200; i++) {
    const q0 = performance.now();
    const res = await fetch(`${s.url}/v1/threads/${t.data.id}/messages`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ content: queries[i % queries.length] }),
    });
    await res.json();
    if (i >= 10) latencies.push(performance.now() - q0);
  }
  await s.close();
  return {
    documents: DOCS,
    megabytes: round(bytes / 1e6, 2),
    indexAllMs: round(indexMs),
    indexTargetMs: 20_000,
    messageP50Ms: round(percentile(latencies, 50), 2),
    messageP95Ms: round(percentile(latencies, 95), 2),
    messageP95TargetMs: 50,
    ok: indexMs < 20_000 && percentile(latencies, 95) < 50,
  };
}

/** A PDF of `pages` pages of generated text (~2.8 kB each, ~80 characters a line). */
function generatedPdf(pages, seed) {
  const { docs } = corpus(pages, 2800, seed);
  return makePdf(docs.map(([, text]) => text.replace(/\s+/g, ' ').match(/.{1,80}(\s|$)/g)));
}

// PDFs dropped into a watched --docs folder: one of 100 pages from the write to searchable,
// then ten more while messages are answered (the extraction runs in a worker).
async function documentFigures() {
  const docs = benchTempDir('kb-bench-pdf-');
  const s = await startServer({ port: 0, docsDir: docs, indexDelayMs: 0 });
  const completed = (name) =>
    s.service.store.everyFile().some((f) => f.originalFilename === name && f.indexingStatus === 'COMPLETED');
  const until = async (check) => {
    while (!check()) await new Promise((resolve) => setTimeout(resolve, 2));
  };
  const one = generatedPdf(100, 1);
  const started = performance.now();
  writeFileSync(join(docs, 'manual.pdf'), one);
  await until(() => completed('manual.pdf'));
  const pdfMs = performance.now() - started;

  const k = Object.values(s.keys)[0];
  const headers = { authorization: `Bearer ${k}`, 'content-type': 'application/json' };
  const t = await (await fetch(`${s.url}/v1/threads`, { method: 'POST', headers, body: '{}' })).json();
  const names = Array.from({ length: Number(process.env.BENCH_PDFS ?? 10) }, (_, i) => `more-${i}.pdf`);
  names.forEach((name, i) => writeFileSync(join(docs, name), generatedPdf(100, 100 + i)));
  const latencies = [];
  await new Promise((resolve) => setTimeout(resolve, 150)); // the folder's watcher settles
  while (!names.every(completed)) {
    const q0 = performance.now();
    const res = await fetch(`${s.url}/v1/threads/${t.data.id}/messages`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ content: 'How does the backup work?' }),
    });
    await res.json();
    latencies.push(performance.now() - q0);
  }
  await s.close();
  return {
    pdfPages: 100,
    pdfBytes: one.length,
    pdfIndexedMs: round(pdfMs),
    pdfTargetMs: 1500,
    pdfsExtracted: names.length,
    messagesWhileExtracting: latencies.length,
    messageP50Ms: round(percentile(latencies, 50), 2),
    messageP95Ms: round(percentile(latencies, 95), 2),
    messageP95TargetMs: 20,
    ok: pdfMs <= 1500 && percentile(latencies, 95) <= 20,
  };
}

// A scanned PDF (pages that are pictures of text, no text layer) written to a watched --docs
// folder: from the write to searchable, each page rendered and read by OCR in the extraction
// worker, with messages answered all the while.
async function scanFigures() {
  const pages = Number(process.env.BENCH_SCAN_PAGES ?? 10);
  const { docs: texts } = corpus(pages, 900, 7);
  const scan = makePdf(
    await Promise.all(
      texts.map(([, text]) =>
        scannedPage(
          text
            .replace(/\s+/g, ' ')
            .match(/.{1,80}(\s|$)/g)
            .slice(0, 40),
        ),
      ),
    ),
  );
  const docs = benchTempDir('kb-bench-scan-');
  const s = await startServer({ port: 0, docsDir: docs, indexDelayMs: 0 });
  const k = Object.values(s.keys)[0];
  const headers = { authorization: `Bearer ${k}`, 'content-type': 'application/json' };
  const t = await (await fetch(`${s.url}/v1/threads`, { method: 'POST', headers, body: '{}' })).json();
  const completed = () =>
    s.service.store
      .everyFile()
      .find(
        (f) =>
          f.originalFilename === 'scan.pdf' &&
          f.indexingStatus !== 'PENDING' &&
          f.indexingStatus !== 'PROCESSING',
      );
  const started = performance.now();
  writeFileSync(join(docs, 'scan.pdf'), scan);
  const latencies = [];
  while (!completed()) {
    const q0 = performance.now();
    const res = await fetch(`${s.url}/v1/threads/${t.data.id}/messages`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ content: 'How does the backup work?' }),
    });
    await res.json();
    latencies.push(performance.now() - q0);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const scanMs = performance.now() - started;
  const file = completed();
  await s.close();
  return {
    scanPages: pages,
    scanBytes: scan.length,
    scanStatus: file.indexingStatus,
    scanIndexedMs: round(scanMs),
    msPerPage: round(scanMs / pages),
    ocr: file.ocr ?? null,
    messagesWhileReading: latencies.length,
    messageP50Ms: round(percentile(latencies, 50), 2),
    messageP95Ms: round(percentile(latencies, 95), 2),
    messageP95TargetMs: 50,
    ok: file.indexingStatus === 'COMPLETED' && percentile(latencies, 95) <= 50,
  };
}

// A workspace of LIST_FILES files listed whole: kb pages through it, printing as it goes.
const LIST_FILES = Number(process.env.BENCH_LIST_FILES ?? 20_000);
async function largeListFigures() {
  const s = await startServer({ port: 0, apiKeys: ['big:kb_bench_list_key'], indexDelayMs: 0 });
  const workspaceId = s.workspaces.find((w) => w.name === 'big').id;
  const at = new Date().toISOString();
  s.service.store.commit(
    ...Array.from({ length: LIST_FILES }, (_, i) => ({
      op: 'file',
      file: {
        id: `file_bench${String(i).padStart(6, '0')}`,
        workspaceId,
        originalFilename: `folder/document-${i}.pdf`,
        fileSize: 1000 + i,
        mimeType: 'application/pdf',
        indexingStatus: 'COMPLETED',
        createdAt: at,
        updatedAt: at,
        indexingStartedAt: at,
        indexedAt: at,
        chunkCount: 3,
        indexingError: null,
      },
    })),
  );
  const listEnv = { KB_BASE_URL: s.url, KB_API_KEY: 'kb_bench_list_key' };
  const args = [BIN, 'files', 'list', '--all', '--jsonl'];
  const out = openSync(join(work, 'all-files.jsonl'), 'w');
  const times = [];
  for (let i = 0; i < Math.max(1, Math.min(RUNS, 5)); i++)
    times.push(await timeOnce(process.execPath, args, { env: listEnv, stdout: out }));
  const rss = await peakRss(args.slice(0), { env: listEnv, stdout: out });
  closeSync(out);
  await s.close();
  const medianMs = percentile(times, 50);
  return {
    files: LIST_FILES,
    medianMs: round(medianMs),
    targetMs: 3000,
    peakRssMb: rss,
    targetRssMb: 80,
    ok: medianMs <= 3000 && rss !== undefined && rss <= 80,
  };
}

const repl = await replOverhead();
const largeList = await largeListFigures();
const documents = await documentFigures();
const scans = await scanFigures();
const evaluation = await evalScenario();
const answers = { lexical: await answerQuality() };
const streaming = await firstText();
const streamRender = await streamRenderCost();
const service = await serviceFigures();
const scaleSizes =
  process.env.BENCH_SCALE === '0' ? [] : parseSizes(process.env.BENCH_SCALE ?? DEFAULT_SIZES);
const scale = scaleCurve(scaleSizes);
const results = {
  date: new Date().toISOString(),
  node: process.version,
  runs: RUNS,
  scenarios,
  repl,
  chatPrompt: prompt,
  eval: evaluation,
  answers,
  streaming,
  streamRender,
  service,
  documents,
  scans,
  largeList,
  scale,
};

const rows = scenarios.map((s) => [
  s.name,
  `${s.medianMs}`,
  `${s.p90Ms}`,
  `${s.baselineMedianMs}`,
  `${s.ratio}x`,
  `${s.peakRssMb ?? '?'} MB`,
  s.target ? `<= ${s.target}x ${s.ok ? 'ok' : 'MISSED'}` : '',
]);
const head = ['scenario', 'median ms', 'p90 ms', 'node -e 0 ms', 'ratio', 'peak RSS', 'target'];
const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
const fmt = (r) => r.map((c, i) => c.padEnd(widths[i])).join('  ');
console.log(fmt(head));
for (const r of rows) console.log(fmt(r));
console.log(
  `\nREPL: ${repl.clientMsPerTurn} ms client-side per turn over ${repl.turns} turns (target <= 5 ms) ${repl.ok ? 'ok' : 'MISSED'}`,
);
console.log(
  `Streaming (pieces 20 ms apart): kb threads send --stream shows its first text after ${streaming.sendFirstTextMs} ms, all of it after ${streaming.sendAllMs} ms${streaming.pipedChatFirstTextMs === undefined ? '' : `; kb chat --stream (a question piped in, on a terminal) after ${streaming.pipedChatFirstTextMs} ms`}`,
);
console.log(streamRenderLine(streamRender));
console.log(
  `kb eval: ${evaluation.cases} cases in ${evaluation.wallMs} ms at --concurrency 4 (${evaluation.serialWallMs} ms one at a time); the client's overhead ${evaluation.clientMsPerCase} ms per case`,
);
console.log(
  `Answer quality, the labelled set (bench/answers.eval.yaml) ${qualityLine('lexical', answers.lexical)}`,
);
if (prompt)
  console.log(
    `kb chat on a terminal: prompt after ${prompt.medianMs} ms (node printing it alone: ${prompt.baselineMedianMs} ms, ${prompt.ratio}x); kb chat -c after ${prompt.continueMedianMs} ms (${prompt.continueRatio}x a new chat's, target <= 1.5x) ${prompt.continueOk ? 'ok' : 'MISSED'}`,
  );
console.log(
  `Local service: indexed ${service.documents} documents (${service.megabytes} MB) in ${service.indexAllMs} ms (target < 20000); message p50 ${service.messageP50Ms} ms, p95 ${service.messageP95Ms} ms (target < 50) ${service.ok ? 'ok' : 'MISSED'}`,
);
console.log(
  `Documents: a ${documents.pdfPages}-page PDF (${round(documents.pdfBytes / 1e3)} kB) searchable ${documents.pdfIndexedMs} ms after it was written to --docs (target <= 1500); ${documents.messagesWhileExtracting} messages while ${documents.pdfsExtracted} more were extracted: p50 ${documents.messageP50Ms} ms, p95 ${documents.messageP95Ms} ms (target <= 20) ${documents.ok ? 'ok' : 'MISSED'}`,
);
console.log(
  `Scans: a ${scans.scanPages}-page scanned PDF (${round(scans.scanBytes / 1e3)} kB, no text layer) ${scans.scanStatus} ${scans.scanIndexedMs} ms after it was written to --docs (${scans.msPerPage} ms a page, OCR mean confidence ${scans.ocr?.meanConfidence ?? '-'}); ${scans.messagesWhileReading} messages while it was read: p50 ${scans.messageP50Ms} ms, p95 ${scans.messageP95Ms} ms (target <= 50) ${scans.ok ? 'ok' : 'MISSED'}`,
);
console.log(
  `kb files list --all --jsonl of ${largeList.files} files: ${largeList.medianMs} ms (target <= 3000), peak RSS ${largeList.peakRssMb} MB (target <= 80) ${largeList.ok ? 'ok' : 'MISSED'}`,
);
if (scale.length)
  console.log(
    [`\nkb serve at scale (bench/scale.js):`, scaleTable(scale), ...scaleTargets(scale)].join('\n'),
  );
const out = process.env.BENCH_OUT ?? join(ROOT, 'bench', 'results.json');
writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`);
console.log(`\nwrote ${out}`);
