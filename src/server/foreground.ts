/**
 * Requests being handled: background work on the event loop (indexing's stores, see
 * StoreTurns) waits for them, a while at most, so that a request does not queue behind it.
 * A handler is counted until it returns its response (a stream's body is not waited for).
 */
/**
 * After a response, background work waits this long for the next request: a client in the
 * same process as kb serve (bench:scale's) sent it 1-3 ms later, after a store had started.
 */
const GRACE_MS = 5;

export class Foreground {
  #handling = 0;
  #lastEnded = -Infinity;

  /** Handling a request, or answered one just now (a client's next request tends to follow). */
  get busy(): boolean {
    return this.#handling > 0 || performance.now() - this.#lastEnded < GRACE_MS;
  }

  async handle<T>(work: () => Promise<T>): Promise<T> {
    this.#handling++;
    try {
      return await work();
    } finally {
      this.#handling--;
      this.#lastEnded = performance.now();
    }
  }
}
