import { Worker } from 'node:worker_threads';
import { builtScript } from '../util/built-script.js';
import type { PatternJob } from './pattern-worker.js';

/** How long one `matches` pattern may run on one answer before its case fails. */
export const PATTERN_TIMEOUT_MS = 1_000;

/** A pattern that ran past its time on an answer (catastrophic backtracking). */
export class PatternTimeout extends Error {}

/**
 * Tests regular expressions in a worker thread, one at a time, each with a deadline: a pattern
 * that runs past it gets its worker terminated (a new one serves the next) and rejects with
 * PatternTimeout. The worker never keeps the process alive.
 */
export class PatternMatcher {
  #worker: Worker | undefined;
  #next = 1;
  #queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly timeoutMs = PATTERN_TIMEOUT_MS) {}

  test(pattern: RegExp, text: string): Promise<boolean> {
    const run = this.#queue.then(() => this.#run(pattern, text));
    this.#queue = run.catch(() => undefined);
    return run;
  }

  #run(pattern: RegExp, text: string): Promise<boolean> {
    const worker = this.#ensure();
    const job: PatternJob = { id: this.#next++, source: pattern.source, flags: pattern.flags, text };
    return new Promise<boolean>((resolve, reject) => {
      const done = () => {
        clearTimeout(timer);
        worker.off('message', onMessage);
        worker.off('error', onError);
      };
      const onMessage = (message: { id: number; matched: boolean }) => {
        if (message.id !== job.id) return;
        done();
        resolve(message.matched);
      };
      const onError = (err: Error) => {
        done();
        this.#drop(worker);
        reject(err);
      };
      const timer = setTimeout(() => {
        done();
        this.#drop(worker);
        reject(
          new PatternTimeout(
            `${pattern} ran longer than ${this.timeoutMs / 1000} s on the answer (catastrophic backtracking?)`,
          ),
        );
      }, this.timeoutMs);
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.postMessage(job);
    });
  }

  #ensure(): Worker {
    if (this.#worker) return this.#worker;
    const worker = new Worker(builtScript('eval', 'pattern-worker.js'));
    worker.unref();
    this.#worker = worker;
    return worker;
  }

  #drop(worker: Worker): void {
    void worker.terminate();
    if (this.#worker === worker) this.#worker = undefined;
  }

  close(): void {
    if (this.#worker) this.#drop(this.#worker);
  }
}
