#!/usr/bin/env node
// kb serve at knowledge-base scale, each phase in a process of its own (bench/scale-measure.js, so
// that memory is that phase's alone): index every document, answer messages, restart with --data
// to the first answer, upload a document while small requests run, then index everything anew
// while messages are answered; retrieval quality with labelled queries. Issue #34's targets are
// printed for the sizes it names.
// Usage: node bench/scale.js [sizes]   e.g. node bench/scale.js 2000,20000
// Prints a table and writes bench/scale-results.json (or BENCH_SCALE_OUT). `npm run bench`
// runs a shorter curve (BENCH_SCALE sets the sizes of both).
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { eachDocument } from './corpus.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SELF = fileURLToPath(import.meta.url);
const MEASURE = fileURLToPath(new URL('scale-measure.js', import.meta.url));
/** The phases, in order; BENCH_SCALE_PHASES=index,restart leaves out the long last one. */
const PHASES = (process.env.BENCH_SCALE_PHASES ?? 'index,restart,indexing').split(',').map((p) => p.trim());

/**
 * Queries made of a document's three rarest words (the document is the right answer), for one
 * document in every `total / count`, taken as the documents go by: only the picked documents'
 * words and each word's document count are kept.
 */
function rareWordQueries(total, count) {
  const frequency = new Map();
  const picked = [];
  const step = Math.max(1, Math.floor(total / count));
  let seen = 0;
  return {
    add(name, text) {
      const words = new Set(text.toLowerCase().match(/[a-z]+/g));
      for (const w of words) frequency.set(w, (frequency.get(w) ?? 0) + 1);
      if (seen++ % step === 0 && picked.length < count) picked.push({ name, words });
    },
    queries: () =>
      picked.map(({ name, words }) => ({
        query: [...words]
          .filter((w) => w.length > 3)
          .sort((a, b) => frequency.get(a) - frequency.get(b))
          .slice(0, 3)
          .join(' '),
        expected: name,
      })),
  };
}

/** Queries made of a document's three rarest words: the document is the right answer. */
export function labelledQueries(docs, count) {
  const rare = rareWordQueries(docs.length, count);
  for (const [name, text] of docs) rare.add(name, text);
  return rare.queries();
}

/** The first twelve words of a document's first sentence: a question that document answers. */
const firstWords = (text) => text.split('\n\n')[1].split('. ')[0].split(' ').slice(0, 12).join(' ');

/** Writes `size` documents as they are made, the labelled queries and the message texts into a new directory. */
function prepare(size) {
  const dir = mkdtempSync(join(tmpdir(), 'kb-scale-'));
  mkdirSync(join(dir, 'docs'));
  const rare = rareWordQueries(size, 100);
  let bytes = 0;
  let seen = 0;
  let restartQuestion;
  const queries = eachDocument(size, (name, text) => {
    writeFileSync(join(dir, 'docs', name), text);
    bytes += text.length;
    rare.add(name, text);
    if (seen++ === Math.floor(size / 2)) restartQuestion = { question: firstWords(text), expected: name };
  });
  writeFileSync(
    join(dir, 'queries.json'),
    JSON.stringify({ bytes, queries, labelled: rare.queries(), restartQuestion }),
  );
  return dir;
}

/** Generous: a slow phase is measured, only a stuck one is stopped (at 100,000 documents, 35 minutes). */
const phaseTimeoutMs = (size) => 120_000 + 20 * size;

/** One size's row: its phases in order, each in a process of its own. */
function measureSize(size) {
  const dir = prepare(size);
  try {
    const row = {};
    // Index first; then restart on what it stored; then index anew while answering messages.
    for (const phase of PHASES) {
      const res = spawnSync(process.execPath, [MEASURE, phase, dir, String(size)], {
        encoding: 'utf8',
        maxBuffer: 16 << 20,
        timeout: phaseTimeoutMs(size),
      });
      if (res.error) throw new Error(`${phase}: ${res.error.message}`);
      if (res.status !== 0) throw new Error(`${phase}: exit ${res.status ?? res.signal}: ${res.stderr}`);
      Object.assign(row, JSON.parse(res.stdout.trim().split('\n').at(-1)));
    }
    // Of the phases that ran (BENCH_SCALE_PHASES may leave some out).
    row.peakRssMb = Math.max(
      ...[row.indexPeakRssMb, row.restartPeakRssMb, row.indexingPeakRssMb].filter((mb) => mb !== undefined),
    );
    return row;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The curve over `sizes`; a size that fails is a row with its error, and the others still run. */
export function scaleCurve(sizes) {
  return sizes.map((size) => {
    try {
      return measureSize(size);
    } catch (err) {
      return { documents: size, error: err instanceof Error ? err.message : String(err) };
    }
  });
}

/** Issue #34's targets, for the sizes it names (its upload target is for 100,000 documents). */
export const SCALE_TARGETS = {
  20000: { indexMs: 10_000, peakRssMb: 150, restartFirstAnswerMs: 500, messageP95Ms: 20, indexingP95Ms: 50 },
  100000: {
    indexMs: 60_000,
    peakRssMb: 300,
    restartFirstAnswerMs: 1000,
    messageP95Ms: 50,
    indexingP95Ms: 100,
    uploadSettledStallMs: 50,
  },
};

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
/** Each target's label and unit (`s`: a time in ms shown in seconds). */
const TARGET_LABELS = {
  indexMs: ['index all', 's'],
  peakRssMb: ['peak RSS', 'MB'],
  restartFirstAnswerMs: ['restart to first answer', 's'],
  messageP95Ms: ['message p95', 'ms'],
  indexingP95Ms: ['p95 while indexing', 'ms'],
  uploadSettledStallMs: ['max stall during an upload', 'ms'],
};

/** A line per row whose size has targets: each figure against its target, ✓ or ✗. */
export function scaleTargets(rows) {
  return rows
    .filter((r) => SCALE_TARGETS[r.documents] && !r.error)
    .map((r) => {
      const checks = Object.entries(SCALE_TARGETS[r.documents]).map(([field, limit]) => {
        const [label, unit] = TARGET_LABELS[field];
        // A phase left out (BENCH_SCALE_PHASES) measured nothing to check.
        if (r[field] === undefined) return `${label} not measured`;
        const [figure, target] =
          unit === 's'
            ? [seconds(r[field]), `${limit / 1000} s`]
            : [`${r[field]} ${unit}`, `${limit} ${unit}`];
        return `${label} ${figure} ≤ ${target} ${r[field] <= limit ? '✓' : '✗'}`;
      });
      return `${r.documents.toLocaleString('en-US')} documents, targets of #34: ${checks.join(', ')}`;
    });
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
    'peak RSS',
    'restart to first answer',
    'upload stall',
    'recall@5',
  ];
  const measured = rows.filter((r) => !r.error);
  // A figure of a phase left out (BENCH_SCALE_PHASES) is not measured.
  const shown = (value, format) => (value === undefined ? 'not measured' : format(value));
  const unit = (name) => (value) => `${value} ${name}`;
  const cells = measured.map((r) => [
    String(r.documents),
    String(r.megabytes),
    shown(r.indexMs, seconds),
    shown(r.messageP50Ms, unit('ms')),
    shown(r.messageP95Ms, unit('ms')),
    shown(r.indexingP95Ms, unit('ms')),
    shown(r.rssMb, unit('MB')),
    shown(r.peakRssMb, unit('MB')),
    shown(r.restartFirstAnswerMs, seconds),
    shown(r.uploadSettledStallMs, unit('ms')),
    shown(r.recallAt5, String),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const line = (c) => c.map((x, i) => x.padEnd(widths[i])).join('  ');
  const failed = rows.filter((r) => r.error).map((r) => `${r.documents}  failed: ${r.error}`);
  return [head, ...cells].map(line).concat(failed).join('\n');
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

/** The curve `npm run bench` ends with. */
export const DEFAULT_SIZES = '2000,5000,10000,20000';
/** The curve of `npm run bench:scale`: #34's sizes among them. */
export const SCALE_SIZES = `${DEFAULT_SIZES},100000`;

if (process.argv[1] === SELF) {
  const rows = scaleCurve(parseSizes(process.argv[2] ?? process.env.BENCH_SCALE ?? SCALE_SIZES));
  console.log(scaleTable(rows));
  const targets = scaleTargets(rows);
  console.log(
    `\n${targets.length ? targets.join('\n') : '(#34 sets targets for 20,000 and 100,000 documents)'}`,
  );
  const out = process.env.BENCH_SCALE_OUT ?? join(ROOT, 'bench', 'scale-results.json');
  writeFileSync(
    out,
    `${JSON.stringify({ date: new Date().toISOString(), node: process.version, rows }, null, 2)}\n`,
  );
  console.log(`\nwrote ${out}`);
  if (rows.some((r) => r.error)) process.exitCode = 1;
}
