// The labelled questions of bench/real/run.js: read from YAML and checked. Format: bench/real/README.md.
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';

export const KINDS = ['keyword', 'paraphrase', 'table', 'identifier', 'follow-up', 'no-answer'];

const list = (v) => (v === undefined || v === null ? [] : Array.isArray(v) ? v : [v]);

/** A labelled turn: the question, the files (and PDF pages) that answer, texts the answer must hold. */
function turnOf(entry) {
  return {
    question: String(entry.question ?? '').trim(),
    file: list(entry.file).map(String),
    page: list(entry.page).map(Number),
    expect: list(entry.expect).map(String),
  };
}

/**
 * Every question of the files, checked: a malformed one (no file or expect, a file not in the
 * corpus, an unknown kind, an id used twice) is left out and named in `skipped`.
 */
export function loadQuestions(files, corpusFiles) {
  const inCorpus = new Set(corpusFiles);
  const seen = new Set();
  const questions = [];
  const skipped = [];
  for (const path of files) {
    const doc = parseYaml(readFileSync(path, 'utf8'));
    for (const entry of doc?.questions ?? []) {
      const id = String(entry.id ?? '');
      const kind = String(entry.kind ?? '');
      const turns = kind === 'follow-up' ? list(entry.turns).map(turnOf) : [turnOf(entry)];
      const problems = [];
      if (!id) problems.push('no id');
      else if (seen.has(id)) problems.push('id used twice');
      if (!KINDS.includes(kind)) problems.push(`unknown kind "${kind}"`);
      if (kind === 'follow-up' && turns.length < 2) problems.push('a follow-up needs two turns or more');
      for (const t of turns) {
        if (!t.question) problems.push('a turn without a question');
        if (kind === 'no-answer') continue;
        if (!t.file.length) problems.push('no file');
        if (!t.expect.length) problems.push('no expect');
        for (const f of t.file) if (!inCorpus.has(f)) problems.push(`${f} is not in the corpus`);
        if (t.page.some((p) => !Number.isInteger(p) || p < 1)) problems.push('page is not a page number');
      }
      if (problems.length) {
        skipped.push(`${id || '(no id)'} in ${path}: ${problems.join('; ')}`);
        continue;
      }
      seen.add(id);
      // `tuned: true`: kb was changed on this question's documents (see heldout.yaml); read apart.
      questions.push({ id, kind, source: path, turns, ...(entry.tuned === true && { tuned: true }) });
    }
  }
  return { questions, skipped };
}
