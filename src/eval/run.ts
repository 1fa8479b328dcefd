import {
  AbortedError,
  AuthenticationError,
  ConnectionError,
  PermissionDeniedError,
  RateLimitError,
  ServerError,
  TimeoutError,
} from '../api/errors.js';
import { citedSources, type Exchange, type Thread } from '../api/types.js';
import type { EvalCase } from './cases.js';
import { evaluate, type ExpectationResult } from './expectations.js';

/** What the runner needs from the client. */
export interface EvalClient {
  threads: {
    create(params: { title?: string }, signal?: AbortSignal): Promise<Thread>;
    send(id: string, content: string, signal?: AbortSignal): Promise<Exchange>;
  };
}

export interface TurnResult {
  question: string;
  answer: string;
  sources: string[];
  latencyMs: number;
  expectations: ExpectationResult[];
  passed: boolean;
}

/** One run of a case (a case runs `repeat` times). */
export interface RunResult {
  case: EvalCase;
  repetition: number;
  threadId?: string;
  turns: TurnResult[];
  passed: boolean;
  /** The service refused this case (e.g. 422): the case fails with this reason. */
  error?: string;
}

/** Errors that stop the whole run: no later case could do better (a refused key, no service). */
export function fatal(err: unknown): boolean {
  return (
    err instanceof AuthenticationError ||
    err instanceof PermissionDeniedError ||
    err instanceof ConnectionError ||
    err instanceof TimeoutError ||
    err instanceof ServerError ||
    err instanceof RateLimitError ||
    err instanceof AbortedError
  );
}

const now = () => performance.now();

/** Runs one case in a new thread titled `eval: <name>`, turn after turn. */
async function runOne(
  client: EvalClient,
  c: EvalCase,
  repetition: number,
  signal: AbortSignal,
): Promise<RunResult> {
  const result: RunResult = { case: c, repetition, turns: [], passed: false };
  try {
    const thread = await client.threads.create({ title: `eval: ${c.name}`.slice(0, 200) }, signal);
    result.threadId = thread.id;
    for (const turn of c.turns) {
      const started = now();
      const exchange = await client.threads.send(thread.id, turn.question, signal);
      const latencyMs = now() - started;
      const reply = exchange.aiResponse;
      const observed = {
        answer: String(reply?.content ?? ''),
        sources: citedSources(reply),
        latencyMs,
      };
      const expectations = await evaluate(turn.expectations, observed);
      result.turns.push({
        question: turn.question,
        ...observed,
        latencyMs: Math.round(latencyMs),
        expectations,
        passed: expectations.every((e) => e.passed),
      });
    }
    result.passed = result.turns.every((t) => t.passed);
  } catch (err) {
    if (fatal(err)) throw err;
    result.error = (err as Error).message;
  }
  return result;
}

export interface RunOptions {
  client: EvalClient;
  concurrency: number;
  repeat: number;
  signal: AbortSignal;
  /** Called as each run finishes (for progress). */
  onResult?: (result: RunResult, done: number, total: number) => void;
}

/**
 * Runs every case `repeat` times, `concurrency` at a time. Resolves with the runs that finished,
 * in case order; Ctrl-C (the signal) stops starting new ones and ends those in flight. A fatal
 * error (see `fatal`) stops the run and is thrown once the others have ended.
 */
export async function runCases(cases: EvalCase[], options: RunOptions): Promise<RunResult[]> {
  const jobs = cases.flatMap((c) => Array.from({ length: options.repeat }, (_, r) => ({ c, r })));
  const results: (RunResult | undefined)[] = new Array(jobs.length);
  let next = 0;
  let done = 0;
  let failure: unknown;
  const stop = new AbortController();
  const signal = AbortSignal.any([options.signal, stop.signal]);
  async function worker() {
    while (next < jobs.length && !signal.aborted) {
      const index = next++;
      const { c, r } = jobs[index]!;
      try {
        results[index] = await runOne(options.client, c, r, signal);
        options.onResult?.(results[index]!, ++done, jobs.length);
      } catch (err) {
        if (!(err instanceof AbortedError) || !options.signal.aborted) failure ??= err;
        stop.abort();
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(options.concurrency, jobs.length) }, worker));
  if (failure && !options.signal.aborted) throw failure;
  return results.filter((r): r is RunResult => r !== undefined);
}
