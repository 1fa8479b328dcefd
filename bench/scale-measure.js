// One phase of bench/scale.js on a directory it prepared: the built `kb serve` runs as users run
// it (its own process, started by bin/kb.cjs with its V8 flags), and this process is its client,
// so that the peak RSS measured (Linux's VmHWM of kb serve's process) is kb serve's alone.
// Usage (by bench/scale.js): node bench/scale-measure.js PHASE DIR DOCUMENTS
// Prints one line of JSON.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { eachDocument } from './corpus.js';

const BIN = fileURLToPath(new URL('../bin/kb.cjs', import.meta.url));
const KEY = 'kb_bench_scale_key';
const MESSAGES = 150;
const WARMUP_MESSAGES = 10;
/** How long the loop of small requests runs before the upload, and after the file is COMPLETED. */
const QUIET_MS = 1000;
/** The upload's file is looked at this often until it is COMPLETED. */
const POLL_MS = 10;

const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};
const round = (n, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** A line of a process's /proc status in MB (Linux), e.g. VmHWM: its peak RSS so far. */
function statusMb(pid, field) {
  const kb = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!kb) throw new Error(`no ${field} in /proc/${pid}/status: bench/scale.js measures memory on Linux`);
  return Math.round((Number(kb[1]) * 1024) / 1e6);
}

/**
 * `kb serve --json` on the prepared docs folder and `data` (its state), resolved once it listens.
 * `indexed(n)` resolves once its "indexed" lines (one each time the pipeline goes idle) have
 * counted `n` documents.
 */
function serve(dir, data) {
  const home = mkdtempSync(join(tmpdir(), 'kb-scale-home-'));
  const child = spawn(
    process.execPath,
    [
      BIN,
      'serve',
      '--port',
      '0',
      '--json',
      '--docs',
      join(dir, 'docs'),
      '--data',
      join(dir, data),
      '--index-delay',
      '0',
    ],
    {
      // The database keeps only a key's hash: given each time, the restarted service knows it too.
      // A throwaway configuration, and the user's compile cache (kb's start-up, as users have it).
      env: {
        ...process.env,
        XDG_CACHE_HOME: process.env.XDG_CACHE_HOME || join(homedir(), '.cache'),
        HOME: home,
        XDG_CONFIG_HOME: home,
        XDG_STATE_HOME: home,
        KB_SERVE_API_KEYS: `bench:${KEY}`,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let counted = 0;
  let stderr = '';
  const waiting = [];
  child.stderr.setEncoding('utf8').on('data', (text) => {
    stderr += text;
    for (const line of text.split('\n')) {
      if (!line.startsWith('{"event":"indexed"')) continue;
      counted += JSON.parse(line).documents;
      for (const w of waiting.filter((w) => counted >= w.n)) {
        waiting.splice(waiting.indexOf(w), 1);
        w.resolve();
      }
    }
  });
  const exited = new Promise((resolve) => child.on('exit', resolve));
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (text) => {
      out += text;
      if (!out.includes('\n')) return;
      resolve({
        url: JSON.parse(out.split('\n')[0]).url,
        pid: child.pid,
        indexed: (n) =>
          counted >= n ? Promise.resolve() : new Promise((r) => waiting.push({ n, resolve: r })),
        counted: () => counted,
        stop: async () => {
          child.kill('SIGTERM');
          const code = await exited;
          rmSync(home, { recursive: true, force: true });
          // 143: stopped by SIGTERM, as kb serve says it was (130 after SIGINT).
          if (code !== 0 && code !== 143 && code !== 130)
            throw new Error(`kb serve exited ${code}: ${stderr.slice(-2000)}`);
        },
      });
    });
    void exited.then((code) =>
      reject(new Error(`kb serve exited ${code} before listening: ${stderr.slice(-2000)}`)),
    );
  });
}

/** A client of the first workspace of a running service. */
function clientOf(s) {
  const auth = { authorization: `Bearer ${KEY}` };
  const request = async (method, path, body, type = 'application/json') => {
    const res = await fetch(`${s.url}${path}`, {
      method,
      headers: body === undefined ? auth : { ...auth, 'content-type': type },
      body,
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
    return text ? JSON.parse(text) : undefined;
  };
  return {
    request,
    newThread: async () => (await request('POST', '/v1/threads', '{}')).data.id,
    send: (thread, content) => request('POST', `/v1/threads/${thread}/messages`, JSON.stringify({ content })),
  };
}

/** Message latencies (less a warm-up) until `count` are answered or `until()` says stop. */
async function messageLatencies(client, queries, count, until = () => false) {
  const thread = await client.newThread();
  const latencies = [];
  for (let i = 0; i < count && !until(); i++) {
    const started = performance.now();
    await client.send(thread, queries[i % queries.length]);
    if (i >= WARMUP_MESSAGES) latencies.push(performance.now() - started);
  }
  return latencies;
}

/** Nothing left waiting or failed, and something indexed: else the timings would mean nothing. */
async function checkAllIndexed(client) {
  for (const status of ['PENDING', 'PROCESSING', 'FAILED']) {
    const { data } = await client.request('GET', `/v1/files?status=${status}&limit=1`);
    if (data.length) throw new Error(`a document is ${status} after indexing: ${JSON.stringify(data[0])}`);
  }
  const { data } = await client.request('GET', '/v1/files?status=COMPLETED&limit=1');
  if (!data.length) throw new Error('no document was indexed');
}

/** From `started` to the first message answered from the document that holds its answer. */
async function firstAnswer(client, { question, expected }, started, deadlineMs) {
  const thread = await client.newThread();
  for (;;) {
    const { data } = await client.send(thread, question);
    if (data.aiResponse.sources?.includes(expected)) return performance.now() - started;
    if (performance.now() - started > deadlineMs)
      throw new Error(`"${question}" not answered from ${expected} ${deadlineMs} ms after the restart`);
    await sleep(POLL_MS);
  }
}

/**
 * Uploads one document while small GET requests run back to back, and returns the longest time
 * without an answer to them (a request's own latency, or a gap between two) from the upload's
 * start until its file is COMPLETED, and until QUIET_MS after that (the index is saved when
 * indexing settles), with the same before the upload for comparison.
 */
async function uploadStall(client, deadlineMs) {
  const answered = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      await client.request('GET', '/v1/threads?limit=1');
      answered.push(performance.now());
    }
  })();
  const longestWait = (from, to) => {
    let longest = 0;
    let last = from;
    for (const at of answered) {
      if (at <= from) continue;
      longest = Math.max(longest, at - last);
      last = at;
      if (at >= to) return longest;
    }
    return longest;
  };

  const quietFrom = performance.now();
  await sleep(QUIET_MS);
  let text = '';
  eachDocument(1, (_, t) => (text = t), 2800, 7);
  const started = performance.now();
  const { data: file } = await client.request(
    'POST',
    '/v1/files?filename=uploaded-while-measured.md',
    text,
    'application/octet-stream',
  );
  for (;;) {
    const { data } = await client.request('GET', `/v1/files/${file.id}`);
    if (data.indexingStatus === 'COMPLETED') break;
    if (data.indexingStatus === 'FAILED') throw new Error(`the upload FAILED: ${JSON.stringify(data)}`);
    if (performance.now() - started > deadlineMs)
      throw new Error(`the upload not COMPLETED in ${deadlineMs} ms`);
    await sleep(POLL_MS);
  }
  const completed = performance.now();
  await sleep(QUIET_MS);
  running = false;
  await loop;
  const settled = performance.now();
  return {
    uploadCompletedMs: round(completed - started),
    uploadStallMs: round(longestWait(started, completed), 2),
    uploadSettledStallMs: round(longestWait(started, settled), 2),
    stallBeforeUploadMs: round(longestWait(quietFrom, started), 2),
    requestsDuringUpload: answered.filter((at) => at > started && at <= settled).length,
  };
}

async function measure(phase, dir, documents) {
  const { bytes, queries, labelled, restartQuestion } = JSON.parse(
    readFileSync(join(dir, 'queries.json'), 'utf8'),
  );
  // Waits scale with the workspace: a slow phase is measured, only a stuck one fails.
  const deadlineMs = 60_000 + documents;
  const within = (promise, what) =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${what}: not done in ${deadlineMs} ms`)), deadlineMs);
      timer.unref();
      promise.then((value) => {
        clearTimeout(timer);
        resolve(value);
      }, reject);
    });

  const started = performance.now();
  if (phase === 'indexing') {
    // Indexing everything into a new --data file while messages are answered.
    const s = await serve(dir, 'again.db');
    let indexed = false;
    void within(s.indexed(documents), 'indexing').then(() => (indexed = true));
    const latencies = await messageLatencies(clientOf(s), queries, Infinity, () => indexed);
    if (latencies.length < 10) throw new Error(`only ${latencies.length} messages answered while indexing`);
    const indexingPeakRssMb = statusMb(s.pid, 'VmHWM');
    await s.stop();
    return {
      documents,
      megabytes: round(bytes / 1e6),
      indexingP95Ms: round(percentile(latencies, 95), 2),
      indexingPeakRssMb,
    };
  }
  if (phase === 'restart') {
    // On what the index phase stored: the first answer, then an upload.
    const s = await serve(dir, 'state.db');
    const client = clientOf(s);
    const firstAnswerMs = await firstAnswer(client, restartQuestion, started, deadlineMs);
    const upload = await uploadStall(client, deadlineMs);
    // The documents the restart read again (none: the database holds them as they are); the upload is one.
    const restartIndexed = s.counted() - 1;
    const restartPeakRssMb = statusMb(s.pid, 'VmHWM');
    await s.stop();
    return {
      documents,
      megabytes: round(bytes / 1e6),
      restartFirstAnswerMs: Math.round(firstAnswerMs),
      restartIndexed,
      ...upload,
      restartPeakRssMb,
    };
  }
  const s = await serve(dir, 'state.db');
  await within(s.indexed(documents), 'indexing');
  const indexMs = Math.round(performance.now() - started);
  const client = clientOf(s);
  await checkAllIndexed(client);
  const latencies = await messageLatencies(client, queries, MESSAGES);
  // Retrieval as a message retrieves, through kb serve's search route (what `kb search` shows).
  const found = [];
  for (const { query, expected } of labelled) {
    const { data } = await client.request('GET', `/v1/search?limit=5&q=${encodeURIComponent(query)}`);
    if (data.some((hit) => hit.filename === expected)) found.push(query);
  }
  const rssMb = statusMb(s.pid, 'VmRSS');
  const indexPeakRssMb = statusMb(s.pid, 'VmHWM');
  await s.stop();
  return {
    documents,
    megabytes: round(bytes / 1e6),
    indexMs,
    messageP50Ms: round(percentile(latencies, 50), 2),
    messageP95Ms: round(percentile(latencies, 95), 2),
    rssMb,
    indexPeakRssMb,
    recallAt5: round(found.length / labelled.length, 2),
  };
}

const [phase, dir, documents] = process.argv.slice(2);
process.stdout.write(`${JSON.stringify(await measure(phase, dir, Number(documents)))}\n`);
