#!/usr/bin/env node
// kb serve at knowledge-base scale, one size per process (so memory is that size's alone):
// index every document, answer messages, restart with --data, and check retrieval quality.
// Usage: node bench/scale.js [sizes]   e.g. node bench/scale.js 2000,20000
// Prints a table and writes bench/scale-results.json (or BENCH_SCALE_OUT).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { corpus } from './corpus.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};
const round = (n, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;

/** Queries made of a document's three rarest words: the document is the right answer. */
function labelledQueries(docs, count) {
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

async function one(size) {
  const { startServer } = await import(join(ROOT, 'dist', 'index.js'));
  const dir = mkdtempSync(join(tmpdir(), 'kb-scale-'));
  const docsDir = join(dir, 'docs');
  const dataFile = join(dir, 'state.jsonl');
  const { docs, queries } = corpus(size);
  spawnSync('mkdir', [docsDir]);
  let bytes = 0;
  for (const [name, text] of docs) {
    writeFileSync(join(docsDir, name), text);
    bytes += text.length;
  }
  const labelled = labelledQueries(docs, 100);
  docs.length = 0; // the corpus is on disk now; keep memory the service's own

  let started = performance.now();
  let s = await startServer({ port: 0, docsDir, dataFile, indexDelayMs: 0 });
  await s.service.indexer.idle();
  const indexMs = performance.now() - started;
  const key = Object.values(s.keys)[0];
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const thread = (await (await fetch(`${s.url}/v1/threads`, { method: 'POST', headers, body: '{}' })).json())
    .data.id;
  const latencies = [];
  for (let i = 0; i < 150; i++) {
    const q0 = performance.now();
    const res = await fetch(`${s.url}/v1/threads/${thread}/messages`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ content: queries[i % queries.length] }),
    });
    await res.json();
    if (i >= 10) latencies.push(performance.now() - q0);
  }
  const workspace = [...s.service.store.workspaces.values()][0].id;
  const index = s.service.store.index(workspace);
  const found = labelled.filter(({ query, expected }) =>
    index.search(query, 5).some((h) => h.chunk.filename === expected),
  );
  globalThis.gc?.();
  const rssMb = process.memoryUsage().rss / 1e6;
  await s.close();

  started = performance.now();
  s = await startServer({ port: 0, docsDir, dataFile, indexDelayMs: 0 });
  await s.service.indexer.idle();
  const restartMs = performance.now() - started;
  await s.close();
  rmSync(dir, { recursive: true, force: true });
  return {
    documents: size,
    megabytes: round(bytes / 1e6),
    indexMs: Math.round(indexMs),
    messageP50Ms: round(percentile(latencies, 50), 2),
    messageP95Ms: round(percentile(latencies, 95), 2),
    rssMb: Math.round(rssMb),
    restartMs: Math.round(restartMs),
    recallAt5: round(found.length / labelled.length, 2),
  };
}

if (process.argv[2] === '--one') {
  process.stdout.write(`${JSON.stringify(await one(Number(process.argv[3])))}\n`);
} else {
  const sizes = (process.argv[2] ?? process.env.BENCH_SCALE ?? '2000,5000,10000,20000')
    .split(',')
    .map(Number);
  const rows = [];
  for (const size of sizes) {
    const res = spawnSync(
      process.execPath,
      ['--expose-gc', fileURLToPath(import.meta.url), '--one', String(size)],
      {
        encoding: 'utf8',
        maxBuffer: 1 << 20,
      },
    );
    if (res.status !== 0) throw new Error(`size ${size} failed: ${res.stderr}`);
    rows.push(JSON.parse(res.stdout.trim().split('\n').at(-1)));
  }
  const head = [
    'documents',
    'text MB',
    'index all',
    'message p50',
    'message p95',
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
    `${r.rssMb} MB`,
    `${(r.restartMs / 1000).toFixed(1)} s`,
    String(r.recallAt5),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const line = (c) => c.map((x, i) => x.padEnd(widths[i])).join('  ');
  console.log(line(head));
  for (const c of cells) console.log(line(c));
  const out = process.env.BENCH_SCALE_OUT ?? join(ROOT, 'bench', 'scale-results.json');
  writeFileSync(
    out,
    `${JSON.stringify({ date: new Date().toISOString(), node: process.version, rows }, null, 2)}\n`,
  );
  console.log(`\nwrote ${out}`);
}
