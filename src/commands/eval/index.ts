import { Command, InvalidArgumentError } from 'commander';
import { CliError, ExitCode, Interrupted, UsageError } from '../../errors.js';
import { type EvalCase, parseCases } from '../../eval/cases.js';
import { compareWithBaseline, type EvalReport, junit, summarize } from '../../eval/report.js';
import { runCases } from '../../eval/run.js';
import { Context } from '../../factory.js';
import { formatDuration } from '../../util/duration.js';
import { ReportFile } from '../../util/report-file.js';
import { readUserFile } from '../../util/user-file.js';
import { sanitizeField, sanitizeText } from '../../util/sanitize.js';
import { integer, parsePositiveInt } from '../shared/options.js';

export interface EvalOptions {
  concurrency: number;
  repeat: number;
  filter?: string;
  junit?: string;
  baseline?: string;
  maxFailures?: number;
  minPassRate?: number;
  cleanup?: boolean;
}

/** A 429 storm is survived by waiting (Retry-After), not by failing cases: more retries than other commands. */
const EVAL_RETRIES = 8;

function passRate(value: string): number {
  const percent = value.trim().endsWith('%');
  const n = Number(percent ? value.trim().slice(0, -1) : value);
  const rate = percent ? n / 100 : n;
  if (!Number.isFinite(rate) || rate < 0 || rate > 1)
    throw new InvalidArgumentError('expected a rate from 0 to 1, or a percentage such as 90%');
  return rate;
}

export default function evalCommand(run = runEval): Command {
  return new Command('eval')
    .description("Regression tests for the assistant's answers: run cases, report which pass")
    .argument('<file...>', 'cases files: YAML or JSON ({cases: [...]}) or JSONL (one case per line)')
    .option('-c, --concurrency <n>', 'cases run at once', parsePositiveInt, 4)
    .option('--repeat <n>', 'run each case n times and report its pass rate', parsePositiveInt, 1)
    .option('--filter <text>', 'only cases whose name or question contains this (any case)')
    .option('--junit <file>', 'also write a JUnit XML report, for CI systems to display')
    .option('--cleanup', 'archive the threads the run made once it is reported')
    .option('--baseline <file>', 'compare with a previous --json result: list regressions and fixes')
    .option('--max-failures <n>', 'exit 0 with up to n failed cases', integer())
    .option('--min-pass-rate <rate>', 'exit 0 when at least this share of runs pass (0.9 or 90%)', passRate)
    .addHelpText(
      'after',
      `
A case asks a question in a new thread titled "eval: <name>" and checks the answer:

  cases:
    - name: Growth price
      question: How much is the Growth plan?
      expect:
        contains: 29 dollars          # or a list; icontains ignores case
        notContains: [Starter]
        matches: /\\b29\\b/             # a regular expression
        sources: [pricing.md]         # files the reply must cite
        maxMs: 5000                   # latency bound
    - name: Follow-up
      turns:                          # several questions in one thread
        - question: How much is the Growth plan?
          expect: { icontains: growth }
        - question: And Enterprise?
          expect: { contains: custom pricing }
    - question: What does error E-4102 mean?
      assert:                         # promptfoo-style: contains, icontains, not-contains,
        - type: icontains             # contains-any, contains-all, regex, latency
          value: imap

A \`matches\` pattern runs at most 1 s on an answer (longer fails its case, e.g. /^(a+)+$/).
An invalid file, or a --junit path that cannot be written, exits 2 before any request. Exit 0 when every case passes,
1 when one fails (relaxed by --max-failures and --min-pass-rate), 130 on Ctrl-C with what
finished reported. On a terminal a progress bar, then a table; piped, tab-separated rows
(case, passed|failed, ms, first failure); --json one document with every answer.

Examples:
  $ kb eval examples/demo.eval.yaml
  $ kb eval cases.yaml --concurrency 8 --junit report.xml
  $ kb eval cases.yaml --json > today.json && kb eval cases.yaml --baseline today.json
  $ kb eval cases.jsonl --repeat 5 --min-pass-rate 90%
  $ kb eval cases.yaml --cleanup          # archive the eval: threads afterwards`,
    )
    .action((files: string[], opts: EvalOptions, cmd: Command) => run(Context.for(cmd), files, opts));
}

/** Every case of every file, checked before anything is sent. */
function loadCases(files: string[]): EvalCase[] {
  return files.flatMap((file) => {
    return parseCases(file, readUserFile(file, 'cases file').toString('utf8'));
  });
}

function readBaseline(file: string): unknown {
  try {
    return JSON.parse(readUserFile(file, '--baseline').toString('utf8'));
  } catch (err) {
    throw new UsageError(`--baseline ${file} is not a kb eval --json result: ${(err as Error).message}`);
  }
}

export async function runEval(ctx: Context, files: string[], opts: EvalOptions): Promise<void> {
  const { io } = ctx;
  const needle = opts.filter?.toLowerCase();
  const all = loadCases(files);
  const cases = needle
    ? all.filter(
        (c) =>
          c.name.toLowerCase().includes(needle) ||
          c.turns.some((t) => t.question.toLowerCase().includes(needle)),
      )
    : all;
  if (cases.length === 0)
    throw new UsageError(`no case matches --filter "${sanitizeField(opts.filter ?? '')}"`);
  const baseline = opts.baseline === undefined ? undefined : readBaseline(opts.baseline);
  const junitFile = opts.junit === undefined ? undefined : ReportFile.check(opts.junit, 'the JUnit report');
  const client = await ctx.client({ maxRetries: ctx.maxRetriesOr(EVAL_RETRIES) });

  const interrupt = new AbortController();
  const release = ctx.signals.trap(() => interrupt.abort());
  const progress = io.showProgress ? progressBar(ctx) : undefined;
  const started = performance.now();
  let report: EvalReport;
  try {
    const runs = await runCases(cases, {
      client,
      concurrency: opts.concurrency,
      repeat: opts.repeat,
      signal: AbortSignal.any([interrupt.signal, ctx.signal]),
      onResult: (result, done, total) => progress?.update(done, total, result.passed),
    });
    report = summarize(cases, runs, performance.now() - started);
  } finally {
    progress?.end();
    release();
  }
  if (baseline !== undefined) report.baseline = compareWithBaseline(report, baseline);
  await print(ctx, report, opts.repeat > 1);
  junitFile?.write(junit(report));
  if (opts.cleanup) await archiveThreads(ctx, client, report);

  const { totals } = report;
  if (interrupt.signal.aborted)
    throw new Interrupted(false, `interrupted: ${totals.cases} of ${cases.length} cases ran`);
  const tooManyFailures =
    totals.failed > (opts.maxFailures ?? (opts.minPassRate === undefined ? 0 : Infinity));
  const rateTooLow = opts.minPassRate !== undefined && totals.passRate < opts.minPassRate;
  if (tooManyFailures || rateTooLow)
    throw new CliError(
      `${totals.failed} of ${totals.cases} case${totals.cases === 1 ? '' : 's'} failed${rateTooLow ? ` (pass rate ${percent(totals.passRate)}, below ${percent(opts.minPassRate!)})` : ''}`,
      ExitCode.failure,
      undefined,
      'eval_failed',
    );
}

const percent = (rate: number) => `${Math.round(rate * 1000) / 10}%`;

/** People: a table and a summary; scripts: tab-separated rows, or the whole report with --json. */
async function print(ctx: Context, report: EvalReport, repeated: boolean): Promise<void> {
  const { io } = ctx;
  if (ctx.format !== 'human') {
    ctx.output.record(report, []);
    return;
  }
  await ctx.output.list(report.cases, [
    { header: 'CASE', value: (c) => c.name, flex: true },
    {
      header: 'RESULT',
      value: (c) =>
        io.stdoutIsTTY
          ? `${c.passed ? '✓' : '✗'}${repeated ? ` ${c.passedRuns}/${c.runs}` : ''}`
          : c.passed
            ? 'passed'
            : 'failed',
      style: (s, c) => (c.passed ? io.color.green(s) : io.color.red(s)),
    },
    { header: 'LATENCY', value: (c) => (io.stdoutIsTTY ? formatDuration(c.latencyMs) : c.latencyMs) },
    { header: 'FIRST FAILURE', value: (c) => c.firstFailure ?? '', flex: 'first' },
  ]);
  if (io.stdoutIsTTY) showFailures(ctx, report);
  const { totals } = report;
  const color = totals.failed ? io.errColor.red : io.errColor.green;
  io.err(
    `${color(`${totals.passed} of ${totals.cases} cases passed`)}${repeated ? ` · ${totals.passedRuns} of ${totals.runs} runs (${percent(totals.passRate)})` : ''} · ${(totals.durationMs / 1000).toFixed(1)} s${totals.notRun ? io.errColor.yellow(` · ${totals.notRun} not run`) : ''}\n`,
  );
  for (const name of report.baseline?.regressions ?? [])
    io.err(`${io.errColor.red('regressed:')} ${sanitizeField(name)}\n`);
  for (const name of report.baseline?.fixes ?? [])
    io.err(`${io.errColor.green('fixed:')} ${sanitizeField(name)}\n`);
}

/** Lines of an answer shown under a failed case. */
const ANSWER_LINES = 4;

/** On a terminal, under the table: each failed case's question, answer (cut) and thread, to look into. */
function showFailures(ctx: Context, report: EvalReport): void {
  const { io } = ctx;
  for (const c of report.cases) {
    if (c.passed) continue;
    const run = c.results.find((r) => !r.passed);
    if (!run) continue;
    const thread = run.threadId ? io.color.dim(` · thread ${sanitizeField(run.threadId)}`) : '';
    const lines = [`\n${io.color.red('✗')} ${io.color.bold(sanitizeField(c.name))}${thread}`];
    const turn = run.turns.find((t) => !t.passed) ?? run.turns.at(-1);
    if (turn) {
      lines.push(`  Q: ${sanitizeField(turn.question)}`);
      const answer = sanitizeText(turn.answer).split('\n');
      const shown = answer.slice(0, ANSWER_LINES).map((l) => (l.length > 200 ? `${l.slice(0, 199)}…` : l));
      lines.push(`  A: ${shown.join('\n     ')}`);
      if (answer.length > ANSWER_LINES)
        lines.push(io.color.dim(`     … ${answer.length - ANSWER_LINES} more lines`));
    }
    if (c.firstFailure) lines.push(`  ${io.color.red(sanitizeField(c.firstFailure))}`);
    ctx.output.text(`${lines.join('\n')}\n`);
  }
}

/** --cleanup: every thread the run made, archived (the interface has no thread deletion). */
async function archiveThreads(
  ctx: Context,
  client: { threads: { update(id: string, changes: { status: string }): Promise<unknown> } },
  report: EvalReport,
): Promise<void> {
  const ids = report.cases
    .flatMap((c) => c.results.map((r) => r.threadId))
    .filter((id): id is string => !!id);
  let failed = 0;
  for (const id of ids) {
    try {
      await client.threads.update(id, { status: 'ARCHIVED' });
    } catch (err) {
      failed++;
      ctx.warn(`could not archive ${sanitizeField(id)}: ${sanitizeField((err as Error).message)}`);
    }
  }
  ctx.io.err(`archived ${ids.length - failed} of ${ids.length} eval thread${ids.length === 1 ? '' : 's'}\n`);
}

/** `[██████░░░░] 12/40 · 3 failed` on stderr, redrawn in place. */
function progressBar(ctx: Context) {
  const { io } = ctx;
  let failed = 0;
  return {
    update(done: number, total: number, passed: boolean) {
      if (!passed) failed++;
      const width = 24;
      const filled = Math.round((done / total) * width);
      const bar = `${'█'.repeat(filled)}${'░'.repeat(width - filled)}`;
      io.err(
        `\r\u001b[2K${io.errColor.cyan(bar)} ${done}/${total}${failed ? io.errColor.red(` · ${failed} failed`) : ''}`,
      );
    },
    end() {
      io.err('\r\u001b[2K');
    },
  };
}
