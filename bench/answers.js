#!/usr/bin/env node
// The assistant's answer quality on the labelled set (bench/answers.eval.yaml), run by kb eval
// against the demo workspace: answer accuracy, "no answer → no citation", answerable questions
// refused, and recall@5 of retrieval. `npm run bench` includes it; `npm run bench:answers` runs it
// alone; BENCH_SWEEP=1 also sweeps the relevance threshold (how RELEVANCE_THRESHOLD was chosen).
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { benchTempDir } from './temp.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SET = join(ROOT, 'bench', 'answers.eval.yaml');

function kbEval(env) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(ROOT, 'bin', 'kb.cjs'), 'eval', SET, '--json'], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('close', (status) => {
      if (status !== 0 && status !== 1) reject(new Error(`kb eval exited ${status}: ${err}`));
      else resolve(JSON.parse(out));
    });
  });
}

const kindOf = (name) => name.slice(0, name.indexOf(':'));
const share = (n, d) => (d ? Math.round((n / d) * 100) / 100 : 0);

/** The quality figures of one configuration of kb serve (`serverOptions`, e.g. an embeddings endpoint). */
export async function answerQuality(serverOptions = {}) {
  const { startServer } = await import(pathToFileURL(join(ROOT, 'dist/server/index.js')).href);
  const { retrieve } = await import(pathToFileURL(join(ROOT, 'dist/server/answer/assistant.js')).href);
  const { parseCases } = await import(pathToFileURL(join(ROOT, 'dist/eval/cases.js')).href);
  const cases = parseCases(SET, readFileSync(SET, 'utf8'));
  const server = await startServer({ port: 0, indexDelayMs: 0, demo: true, ...serverOptions });
  try {
    await server.service.indexer.idle();
    const home = benchTempDir('kb-answers-');
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('KB_')));
    Object.assign(env, {
      HOME: home,
      KB_CONFIG_DIR: home,
      XDG_CACHE_HOME: join(home, 'cache'),
      CI: 'true',
      KB_BASE_URL: server.url,
      KB_API_KEY: server.keys.demo,
    });
    const report = await kbEval(env);
    const byKind = {};
    let noAnswer = 0;
    let noAnswerUncited = 0;
    let answerable = 0;
    let refused = 0;
    for (const c of report.cases) {
      const kind = kindOf(c.name);
      const k = (byKind[kind] ??= { cases: 0, passed: 0 });
      k.cases++;
      if (c.passed) k.passed++;
      const last = c.results[0].turns.at(-1);
      if (kind === 'no answer') {
        noAnswer++;
        if (last && last.sources.length === 0) noAnswerUncited++;
      } else {
        answerable++;
        if (last && last.sources.length === 0) refused++;
      }
    }
    // recall@5: the right file among the first five retrieved for the (last) question.
    const workspace = server.workspaces[0].id;
    const options = { threshold: serverOptions.relevanceThreshold, embeddings: server.service.embeddings };
    let found = 0;
    let asked = 0;
    for (const c of cases) {
      const last = c.turns.at(-1);
      const wanted = last.expectations.find((e) => e.kind === 'sources')?.expected;
      if (!wanted) continue;
      const history = [];
      for (const turn of c.turns.slice(0, -1)) {
        const r = await retrieve(server.service, workspace, turn.question, history, options);
        history.push(
          { role: 'user', content: turn.question },
          { role: 'assistant', content: '', sources: [...new Set(r.passages.map((p) => p.chunk.filename))] },
        );
      }
      const r = await retrieve(server.service, workspace, last.question, history, options);
      const files = [...new Set(r.hits.map((h) => h.chunk.filename))].slice(0, 5);
      asked++;
      if ([wanted].flat().every((w) => files.includes(w))) found++;
    }
    const answerablePassed = Object.entries(byKind)
      .filter(([k]) => k !== 'no answer')
      .reduce((n, [, v]) => n + v.passed, 0);
    return {
      cases: report.totals.cases,
      accuracy: share(answerablePassed, answerable),
      byKind: Object.fromEntries(Object.entries(byKind).map(([k, v]) => [k, `${v.passed}/${v.cases}`])),
      noAnswerUncited: share(noAnswerUncited, noAnswer),
      answerableRefused: share(refused, answerable),
      recallAt5: share(found, asked),
    };
  } finally {
    await server.close();
  }
}

export function qualityLine(label, q) {
  const kinds = Object.entries(q.byKind)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
  return `${label}: accuracy ${q.accuracy} (${kinds}); no answer → no citation ${q.noAnswerUncited}; answerable refused ${q.answerableRefused}; recall@5 ${q.recallAt5}`;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(qualityLine('lexical', await answerQuality()));
  // A real endpoint, e.g. BENCH_EMBED_BASE_URL=http://127.0.0.1:11434/v1 BENCH_EMBED_MODEL=nomic-embed-text
  if (process.env.BENCH_EMBED_BASE_URL) {
    const embeddings = {
      baseUrl: process.env.BENCH_EMBED_BASE_URL,
      model: process.env.BENCH_EMBED_MODEL ?? 'nomic-embed-text',
    };
    console.log(qualityLine(`with ${embeddings.model}`, await answerQuality({ embeddings })));
  }
  if (process.env.BENCH_SWEEP) {
    for (let t = 0.3; t <= 0.81; t += 0.05) {
      const threshold = Math.round(t * 100) / 100;
      console.log(
        qualityLine(
          `threshold ${threshold.toFixed(2)}`,
          await answerQuality({ relevanceThreshold: threshold }),
        ),
      );
    }
  }
}
