import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { cacheDir } from '../../bench/real/fetch.js';
import { KINDS, loadQuestions } from '../../bench/real/questions.js';
import { ROOT, tempDir } from '../helpers/cli.js';

/** Runs a bench script with `env` added; its exit code and output. */
async function runBench(script: string, args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, [join(ROOT, script), ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const code = await new Promise((resolve) => child.on('close', resolve));
  return { code, stdout, stderr };
}

// npm run bench is not a test (timings are reported, not asserted); this keeps it working.
describe('npm run bench', () => {
  it('measures every scenario and writes them as JSON', async () => {
    const out = join(tempDir(), 'results.json');
    const { code, stdout, stderr } = await runBench('bench/run.js', [], {
      BENCH_RUNS: '1',
      BENCH_WARMUP: '0',
      BENCH_DOCS: '50',
      BENCH_SCALE: '300',
      BENCH_PDFS: '2',
      BENCH_SCAN_PAGES: '1',
      BENCH_LIST_FILES: '500',
      BENCH_OUT: out,
    });
    expect(code, stderr).toBe(0);

    const results = JSON.parse(readFileSync(out, 'utf8'));
    expect(results.scenarios.map((s: { command: string }) => s.command)).toEqual([
      'kb --version',
      'kb --help',
      'kb threads list --json',
      'kb files list --json',
      'kb threads list --json',
      expect.stringMatching(/^kb threads send thr_\w+ /),
      'kb chat',
      expect.stringMatching(/^kb webhooks verify --header /),
      'kb files list --jsonl --limit 100',
    ]);
    // The report is what was measured: each ratio is its median over the baseline's, each
    // scenario is in the printed table, and the service figures are ordered as percentiles are.
    for (const s of results.scenarios) {
      expect(s.ratio).toBeCloseTo(s.medianMs / s.baselineMedianMs, 1);
      expect(s.p90Ms).toBeGreaterThanOrEqual(s.medianMs);
      expect(stdout).toContain(s.name);
    }
    expect(results.repl).toMatchObject({ turns: 100, clientMsPerTurn: expect.any(Number) });
    expect(stdout).toContain(`kb chat on a terminal: prompt after ${results.chatPrompt.medianMs} ms`);
    expect(stdout).toContain(`kb chat -c after ${results.chatPrompt.continueMedianMs} ms`);
    expect(results.chatPrompt.continueRatio).toBeCloseTo(
      results.chatPrompt.continueMedianMs / results.chatPrompt.medianMs,
      1,
    );
    expect(results.eval).toMatchObject({ cases: 100 });
    expect(results.streaming.sendAllMs).toBeGreaterThan(results.streaming.sendFirstTextMs);
    expect(stdout).toContain(
      `kb threads send --stream shows its first text after ${results.streaming.sendFirstTextMs} ms`,
    );
    // A streamed reply drawn as Markdown: the cost of each piece.
    expect(results.streamRender).toMatchObject({ pieceSize: 5, meanMs: expect.any(Number) });
    expect(results.streamRender.words).toBeGreaterThanOrEqual(2000);
    expect(stdout).toContain(
      `in ${results.streamRender.pieces} pieces of 5 characters: ${results.streamRender.meanMs} ms per piece on average`,
    );
    expect(stdout).toContain(
      `kb eval: 100 cases in ${results.eval.wallMs} ms at --concurrency 4 (${results.eval.serialWallMs} ms one at a time); the client's overhead ${results.eval.clientMsPerCase} ms per case`,
    );
    expect(results.service).toMatchObject({ documents: 50, indexAllMs: expect.any(Number) });
    expect(results.service.messageP95Ms).toBeGreaterThanOrEqual(results.service.messageP50Ms);
    // A list of every file, a page at a time.
    expect(results.largeList).toMatchObject({
      files: 500,
      medianMs: expect.any(Number),
      peakRssMb: expect.any(Number),
    });
    expect(stdout).toContain(`kb files list --all --jsonl of 500 files: ${results.largeList.medianMs} ms`);
    // PDFs dropped into --docs: the 100-page one searchable, messages answered while two more are read.
    expect(results.documents).toMatchObject({
      pdfPages: 100,
      pdfsExtracted: 2,
      pdfIndexedMs: expect.any(Number),
    });
    expect(results.documents.messagesWhileExtracting).toBeGreaterThan(0);
    expect(stdout).toContain(
      `searchable ${results.documents.pdfIndexedMs} ms after it was written to --docs`,
    );
    // A scanned PDF read by OCR from the write to searchable, messages answered meanwhile.
    expect(results.scans).toMatchObject({
      scanPages: 1,
      scanStatus: 'COMPLETED',
      ocr: { pages: 1, meanConfidence: expect.any(Number) },
    });
    expect(results.scans.messagesWhileReading).toBeGreaterThan(0);
    expect(stdout).toContain(
      `kB, no text layer) COMPLETED ${results.scans.scanIndexedMs} ms after it was written to --docs`,
    );
    // The scale curve: one row per size, a restart that indexes nothing again and answers, an
    // upload measured while small requests ran, the right documents found, and the table printed.
    expect(results.scale.map((r: { documents: number }) => r.documents)).toEqual([300]);
    for (const row of results.scale) {
      expect(row).toMatchObject({ restartIndexed: 0, recallAt5: expect.any(Number) });
      expect(row.recallAt5).toBeGreaterThanOrEqual(0.95);
      expect(row.messageP95Ms).toBeGreaterThanOrEqual(row.messageP50Ms);
      expect(row.restartFirstAnswerMs).toBeGreaterThan(0);
      expect(row.peakRssMb).toBeGreaterThanOrEqual(row.rssMb);
      expect(row.requestsDuringUpload).toBeGreaterThan(0);
      expect(row.uploadSettledStallMs).toBeGreaterThanOrEqual(row.uploadStallMs);
      expect(stdout).toMatch(
        new RegExp(`\\n${row.documents} +${row.megabytes} +${(row.indexMs / 1000).toFixed(1)} s`),
      );
    }
  }, 240_000);
});

describe('npm run bench:scale with phases left out', () => {
  it('still names the corpus (documents, text MB) in each row', async () => {
    const out = join(tempDir(), 'scale.json');
    const { code, stdout, stderr } = await runBench('bench/scale.js', ['200'], {
      BENCH_SCALE_PHASES: 'indexing',
      BENCH_SCALE_OUT: out,
    });
    expect(code, stderr).toBe(0);
    const [row] = JSON.parse(readFileSync(out, 'utf8')).rows;
    expect(row).toMatchObject({ documents: 200, megabytes: expect.any(Number) });
    expect(stdout).toMatch(new RegExp(`\\n200 +${row.megabytes} +not measured`));
    expect(stdout).not.toContain('undefined');
  }, 120_000);
});

// The labelled questions of bench:real and bench:heldout load without a skipped one; their files
// are checked against the corpus when it is built here (its MANIFEST.json), else only their form.
describe('bench/real question files', () => {
  const load = (file: string, corpus: string) => {
    const path = join(ROOT, 'bench', 'real', file);
    const manifest = join(cacheDir(), ...(corpus === 'default' ? [] : [corpus]), 'MANIFEST.json');
    // Without a built corpus, every file a question names stands in for it.
    const named = (entry: { file?: string | string[]; turns?: unknown[] }): string[] => [
      ...[entry.file ?? []].flat(),
      ...(entry.turns ?? []).flatMap((t) => named(t as typeof entry)),
    ];
    const documents: string[] = existsSync(manifest)
      ? Object.keys(JSON.parse(readFileSync(manifest, 'utf8')).files)
      : parseYaml(readFileSync(path, 'utf8')).questions.flatMap(named);
    return loadQuestions([path], documents);
  };

  it('heldout.yaml: at least 60 questions of every kind, 12 of them with no answer', () => {
    const { questions, skipped } = load('heldout.yaml', 'heldout');
    expect(skipped).toEqual([]);
    expect(questions.length).toBeGreaterThanOrEqual(60);
    for (const kind of KINDS)
      expect(
        questions.some((q) => q.kind === kind),
        kind,
      ).toBe(true);
    expect(questions.filter((q) => q.kind === 'no-answer').length).toBeGreaterThanOrEqual(12);
    // A PDF is labelled with its page, so that a citation of the wrong page does not count.
    for (const q of questions)
      for (const t of q.turns)
        if (t.file.some((f) => f.endsWith('.pdf'))) expect(t.page, q.id).not.toEqual([]);
  });

  it('questions.yaml loads as before', () => {
    const { questions, skipped } = load('questions.yaml', 'default');
    expect(skipped).toEqual([]);
    expect(questions.length).toBe(177);
  });

  it('an unknown BENCH_REAL_CORPUS is named, before anything is built', async () => {
    const { code, stderr } = await runBench('bench/real/run.js', [], { BENCH_REAL_CORPUS: 'nope' });
    expect(code).toBe(1);
    expect(stderr).toContain('unknown BENCH_REAL_CORPUS=nope (default or heldout)');
  });
});
