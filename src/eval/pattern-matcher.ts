import { Worker } from 'node:worker_threads';
import { builtScript } from '../util/built-script.js';
import type { PatternJob } from './pattern-worker.js';

/** How long one `matches` pattern may run on one answer before its case fails. */
export const PATTERN_TIMEOUT_MS = 1_000;

/** A pattern that ran past its time on an answer (catastrophic backtracking). */
export class PatternTimeout extends Error {}

interface Started {
  worker: Worker;
  online: Promise<void>;
}

/**
 * Tests regular expressions in a worker thread, one at a time, each with a deadline: a pattern
 * that runs past it gets its worker terminated (a new one serves the next) and rejects with
 * PatternTimeout. The deadline starts once the worker is running, so a slow start on a busy
 * machine is not taken for backtracking. The worker never keeps the process alive.
 */
export class PatternMatcher {
  #started: Started | undefined;
  #next = 1;
  #queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly timeoutMs = PATTERN_TIMEOUT_MS) {}

  test(pattern: RegExp, text: string): Promise<boolean> {
    const run = this.#queue.then(() => this.#run(pattern, text));
    this.#queue = run.catch(() => undefined);
    return run;
  }

  async #run(pattern: RegExp, text: string): Promise<boolean> {
    const { worker, online } = this.#ensure();
    await online;
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

  #ensure(): Started {
    if (this.#started) return this.#started;
    const worker = new Worker(builtScript('eval', 'pattern-worker.js'));
    worker.unref();
    const online = new Promise<void>((resolve, reject) => {
      worker.once('message', resolve); // the worker's first message says it is listening
      worker.once('error', (err) => {
        this.#drop(worker);
        reject(err);
      });
    });
    online.catch(() => undefined);
    this.#started = { worker, online };
    return this.#started;
  }

  #drop(worker: Worker): void {
    void worker.terminate();
    if (this.#started?.worker === worker) this.#started = undefined;
  }

  close(): void {
    if (this.#started) this.#drop(this.#started.worker);
  }
}
