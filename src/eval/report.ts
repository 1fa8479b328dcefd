import type { EvalCase } from './cases.js';
import type { RunResult, TurnResult } from './run.js';

/** A case's outcome over its runs. */
export interface CaseSummary {
  name: string;
  file: string;
  line: number;
  runs: number;
  passedRuns: number;
  passRate: number;
  /** Every run passed. */
  passed: boolean;
  /** The median latency of a turn, over all runs. */
  latencyMs: number;
  /** The first failed expectation (or the service's refusal) of the first failing run. */
  firstFailure?: string;
  results: { threadId?: string; passed: boolean; error?: string; turns: TurnResult[] }[];
}

export interface EvalReport {
  cases: CaseSummary[];
  totals: {
    cases: number;
    passed: number;
    failed: number;
    runs: number;
    passedRuns: number;
    passRate: number;
    durationMs: number;
    /** Cases that did not run (Ctrl-C). */
    notRun: number;
  };
  baseline?: { regressions: string[]; fixes: string[] };
}

function median(values: number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

function firstFailure(run: RunResult): string | undefined {
  if (run.error) return `the service refused it: ${run.error}`;
  for (const [i, turn] of run.turns.entries()) {
    const failed = turn.expectations.find((e) => !e.passed);
    if (failed)
      return `${run.case.turns.length > 1 ? `turn ${i + 1}: ` : ''}${failed.kind}: ${failed.reason}`;
  }
  return undefined;
}

export function summarize(cases: EvalCase[], runs: RunResult[], durationMs: number): EvalReport {
  const summaries: CaseSummary[] = [];
  for (const c of cases) {
    const mine = runs.filter((r) => r.case === c);
    if (mine.length === 0) continue;
    const passedRuns = mine.filter((r) => r.passed).length;
    const failing = mine.find((r) => !r.passed);
    summaries.push({
      name: c.name,
      file: c.file,
      line: c.line,
      runs: mine.length,
      passedRuns,
      passRate: passedRuns / mine.length,
      passed: passedRuns === mine.length,
      latencyMs: median(mine.flatMap((r) => r.turns.map((t) => t.latencyMs))),
      firstFailure: failing && firstFailure(failing),
      results: mine.map((r) => ({ threadId: r.threadId, passed: r.passed, error: r.error, turns: r.turns })),
    });
  }
  const totalRuns = summaries.reduce((n, s) => n + s.runs, 0);
  const passedRuns = summaries.reduce((n, s) => n + s.passedRuns, 0);
  const passed = summaries.filter((s) => s.passed).length;
  return {
    cases: summaries,
    totals: {
      cases: summaries.length,
      passed,
      failed: summaries.length - passed,
      runs: totalRuns,
      passedRuns,
      passRate: totalRuns ? passedRuns / totalRuns : 0,
      durationMs: Math.round(durationMs),
      notRun: cases.length - summaries.length,
    },
  };
}

/** Regressions (passed in the baseline, fail now) and fixes (the reverse), by case name. */
export function compareWithBaseline(
  report: EvalReport,
  baseline: unknown,
): { regressions: string[]; fixes: string[] } {
  const before = new Map<string, boolean>();
  const cases = (baseline as { cases?: unknown })?.cases;
  if (Array.isArray(cases))
    for (const c of cases)
      if (c && typeof c.name === 'string' && typeof c.passed === 'boolean') before.set(c.name, c.passed);
  return {
    regressions: report.cases.filter((c) => before.get(c.name) === true && !c.passed).map((c) => c.name),
    fixes: report.cases.filter((c) => before.get(c.name) === false && c.passed).map((c) => c.name),
  };
}

function xml(text: string): string {
  return text
    .replace(/[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/gu, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

/** JUnit XML, as CI systems read it: one testcase per case, a failure with the reason and the answer. */
export function junit(report: EvalReport): string {
  const seconds = (ms: number) => (ms / 1000).toFixed(3);
  const testcases = report.cases.map((c) => {
    const time = seconds(c.results.reduce((n, r) => n + r.turns.reduce((m, t) => m + t.latencyMs, 0), 0));
    const open = `    <testcase name="${xml(c.name)}" classname="${xml(c.file)}" time="${time}"`;
    const threads = c.results
      .map((r) => r.threadId)
      .filter(Boolean)
      .join(' ');
    const out = threads ? `\n      <system-out>${xml(`threads: ${threads}`)}</system-out>` : '';
    if (c.passed) return `${open}>${out}\n    </testcase>`;
    const failing = c.results.find((r) => !r.passed);
    const answers = failing?.turns.map((t) => `Q: ${t.question}\nA: ${t.answer}`).join('\n\n') ?? '';
    const message = `${c.firstFailure ?? 'failed'}${c.runs > 1 ? ` (passed ${c.passedRuns} of ${c.runs} runs)` : ''}`;
    return `${open}>\n      <failure message="${xml(message)}">${xml(answers)}</failure>${out}\n    </testcase>`;
  });
  const { totals } = report;
  return `<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="kb eval" tests="${totals.cases}" failures="${totals.failed}" time="${seconds(totals.durationMs)}">
  <testsuite name="kb eval" tests="${totals.cases}" failures="${totals.failed}" errors="0" skipped="0" time="${seconds(totals.durationMs)}">
${testcases.join('\n')}
  </testsuite>
</testsuites>
`;
}
