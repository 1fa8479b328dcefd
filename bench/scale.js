#!/usr/bin/env node
// kb serve at knowledge-base scale, one size per process (so memory is that size's alone):
// index every document, answer messages, restart with --data, answer messages while indexing,
// and check retrieval quality with labelled queries.
// Usage: node bench/scale.js [sizes]   e.g. node bench/scale.js 2000,20000
// Prints a table and writes bench/scale-results.json (or BENCH_SCALE_OUT). `npm run bench`
// runs the same curve (BENCH_SCALE sets its sizes).
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { corpus } from './corpus.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SELF = fileURLToPath(import.meta.url);
const MESSAGES = 150;
const WARMUP_MESSAGES = 10;

const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};
const round = (n, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;

/** Queries made of a document's three rarest words: the document is the right answer. */
export function labelledQueries(docs, count) {
  const frequency = new Map();
  const wordsOf = docs.map(([, text]) => new Set(text.toLowerCase().match(/[a-z]+/g)));
  for (const words of wordsOf) for (const w of words) frequency.set(w, (frequency.get(w) ?? 0) + 1);
  const step = Math.max(1, Math.floor(docs.length / count));
  const queries = [];
  for (let i = 0; i < docs.length && queries.length < count; i += step) {
    const rare = [...wordsOf[i]]
      .filter((w) => w.length > 3)
      .sort((a, b) => frequency.get(a) - frequency.get(b));
    queries.push({ query: rare.slice(0, 3).join(' '), expected: docs[i][0] });
  }
  return queries;
}

/** Writes `size` documents, the labelled queries and the message texts into a new directory. */
function prepare(size) {
  const dir = mkdtempSync(join(tmpdir(), 'kb-scale-'));
  mkdirSync(join(dir, 'docs'));
  const { docs, queries } = corpus(size);
  let bytes = 0;
  for (const [name, text] of docs) {
    writeFileSync(join(dir, 'docs', name), text);
    bytes += text.length;
  }
  writeFileSync(
    join(dir, 'queries.json'),
    JSON.stringify({ bytes, queries, labelled: labelledQueries(docs, 100) }),
  );
  return dir;
}

/** One phase of the measurement, in a process of its own, on a directory `prepare` made. */
async function measure(phase, dir) {
  const { startServer } = await import(join(ROOT, 'dist', 'index.js'));
  const { bytes, queries, labelled } = JSON.parse(readFileSync(join(dir, 'queries.json'), 'utf8'));
  const start = (data) =>
    startServer({ port: 0, docsDir: join(dir, 'docs'), dataFile: join(dir, data), indexDelayMs: 0 });
  const messages = async (s, count, until = () => false) => {
    const key = Object.values(s.keys)[0];
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const created = await fetch(`${s.url}/v1/threads`, { method: 'POST', headers, body: '{}' });
    const thread = (await created.json()).data.id;
    const latencies = [];
    for (let i = 0; i < count && !until(); i++) {
      const started = performance.now();
      const res = await fetch(`${s.url}/v1/threads/${thread}/messages`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ content: queries[i % queries.length] }),
      });
      await res.json();
      if (i >= WARMUP_MESSAGES) latencies.push(performance.now() - started);
    }
    return latencies;
  };

  const started = performance.now();
  const s = await start(phase === 'indexing' ? 'again.db' : 'state.db');
  if (phase === 'indexing') {
    // Indexing everything into a new --data file while messages are answered.
    const latencies = await messages(s, Infinity, () => s.service.indexer.progress().idle);
    await s.close();
    return { indexingP95Ms: round(percentile(latencies, 95), 2) };
  }
  await s.service.indexer.idle();
  const elapsed = Math.round(performance.now() - started);
  if (phase === 'restart') {
    await s.close();
    return { restartMs: elapsed, restartIndexed: s.service.indexer.progress().done };
  }
  const latencies = await messages(s, MESSAGES);
  const workspace = [...s.service.store.workspaces.values()][0].id;
  const index = s.service.store.index(workspace);
  const found = labelled.filter(({ query, expected }) =>
    index.search(query, 5).some((h) => h.chunk.filename === expected),
  );
  globalThis.gc?.();
  const rssMb = Math.round(process.memoryUsage().rss / 1e6);
  await s.close();
  return {
    documents: s.service.store.files.size,
    megabytes: round(bytes / 1e6),
    indexMs: elapsed,
    messageP50Ms: round(percentile(latencies, 50), 2),
    messageP95Ms: round(percentile(latencies, 95), 2),
    rssMb,
    recallAt5: round(found.length / labelled.length, 2),
  };
}

/** The curve over `sizes`, each size measured in a process of its own. */
export function scaleCurve(sizes) {
  const rows = [];
  for (const size of sizes) {
    const dir = prepare(size);
    try {
      const row = {};
      // Index first; then restart on what it stored; then index anew while answering messages.
      for (const phase of ['index', 'restart', 'indexing']) {
        const res = spawnSync(process.execPath, ['--expose-gc', SELF, '--measure', phase, dir], {
          encoding: 'utf8',
          maxBuffer: 1 << 20,
        });
        if (res.status !== 0) throw new Error(`size ${size}, ${phase}: ${res.stderr}`);
        Object.assign(row, JSON.parse(res.stdout.trim().split('\n').at(-1)));
      }
      rows.push(row);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return rows;
}

export function scaleTable(rows) {
  const head = [
    'documents',
    'text MB',
    'index all',
    'message p50',
    'message p95',
    'p95 while indexing',
    'RSS',
    'restart',
    'recall@5',
  ];
  const cells = rows.map((r) => [
    String(r.documents),
    String(r.megabytes),
    `${(r.indexMs / 1000).toFixed(1)} s`,
    `${r.messageP50Ms} ms`,
    `${r.messageP95Ms} ms`,
    `${r.indexingP95Ms} ms`,
    `${r.rssMb} MB`,
    `${(r.restartMs / 1000).toFixed(1)} s`,
    String(r.recallAt5),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const line = (c) => c.map((x, i) => x.padEnd(widths[i])).join('  ');
  return [head, ...cells].map(line).join('\n');
}

export const parseSizes = (text) =>
  text
    .split(',')
    .filter(Boolean)
    .map((s) => {
      const n = Number(s);
      if (!Number.isInteger(n) || n <= 0) throw new Error(`not a number of documents: "${s}"`);
      return n;
    });

export const DEFAULT_SIZES = '2000,5000,10000,20000';

if (process.argv[2] === '--measure') {
  process.stdout.write(`${JSON.stringify(await measure(process.argv[3], process.argv[4]))}\n`);
} else if (process.argv[1] === SELF) {
  const rows = scaleCurve(parseSizes(process.argv[2] ?? process.env.BENCH_SCALE ?? DEFAULT_SIZES));
  console.log(scaleTable(rows));
  const out = process.env.BENCH_SCALE_OUT ?? join(ROOT, 'bench', 'scale-results.json');
  writeFileSync(
    out,
    `${JSON.stringify({ date: new Date().toISOString(), node: process.version, rows }, null, 2)}\n`,
  );
  console.log(`\nwrote ${out}`);
}
