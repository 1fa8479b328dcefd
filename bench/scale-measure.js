// One phase of bench/scale.js, in a process of its own (so that its peak RSS is that phase's
// alone), on a directory bench/scale.js prepared: kb serve runs in this process, its clients too.
// Usage (by bench/scale.js): node --expose-gc bench/scale-measure.js PHASE DIR DOCUMENTS
// Prints one line of JSON.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { fileURLToPath } from 'node:url';
import { eachDocument } from './corpus.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
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
/** This process's peak RSS so far, in MB (maxRSS is in kB). */
const peakRssMb = () => Math.round((process.resourceUsage().maxRSS * 1024) / 1e6);

/** A client of the first workspace of a running service. */
function clientOf(s) {
  const key = Object.values(s.keys)[0];
  const auth = { authorization: `Bearer ${key}` };
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
  const { startServer } = await import(join(ROOT, 'dist', 'index.js'));
  const { SERVE_V8_FLAGS } = await import(join(ROOT, 'dist', 'server', 'index.js'));
  for (const flag of SERVE_V8_FLAGS) setFlagsFromString(flag);
  // BENCH_SCALE_LOW_MEMORY=1 measures kb serve --low-memory: its flags, once the server is loaded.
  if (process.env.BENCH_SCALE_LOW_MEMORY === '1') {
    const { LOW_MEMORY_V8_FLAGS } = await import(join(ROOT, 'dist', 'server', 'index.js'));
    for (const flag of LOW_MEMORY_V8_FLAGS) setFlagsFromString(flag);
  }
  const { bytes, queries, labelled, restartQuestion } = JSON.parse(
    readFileSync(join(dir, 'queries.json'), 'utf8'),
  );
  // Waits scale with the workspace: a slow phase is measured, only a stuck one fails.
  const deadlineMs = 60_000 + documents;
  const start = (data) =>
    startServer({
      port: 0,
      docsDir: join(dir, 'docs'),
      dataFile: join(dir, data),
      indexDelayMs: 0,
      // The database keeps only a key's hash: given each time, the restarted service knows it too.
      apiKeys: ['bench:kb_bench_scale_key'],
    });

  const started = performance.now();
  if (phase === 'indexing') {
    // Indexing everything into a new --data file while messages are answered.
    const s = await start('again.db');
    // idle() also waits for the docs folder's scan, which queues the documents after the start.
    let indexed = false;
    void s.service.indexer.idle().then(() => (indexed = true));
    const latencies = await messageLatencies(clientOf(s), queries, Infinity, () => indexed);
    if (latencies.length < 10) throw new Error(`only ${latencies.length} messages answered while indexing`);
    await s.close();
    return {
      documents,
      megabytes: round(bytes / 1e6),
      indexingP95Ms: round(percentile(latencies, 95), 2),
      indexingPeakRssMb: peakRssMb(),
    };
  }
  if (phase === 'restart') {
    // On what the index phase stored: the first answer, everything loaded, then an upload.
    const s = await start('state.db');
    const client = clientOf(s);
    const firstAnswerMs = await firstAnswer(client, restartQuestion, started, deadlineMs);
    await s.service.indexer.idle();
    const restartMs = Math.round(performance.now() - started);
    // The documents the restart read again (none: the database holds them as they are).
    const restartIndexed = s.service.indexer.progress().done;
    const upload = await uploadStall(client, deadlineMs);
    await s.close();
    return {
      documents,
      megabytes: round(bytes / 1e6),
      restartFirstAnswerMs: Math.round(firstAnswerMs),
      restartMs,
      restartIndexed,
      ...upload,
      restartPeakRssMb: peakRssMb(),
    };
  }
  const s = await start('state.db');
  await s.service.indexer.idle();
  const indexMs = Math.round(performance.now() - started);
  const client = clientOf(s);
  await checkAllIndexed(client);
  const latencies = await messageLatencies(client, queries, MESSAGES);
  const workspace = [...s.service.store.workspaces.values()][0].id;
  const index = s.service.search.workspace(workspace);
  const found = labelled.filter(({ query, expected }) =>
    index.search(query, 5).some((h) => h.chunk.filename === expected),
  );
  globalThis.gc?.();
  const rssMb = Math.round(process.memoryUsage().rss / 1e6);
  await s.close();
  return {
    documents,
    megabytes: round(bytes / 1e6),
    indexMs,
    messageP50Ms: round(percentile(latencies, 50), 2),
    messageP95Ms: round(percentile(latencies, 95), 2),
    rssMb,
    indexPeakRssMb: peakRssMb(),
    recallAt5: round(found.length / labelled.length, 2),
  };
}

const [phase, dir, documents] = process.argv.slice(2);
process.stdout.write(`${JSON.stringify(await measure(phase, dir, Number(documents)))}\n`);
