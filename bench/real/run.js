#!/usr/bin/env node
// npm run bench:real: kb serve on the real-documents corpus (bench/real/fetch.js), asked the
// labelled questions of bench/real/questions/*.yaml (or bench/real/questions.yaml); with
// BENCH_REAL_CORPUS=heldout, the held-out corpus (bench/real/heldout.js) and bench/real/heldout.yaml. Next to two
// standard engines over the very same chunks: SQLite FTS5 (bm25) and MiniSearch. Prints a table per
// kind of question and the targets of issue #33; writes the detail to bench/real/results.json (or
// BENCH_OUT). No assertions: targets are reported, not enforced. Options: bench/real/README.md.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { platform } from 'node:os';
import { join, relative } from 'node:path';
import { URLSearchParams, fileURLToPath, pathToFileURL } from 'node:url';
import { cacheDir } from './fetch.js';
import { KINDS, loadQuestions } from './questions.js';
import { benchTempDir } from '../temp.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = join(ROOT, 'bin', 'kb.cjs');
const KEY = 'kb_bench_real_key';
const SEARCH_LIMIT = 20;
const ANCHOR_DEPTH = 50;
const INDEX_TIMEOUT_MS = Number(process.env.BENCH_REAL_INDEX_TIMEOUT_MS ?? 30 * 60_000);

/** The corpora, by BENCH_REAL_CORPUS: the module that builds each. Nobody tunes kb on `heldout`. */
const CORPORA = { default: './fetch.js', heldout: './heldout.js' };
const CORPUS = process.env.BENCH_REAL_CORPUS || 'default';
if (!Object.hasOwn(CORPORA, CORPUS)) {
  process.stderr.write(
    `bench:real: unknown BENCH_REAL_CORPUS=${CORPUS} (${Object.keys(CORPORA).join(' or ')})\n`,
  );
  process.exit(1);
}
/** Where this corpus keeps what is not the shared downloads (kb serve's state with BENCH_REAL_KEEP). */
const CORPUS_CACHE = CORPUS === 'default' ? cacheDir() : join(cacheDir(), CORPUS);

const options = {
  only: (process.env.BENCH_REAL_ONLY ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean),
  verbose: process.env.BENCH_REAL_VERBOSE === '1',
  keep: process.env.BENCH_REAL_KEEP === '1',
  anchors: process.env.BENCH_REAL_ANCHORS !== '0',
  out:
    process.env.BENCH_OUT ??
    join(ROOT, 'bench', 'real', CORPUS === 'default' ? 'results.json' : `results-${CORPUS}.json`),
};

const note = (line) => process.stderr.write(`${line}\n`);
const round = (n, digits = 1) => (n === undefined ? undefined : Math.round(n * 10 ** digits) / 10 ** digits);
const list = (v) => (v === undefined || v === null ? [] : Array.isArray(v) ? v : [v]);
const isPdf = (name) => /\.pdf$/i.test(name);

// --- questions ---------------------------------------------------------------------------------

/**
 * Where the questions come from: BENCH_REAL_QUESTIONS; else, for a corpus other than the default,
 * the file named by it (heldout.yaml); else questions.yaml, else questions/*.yaml.
 */
function questionFiles() {
  if (process.env.BENCH_REAL_QUESTIONS) return [process.env.BENCH_REAL_QUESTIONS];
  if (CORPUS !== 'default') return [join(ROOT, 'bench', 'real', `${CORPUS}.yaml`)];
  const single = join(ROOT, 'bench', 'real', 'questions.yaml');
  if (existsSync(single)) return [single];
  const folder = join(ROOT, 'bench', 'real', 'questions');
  if (!existsSync(folder)) return [];
  return readdirSync(folder)
    .filter((f) => /\.ya?ml$/.test(f))
    .sort()
    .map((f) => join(folder, f));
}

function selected(q) {
  if (!options.only.length) return true;
  return options.only.some((o) => (KINDS.includes(o) ? q.kind === o : q.id.startsWith(o)));
}

// --- matching ----------------------------------------------------------------------------------

/** Lower case, typographic quotes made plain, white space collapsed. */
function normalise(text) {
  return text
    .replace(/[\u2018\u2019\u201a\u201b\u2032]/g, "'")
    .replace(/[\u201c\u201d\u201e\u201f\u2033]/g, '"')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();
}

/** "x.pdf pp. 2, 5–6" -> [2, 5, 6]; no pages -> []. */
function citedPages(cited) {
  const m = / pp?\. (\d+(?:[–-]\d+)?(?:, \d+(?:[–-]\d+)?)*)$/.exec(cited);
  if (!m) return [];
  const pages = [];
  for (const run of m[1].split(', ')) {
    const [a, b = a] = run.split(/[–-]/).map(Number);
    for (let p = a; p <= b; p++) pages.push(p);
  }
  return pages;
}

/** A citation names the right document (and, for the PDF when a page is labelled, a right page). */
function citationRight(cite, turn) {
  if (!turn.file.includes(cite.file)) return false;
  if (!turn.page.length || !isPdf(cite.file)) return true;
  return cite.pages.some((p) => turn.page.includes(p));
}

/** A retrieved passage {file, pages: [first, last] | null} is on the right document (and page). */
function hitRight(hit, turn) {
  if (!turn.file.includes(hit.file)) return false;
  if (!turn.page.length || !isPdf(hit.file)) return true;
  if (!hit.pages) return false;
  const [first, last] = hit.pages;
  return turn.page.some((p) => p >= first && p <= last);
}

/** Hits in rank order, one per (file, pages), at most k. */
function dedupe(hits, k) {
  const seen = new Set();
  const out = [];
  for (const h of hits) {
    const key = `${h.file}\u0000${h.pages ? h.pages.join('-') : ''}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(h);
    if (out.length === k) break;
  }
  return out;
}

function recall(hits, turn) {
  const top = dedupe(hits, 5);
  return { at1: top.length > 0 && hitRight(top[0], turn), at5: top.some((h) => hitRight(h, turn)) };
}

const showHit = (h) =>
  h
    ? `${h.file}${h.pages ? ` p. ${h.pages[0]}${h.pages[1] !== h.pages[0] ? `–${h.pages[1]}` : ''}` : ''}`
    : '(none)';

// --- kb serve ----------------------------------------------------------------------------------

/** kb serve, built, as a child process (so that its own peak RSS can be read) on the corpus. */
async function startKb(corpusDir, env) {
  const args = [BIN, 'serve', '--json', '--port', '0', '--docs', corpusDir, '--index-delay', '0'];
  // Retrieval by meaning too, against a real embeddings endpoint (ollama, llama.cpp, vLLM, OpenAI).
  if (process.env.BENCH_REAL_EMBED_BASE_URL)
    args.push(
      '--embed-base-url',
      process.env.BENCH_REAL_EMBED_BASE_URL,
      '--embed-model',
      process.env.BENCH_REAL_EMBED_MODEL ?? 'nomic-embed-text',
    );
  let dataFile;
  if (options.keep) {
    const folder = join(CORPUS_CACHE, 'kb-serve');
    mkdirSync(folder, { recursive: true });
    dataFile = join(folder, 'state.jsonl');
    args.push('--data', dataFile);
    note(
      `bench:real: BENCH_REAL_KEEP=1: kb serve ${existsSync(dataFile) ? 'restarts from' : 'keeps its state in'} ${dataFile}; ` +
        `after changing extraction, chunking or indexing code, delete it (rm ${dataFile}*) or the old index is measured`,
    );
  }
  const restored = dataFile !== undefined && existsSync(dataFile);
  const started = performance.now();
  const child = spawn(process.execPath, args, {
    env: { ...env, KB_SERVE_API_KEYS: `bench:${KEY}` },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderrTail = '';
  let stderrLine = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (d) => {
    stderrTail = (stderrTail + d).slice(-4000);
    stderrLine += d;
    const lines = stderrLine.split('\n');
    stderrLine = lines.pop();
    for (const line of lines) if (line.trim() && !line.startsWith('{')) note(`kb serve: ${line}`);
  });
  const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  const info = await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.setEncoding('utf8');
    const onData = (d) => {
      out += d;
      const nl = out.indexOf('\n');
      if (nl < 0) return;
      child.stdout.off('data', onData);
      child.stdout.resume(); // progress events follow; not needed
      try {
        resolve(JSON.parse(out.slice(0, nl)));
      } catch (err) {
        reject(new Error(`kb serve printed ${out.slice(0, nl)}: ${err.message}`));
      }
    };
    child.stdout.on('data', onData);
    exited.then(({ code, signal }) =>
      reject(new Error(`kb serve exited (${code ?? signal}) before listening:\n${stderrTail}`)),
    );
  });
  process.on('exit', () => child.kill('SIGKILL'));
  return { child, url: info.url, started, exited, restored, dataFile, stderrTail: () => stderrTail };
}

function api(url) {
  const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
  return async (method, path, body) => {
    const res = await fetch(`${url}${path}`, { method, headers, body: body && JSON.stringify(body) });
    const text = await res.text();
    let json;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status: res.status, json, text };
  };
}

/** Every file of the workspace, page by page (meta.nextCursor). */
async function allFiles(call) {
  const files = [];
  let cursor;
  for (;;) {
    const res = await call(
      'GET',
      `/v1/files?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
    if (res.status !== 200)
      throw new Error(`GET /v1/files answered ${res.status}: ${res.text.slice(0, 300)}`);
    files.push(...res.json.data);
    const next = res.json.meta?.nextCursor;
    if (!next || next === cursor) return files;
    cursor = next;
  }
}

/** Waits until every corpus document is COMPLETED or FAILED; returns the files and the time it took. */
async function waitIndexed(kb, call, names) {
  const wanted = new Set(names);
  let lastReport = performance.now();
  for (;;) {
    const files = await allFiles(call);
    const mine = files.filter((f) => wanted.has(f.originalFilename));
    const done = mine.filter((f) => f.indexingStatus === 'COMPLETED' || f.indexingStatus === 'FAILED');
    if (mine.length === wanted.size && done.length === mine.length)
      return { files: mine, ms: performance.now() - kb.started };
    if (performance.now() - kb.started > INDEX_TIMEOUT_MS)
      throw new Error(
        `indexing took longer than ${INDEX_TIMEOUT_MS / 1000} s (${done.length}/${wanted.size} done)`,
      );
    if (process.stderr.isTTY && performance.now() - lastReport > 5000) {
      lastReport = performance.now();
      note(`bench:real: indexing… ${done.length}/${wanted.size} documents`);
    }
    const ended = await Promise.race([kb.exited, new Promise((r) => setTimeout(() => r(undefined), 250))]);
    if (ended)
      throw new Error(`kb serve exited (${ended.code ?? ended.signal}) while indexing:\n${kb.stderrTail()}`);
  }
}

/** Each file's detail record (GET /v1/files/:id: chunkCount, indexingError), a few at a time. */
async function fileDetails(call, files) {
  const out = [];
  for (let i = 0; i < files.length; i += 8) {
    const batch = await Promise.all(
      files.slice(i, i + 8).map(async (f) => {
        const res = await call('GET', `/v1/files/${encodeURIComponent(f.id)}`);
        if (res.status !== 200) throw new Error(`GET /v1/files/${f.id} answered ${res.status}`);
        return res.json.data;
      }),
    );
    out.push(...batch);
  }
  return out;
}

/** VmHWM of a live process, in MB (Linux only). */
function peakRssMb(pid) {
  if (platform() !== 'linux') return undefined;
  try {
    const m = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Math.round(Number(m[1]) / 1024) : undefined;
  } catch {
    return undefined;
  }
}

async function stopKb(kb) {
  kb.child.kill('SIGINT'); // kb serve stops cleanly (and saves its index with --data)
  const timer = setTimeout(() => kb.child.kill('SIGKILL'), 60_000);
  await kb.exited;
  clearTimeout(timer);
}

// --- asking kb ---------------------------------------------------------------------------------

/** The passages kb's search route ranks first, or undefined when the route is missing (404). */
async function kbSearch(call, question, threadId) {
  const q = new URLSearchParams({ q: question, limit: String(SEARCH_LIMIT) });
  if (threadId) q.set('threadId', threadId);
  const res = await call('GET', `/v1/search?${q}`);
  if (res.status === 404 && (!res.json || res.json.error?.code === 'route_not_found' || !threadId))
    return undefined;
  if (res.status !== 200) throw new Error(`GET /v1/search answered ${res.status}: ${res.text.slice(0, 300)}`);
  return {
    answered: res.json.answered,
    hits: res.json.data.map((h) => ({
      file: h.filename,
      pages: h.pages ?? null,
      score: h.score,
      answers: h.answers,
    })),
  };
}

/** One turn's reply, scored against its labels. */
function scoreReply(turn, reply, citedFilename) {
  const content = String(reply?.content ?? '');
  const sources = list(reply?.sources).map(String);
  const cited = sources.map((s) => ({ file: citedFilename(s), pages: citedPages(s) }));
  const answer = content.split('\n\nSources:')[0];
  const said = normalise(answer);
  return {
    content,
    sources,
    refused: sources.length === 0,
    citedFirstRight: cited.length > 0 && citationRight(cited[0], turn),
    rightAmongCited: cited.some((c) => citationRight(c, turn)),
    holdsExpected: turn.expect.some((e) => said.includes(normalise(e))),
  };
}

async function askKb(call, questions, searchPresent, citedFilename) {
  const latencies = [];
  for (const q of questions) {
    const created = await call('POST', '/v1/threads', { title: `bench:real ${q.id}` });
    if (created.status !== 201 && created.status !== 200)
      throw new Error(`POST /v1/threads answered ${created.status}: ${created.text.slice(0, 300)}`);
    const threadId = created.json.data.id;
    q.threadId = threadId;
    q.turnResults = [];
    for (const turn of q.turns) {
      // Searched before the message is sent: the thread then holds what the assistant sees.
      const search = searchPresent.value ? await kbSearch(call, turn.question, threadId) : undefined;
      if (searchPresent.value && !search) searchPresent.value = false;
      const t0 = performance.now();
      const res = await call('POST', `/v1/threads/${threadId}/messages`, { content: turn.question });
      const ms = performance.now() - t0;
      if (res.status !== 200 && res.status !== 201)
        throw new Error(
          `POST /v1/threads/${threadId}/messages answered ${res.status}: ${res.text.slice(0, 300)}`,
        );
      latencies.push(ms);
      const scored = scoreReply(turn, res.json.data.aiResponse, citedFilename);
      q.turnResults.push({
        ...scored,
        ms: round(ms, 2),
        search: search && {
          answered: search.answered,
          hits: dedupe(search.hits, 5),
          recall: recall(search.hits, turn),
        },
      });
    }
  }
  return latencies;
}

// --- anchors -----------------------------------------------------------------------------------

/** Every corpus document as kb extracts and chunks it (the anchors index exactly these chunks). */
async function extractCorpus(dir, names) {
  const { extractChunks } = await import(
    pathToFileURL(join(ROOT, 'dist/server/ingest/extraction/extract-chunks.js')).href
  );
  const chunks = [];
  const failed = [];
  for (const name of names) {
    const result = await extractChunks(name, new Uint8Array(readFileSync(join(dir, name))));
    if (!result.ok) {
      failed.push({ name, code: result.error.code });
      continue;
    }
    for (const c of result.chunks) chunks.push({ file: name, pages: c.pages ?? null, text: c.text });
  }
  return { chunks, failed };
}

/** The question's words (letters and digits), each quoted, joined with OR: a plain FTS5 query. */
function ftsQuery(text) {
  const words = [...new Set((text.match(/[\p{L}\p{N}]+/gu) ?? []).map((w) => w.toLowerCase()))];
  return words.map((w) => `"${w}"`).join(' OR ');
}

/** What the anchors are asked: the question; for a follow-up, its last turn plus its first. */
function anchorQuery(q) {
  const last = q.turns.at(-1).question;
  return q.turns.length > 1 ? `${last} ${q.turns[0].question}` : last;
}

let libsqlLoaded;
/** libsql's Database class, or undefined (said once) when it cannot be loaded. */
async function libsql() {
  libsqlLoaded ??= import('libsql').then(
    (m) => m.default,
    (err) => {
      note(`bench:real: libsql cannot be loaded (${err.message}); FTS5 runs in python3's sqlite3`);
      return undefined;
    },
  );
  return libsqlLoaded;
}

/** Chunk indexes ranked by FTS5 bm25 for each query, with libsql (or python3's sqlite3). */
async function fts5Rank(chunks, queries, tokenize) {
  const Database = await libsql();
  if (!Database) return fts5RankPython(chunks, queries, tokenize);
  const db = new Database(':memory:');
  db.exec(`CREATE VIRTUAL TABLE c USING fts5(text, tokenize='${tokenize}')`);
  const insert = db.prepare('INSERT INTO c(rowid, text) VALUES (?, ?)');
  db.exec('BEGIN');
  chunks.forEach((chunk, i) => insert.run(i, chunk.text));
  db.exec('COMMIT');
  const search = db.prepare(
    `SELECT rowid AS id, bm25(c) AS score FROM c WHERE c MATCH ? ORDER BY score LIMIT ${ANCHOR_DEPTH}`,
  );
  const ranked = queries.map((q) =>
    q ? search.all(q).map((r) => ({ id: Number(r.id), score: -r.score })) : [],
  );
  db.close();
  return ranked;
}

function fts5RankPython(chunks, queries, tokenize) {
  const work = benchTempDir('kb-bench-fts-');
  const input = join(work, 'input.json');
  writeFileSync(input, JSON.stringify({ texts: chunks.map((c) => c.text), queries, tokenize }));
  const script = `
import json, sqlite3, sys
d = json.load(open(sys.argv[1]))
db = sqlite3.connect(':memory:')
db.execute("CREATE VIRTUAL TABLE c USING fts5(text, tokenize='%s')" % d['tokenize'])
db.executemany('INSERT INTO c(rowid, text) VALUES (?, ?)', enumerate(d['texts']))
out = []
for q in d['queries']:
    rows = db.execute('SELECT rowid, bm25(c) AS s FROM c WHERE c MATCH ? ORDER BY s LIMIT ${ANCHOR_DEPTH}', (q,)).fetchall() if q else []
    out.append([{'id': r[0], 'score': -r[1]} for r in rows])
json.dump(out, sys.stdout)
`;
  const run = spawnSync('python3', ['-c', script, input], { maxBuffer: 1 << 30, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`python3 sqlite3 FTS5 failed: ${run.error?.message ?? run.stderr}`);
  return JSON.parse(run.stdout);
}

async function miniSearchRank(chunks, queries) {
  const { default: MiniSearch } = await import('minisearch');
  const index = new MiniSearch({
    fields: ['text'],
    searchOptions: { combineWith: 'OR', prefix: false, fuzzy: false },
  });
  index.addAll(chunks.map((c, id) => ({ id, text: c.text })));
  return queries.map((q) =>
    index
      .search(q)
      .slice(0, ANCHOR_DEPTH)
      .map((r) => ({ id: r.id, score: r.score })),
  );
}

async function runAnchors(corpus, questions) {
  const t0 = performance.now();
  const { chunks, failed } = await extractCorpus(corpus.dir, corpus.files);
  const extractMs = performance.now() - t0;
  const texts = questions.map(anchorQuery);
  const engines = {
    'fts5-porter': await fts5Rank(chunks, texts.map(ftsQuery), 'porter unicode61'),
    'fts5-unicode61': await fts5Rank(chunks, texts.map(ftsQuery), 'unicode61'),
    minisearch: await miniSearchRank(chunks, texts),
  };
  questions.forEach((q, i) => {
    const turn = q.turns.at(-1);
    q.anchors = {};
    for (const [name, ranked] of Object.entries(engines)) {
      const hits = ranked[i].map((r) => ({ ...chunks[r.id], score: round(r.score, 3) }));
      q.anchors[name] = {
        recall: recall(hits, turn),
        top3: dedupe(hits, 3).map((h) => ({
          file: h.file,
          pages: h.pages,
          score: h.score,
          text: h.text.slice(0, 160),
        })),
      };
    }
  });
  return { chunks: chunks.length, failed, extractMs };
}

// --- report ------------------------------------------------------------------------------------

const pct = (n, d) => (d ? `${Math.round((100 * n) / d)}%` : '—');
const share = (n, d) => (d ? n / d : undefined);

/** Figures for a group of questions (one kind, or every answerable one). */
function figures(group, searchPresent, anchors) {
  const last = (q) => q.turnResults.at(-1);
  const count = (f) => group.filter(f).length;
  const n = group.length;
  const r = (engine, k) => (anchors ? count((q) => q.anchors[engine].recall[k]) : undefined);
  return {
    n,
    citedFirst: count((q) => last(q).citedFirstRight),
    amongCited: count((q) => last(q).rightAmongCited),
    holds: count((q) => last(q).holdsExpected),
    refused: count((q) => last(q).refused),
    search1: searchPresent ? count((q) => last(q).search?.recall.at1) : undefined,
    search5: searchPresent ? count((q) => last(q).search?.recall.at5) : undefined,
    porter1: r('fts5-porter', 'at1'),
    porter5: r('fts5-porter', 'at5'),
    unicode1: r('fts5-unicode61', 'at1'),
    mini1: r('minisearch', 'at1'),
    mini5: r('minisearch', 'at5'),
  };
}

function table(questions, searchPresent, anchors) {
  const head = [
    'kind',
    'questions',
    'cited first (kb)',
    'among cited',
    'holds expected',
    'refused',
    'kb search r@1',
    'r@5',
    'FTS5-porter r@1',
    'r@5',
    'FTS5-unicode61 r@1',
    'MiniSearch r@1',
    'r@5',
  ];
  const rows = [];
  const opt = (v, n) => (v === undefined ? 'n/a' : pct(v, n));
  const answerableRow = (label, g) => {
    const f = figures(g, searchPresent, anchors);
    return [
      label,
      String(f.n),
      pct(f.citedFirst, f.n),
      pct(f.amongCited, f.n),
      pct(f.holds, f.n),
      pct(f.refused, f.n),
      opt(f.search1, f.n),
      opt(f.search5, f.n),
      opt(f.porter1, f.n),
      opt(f.porter5, f.n),
      opt(f.unicode1, f.n),
      opt(f.mini1, f.n),
      opt(f.mini5, f.n),
    ];
  };
  for (const kind of KINDS) {
    const g = questions.filter((q) => q.kind === kind);
    if (kind !== 'no-answer') rows.push(answerableRow(kind, g));
    else {
      const refused = g.filter((q) => q.turnResults.at(-1).refused).length;
      rows.push([kind, String(g.length), '—', '—', '—', pct(refused, g.length), ...Array(7).fill('—')]);
    }
  }
  rows.push(
    answerableRow(
      'all answerable',
      questions.filter((q) => q.kind !== 'no-answer'),
    ),
  );
  // Questions kb was changed on are read apart: the rest say how it does on what it has not seen.
  if (questions.some((q) => q.tuned))
    rows.push(
      answerableRow(
        'answerable, not tuned on',
        questions.filter((q) => q.kind !== 'no-answer' && !q.tuned),
      ),
    );
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const fmt = (r) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  return [fmt(head), ...rows.map(fmt)].join('\n');
}

function percentile(values, p) {
  if (!values.length) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

function verboseFailure(q) {
  const last = q.turnResults.at(-1);
  const turn = q.turns.at(-1);
  const answerable = q.kind !== 'no-answer';
  const failed = answerable ? !last.citedFirstRight || !last.holdsExpected : !last.refused;
  if (!failed) return undefined;
  const lines = [`✗ ${q.id} [${q.kind}]`];
  q.turns.forEach((t, i) => lines.push(`    ${q.turns.length > 1 ? `turn ${i + 1}: ` : ''}${t.question}`));
  if (answerable) {
    const where = turn.file.map((f) =>
      isPdf(f) && turn.page.length ? `${f} p. ${turn.page.join(', ')}` : f,
    );
    lines.push(
      `    expected: ${where.join(' or ')} · holding ${turn.expect.map((e) => JSON.stringify(e)).join(' or ')}`,
    );
    lines.push(
      `    kb cited: ${last.sources.length ? last.sources.join(' · ') : '(nothing: refused)'}` +
        `  [first right: ${last.citedFirstRight ? 'yes' : 'no'}, among cited: ${last.rightAmongCited ? 'yes' : 'no'}, holds expected: ${last.holdsExpected ? 'yes' : 'no'}]`,
    );
  } else {
    lines.push(`    expected: a refusal; kb cited ${last.sources.join(' · ')}`);
  }
  const answer = last.content.split('\n\nSources:')[0].replace(/\s+/g, ' ');
  lines.push(`    kb said:  ${JSON.stringify(answer.slice(0, 200))}${answer.length > 200 ? '…' : ''}`);
  if (last.search)
    lines.push(
      `    kb search first: ${showHit(last.search.hits[0])}${last.search.recall.at5 ? '' : ' (right one not in top 5)'}`,
    );
  if (q.anchors) {
    const fts = q.anchors['fts5-porter'];
    lines.push(
      `    FTS5 first: ${showHit(fts.top3[0])}${fts.recall.at1 ? ' (right)' : fts.recall.at5 ? ' (right one in top 5)' : ''}`,
    );
  }
  return lines.join('\n');
}

// --- main --------------------------------------------------------------------------------------

const { ensureCorpus } = await import(CORPORA[CORPUS]);
const corpus = await ensureCorpus();
const questionSources = questionFiles();
const { questions: allQuestions, skipped } = loadQuestions(questionSources, corpus.files);
for (const s of skipped) note(`bench:real: skipped question ${s}`);
const questions = allQuestions.filter(selected);
if (!questions.length) {
  note(
    questionSources.length
      ? `bench:real: no questions${options.only.length ? ` match BENCH_REAL_ONLY=${options.only.join(',')}` : ''} in ${questionSources.join(', ')}`
      : 'bench:real: no questions: write bench/real/questions/*.yaml (or point BENCH_REAL_QUESTIONS at a file)',
  );
  process.exit(1);
}
const corpusBytes = corpus.files.reduce((n, f) => n + statSync(join(corpus.dir, f)).size, 0);
const corpusLine = `corpus ${CORPUS} (${corpus.dir}): ${corpus.files.length} documents, ${round(corpusBytes / 1e6)} MB; ${questions.length} questions from ${questionSources.map((f) => relative(ROOT, f)).join(', ')}`;
note(`bench:real: ${corpusLine}`);

const work = benchTempDir('kb-bench-real-');
const env = Object.fromEntries(
  Object.entries(process.env).filter(([k]) => !k.startsWith('KB_') || k === 'KB_EMBED_API_KEY'),
);
Object.assign(env, {
  HOME: work,
  KB_CONFIG_DIR: work,
  XDG_CONFIG_HOME: join(work, 'config'),
  XDG_CACHE_HOME: join(work, 'cache'),
  XDG_DATA_HOME: join(work, 'data'),
  CI: 'true',
});

const { citedFilename } = await import(pathToFileURL(join(ROOT, 'dist/util/citation.js')).href);
const kb = await startKb(corpus.dir, env);
const call = api(kb.url);
const indexed = await waitIndexed(kb, call, corpus.files);
// The list carries no error or chunk count: each file's detail record does (read after the timing).
const details = await fileDetails(call, indexed.files);
const failedFiles = details.filter((f) => f.indexingStatus === 'FAILED');
for (const f of failedFiles)
  note(
    `bench:real: FAILED ${f.originalFilename}: ${f.indexingError?.code ?? '?'} ${f.indexingError?.message ?? ''}`,
  );
const kbChunks = details.reduce((n, f) => n + (f.chunkCount ?? 0), 0);
note(
  `bench:real: ${kb.restored ? 'restored' : 'indexed'} in ${round(indexed.ms / 1000)} s; asking ${questions.length} questions`,
);

const searchPresent = { value: (await kbSearch(call, 'probe', undefined)) !== undefined };
const latencies = await askKb(call, questions, searchPresent, citedFilename);
const rssMb = peakRssMb(kb.child.pid);
await stopKb(kb);

let anchors;
if (options.anchors) {
  note('bench:real: the anchors: extracting every document with kb’s extraction, then FTS5 and MiniSearch');
  anchors = await runAnchors(corpus, questions);
}

const answerable = questions.filter((q) => q.kind !== 'no-answer');
const noAnswer = questions.filter((q) => q.kind === 'no-answer');
const all = figures(answerable, searchPresent.value, anchors);
const correctRefusals = noAnswer.filter((q) => q.turnResults.at(-1).refused).length;
const p50 = percentile(latencies, 50);
const p95 = percentile(latencies, 95);

const targets = [
  {
    name: 'cited first ≥ 1.2 × FTS5-porter r@1',
    detail: anchors
      ? `${pct(all.citedFirst, all.n)} vs 1.2 × ${pct(all.porter1, all.n)} = ${pct(1.2 * all.porter1, all.n)}`
      : 'n/a (BENCH_REAL_ANCHORS=0)',
    ok: anchors ? all.citedFirst >= 1.2 * all.porter1 : undefined,
  },
  {
    name: 'holds expected ≥ 70 % of answerable',
    detail: pct(all.holds, all.n),
    ok: all.n ? all.holds / all.n >= 0.7 : undefined,
  },
  {
    name: '≥ 90 % of no-answer refused',
    detail: `${pct(correctRefusals, noAnswer.length)} (${correctRefusals}/${noAnswer.length})`,
    ok: noAnswer.length ? correctRefusals / noAnswer.length >= 0.9 : undefined,
  },
  {
    name: 'false refusals ≤ 10 %',
    detail: `${pct(all.refused, all.n)} (${all.refused}/${all.n})`,
    ok: all.n ? all.refused / all.n <= 0.1 : undefined,
  },
  { name: 'message p95 ≤ 50 ms', detail: `${round(p95)} ms`, ok: p95 !== undefined ? p95 <= 50 : undefined },
];

if (options.verbose) {
  const failures = questions.map(verboseFailure).filter(Boolean);
  console.log(`Failed questions (${failures.length} of ${questions.length}):\n`);
  for (const f of failures) console.log(`${f}\n`);
}
console.log(`bench:real: ${corpusLine}\n`);
console.log(table(questions, searchPresent.value, anchors));
console.log(
  '\nrefused: false refusals on answerable rows, correct refusals on the no-answer row. r@k: the right ' +
    'document (and PDF page) among the first k distinct (file, page) hits.',
);
if (!searchPresent.value) console.log('kb search: n/a (no /v1/search)');
if (questions.some((q) => q.kind === 'follow-up'))
  console.log(
    'Follow-ups: kb is asked turn by turn in one thread; the anchors get the last question plus the first.',
  );
console.log(`
message      p50 ${round(p50)} ms, p95 ${round(p95)} ms over ${latencies.length} messages
index time   ${kb.restored ? `n/a (restored from ${kb.dataFile} in ${round(indexed.ms / 1000)} s)` : `${round(indexed.ms / 1000)} s (spawn to every document COMPLETED or FAILED)`}
peak RSS     ${rssMb === undefined ? 'n/a (VmHWM: Linux only)' : `${rssMb} MB (kb serve, VmHWM)`}
corpus       ${corpus.files.length} documents, ${round(corpusBytes / 1e6)} MB; ${failedFiles.length} FAILED
chunks       ${kbChunks} in kb serve${anchors ? `; ${anchors.chunks} given to the anchors (kb's extraction, ${round(anchors.extractMs / 1000)} s)` : ''}

Targets (issue #33):`);
for (const t of targets)
  console.log(`  ${t.ok === undefined ? '·' : t.ok ? '✓' : '✗'} ${t.name}: ${t.detail}`);

const results = {
  date: new Date().toISOString(),
  node: process.version,
  questionSources,
  corpus: { name: CORPUS, dir: corpus.dir, documents: corpus.files.length, bytes: corpusBytes },
  kbServe: {
    indexMs: round(indexed.ms),
    restored: kb.restored,
    peakRssMb: rssMb,
    chunks: kbChunks,
    failed: failedFiles.map((f) => ({
      file: f.originalFilename,
      code: f.indexingError?.code,
      message: f.indexingError?.message,
    })),
    messageP50Ms: round(p50, 2),
    messageP95Ms: round(p95, 2),
    search: searchPresent.value,
  },
  anchors: anchors && { chunks: anchors.chunks, extractMs: round(anchors.extractMs), failed: anchors.failed },
  byKind: Object.fromEntries(
    KINDS.map((k) => [
      k,
      figures(
        questions.filter((q) => q.kind === k),
        searchPresent.value,
        anchors,
      ),
    ]),
  ),
  answerable: all,
  noAnswer: { n: noAnswer.length, refused: correctRefusals, share: share(correctRefusals, noAnswer.length) },
  targets,
  questions: questions.map((q) => ({
    id: q.id,
    kind: q.kind,
    threadId: q.threadId,
    turns: q.turns.map((t, i) => {
      const r = q.turnResults[i];
      return {
        question: t.question,
        expected: { file: t.file, page: t.page, expect: t.expect },
        answer: r.content.slice(0, 300),
        sources: r.sources,
        ms: r.ms,
        flags: {
          citedFirstRight: r.citedFirstRight,
          rightAmongCited: r.rightAmongCited,
          holdsExpected: r.holdsExpected,
          refused: r.refused,
        },
        search: r.search,
      };
    }),
    anchors: q.anchors,
  })),
};
writeFileSync(options.out, `${JSON.stringify(results, null, 2)}\n`);
console.log(`\nwrote ${options.out}`);
