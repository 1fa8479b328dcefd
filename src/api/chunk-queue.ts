/** What a queue can ask of its producer: stop and start sending (undici's DispatchController). */
export interface Flow {
  pause(): void;
  resume(): void;
}

/** Chunks held before the producer is paused; it resumes once the reader has taken half. */
const HIGH_WATER = 32;

/**
 * A response body read as it arrives, as an async iterable: undici's dispatch interface
 * pushes chunks, the reader pulls them. The producer is paused while the reader is behind, so
 * a slow reader holds at most HIGH_WATER chunks. Stopping early (break) calls `onReturn`.
 */
export class ChunkQueue implements AsyncIterable<Buffer> {
  readonly #chunks: Buffer[] = [];
  #flow: Flow | undefined;
  #paused = false;
  #ended = false;
  #error: unknown;
  #wake: (() => void) | undefined;

  constructor(private readonly onReturn: () => void) {}

  setFlow(flow: Flow): void {
    this.#flow = flow;
  }

  push(chunk: Buffer): void {
    this.#chunks.push(chunk);
    if (this.#chunks.length >= HIGH_WATER && !this.#paused) {
      this.#paused = true;
      this.#flow?.pause();
    }
    this.#wake?.();
  }

  /** The end of the body, or why it broke; the first end counts. */
  end(error?: unknown): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#error = error;
    this.#wake?.();
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<Buffer> {
    try {
      for (;;) {
        const chunk = this.#chunks.shift();
        if (chunk) {
          if (this.#paused && this.#chunks.length <= HIGH_WATER / 2) {
            this.#paused = false;
            this.#flow?.resume();
          }
          yield chunk;
          continue;
        }
        if (this.#ended) {
          if (this.#error) throw this.#error;
          return;
        }
        await new Promise<void>((resolve) => (this.#wake = resolve));
        this.#wake = undefined;
      }
    } finally {
      if (!this.#ended) this.onReturn();
    }
  }
}
