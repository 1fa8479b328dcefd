import type { Chunk } from '../../state/model.js';
import { formatDuration } from '../../../util/duration.js';
import { embed, EmbeddingsFailed, type EmbeddingsOptions } from './client.js';

/** Passage vectors kept between questions (a passage is asked about again and again). */
const PASSAGE_CACHE = 20_000;
/** A question's deadline (its vector and its passages'): a message waits no longer on the endpoint. */
export const QUESTION_TIMEOUT_MS = 3_000;
/** After a failure the endpoint is not asked for this long (then one call tries it again). */
export const COOL_DOWN_MS = 30_000;

export interface EmbeddingsServiceOptions extends EmbeddingsOptions {
  minSimilarity?: number;
  /** A question's deadline (default QUESTION_TIMEOUT_MS); `timeoutMs` is a document's (per request). */
  questionTimeoutMs?: number;
  /** How long a failure keeps the endpoint from being asked (default COOL_DOWN_MS). */
  coolDownMs?: number;
}

/**
 * The service's side of an embeddings endpoint: every call goes through here, so that a failing
 * endpoint is said once on the console (and its recovery once), and callers get `undefined`
 * (BM25 alone) instead of an error. A circuit breaker: after a failure, calls get `undefined` at
 * once for the cool-down; then one call at a time tries the endpoint again, the others still
 * answered at once, until one succeeds. A question's calls have a short deadline of their own.
 */
export class Embeddings {
  #failing = false;
  /** Until when calls are not made (after a failure). */
  #coolUntil = 0;
  /** A call is trying the endpoint again after the cool-down. */
  #trying = false;
  readonly #passages = new Map<string, Float32Array>();
  /** Called when the endpoint answers again after failing: what was left unembedded can be done. */
  onRecovered?: () => void;

  constructor(
    readonly options: EmbeddingsServiceOptions,
    private readonly notice: (message: string) => void = () => {},
  ) {}

  get minSimilarity(): number {
    return this.options.minSimilarity ?? 0.5;
  }

  /** One vector per chunk, or undefined when the endpoint fails. */
  chunks(chunks: Chunk[]): Promise<Float32Array[] | undefined> {
    return this.#call(
      chunks.map((c) => c.text),
      this.options.timeoutMs,
    );
  }

  async query(text: string): Promise<Float32Array | undefined> {
    return (await this.#call([text], this.#questionMs))?.[0];
  }

  get #questionMs(): number {
    return this.options.questionTimeoutMs ?? QUESTION_TIMEOUT_MS;
  }

  /** Vectors of passages, from the cache where it has them. */
  async passages(texts: string[]): Promise<(Float32Array | undefined)[]> {
    const missing = [...new Set(texts.filter((t) => !this.#passages.has(t)))];
    if (missing.length) {
      const vectors = await this.#call(missing, this.#questionMs);
      if (vectors)
        missing.forEach((t, i) => {
          if (this.#passages.size >= PASSAGE_CACHE)
            this.#passages.delete(this.#passages.keys().next().value!);
          this.#passages.set(t, vectors[i]!);
        });
    }
    return texts.map((t) => this.#passages.get(t));
  }

  async #call(texts: string[], timeoutMs: number | undefined): Promise<Float32Array[] | undefined> {
    if (texts.length === 0) return [];
    if (this.#failing && (this.#trying || Date.now() < this.#coolUntil)) return undefined;
    const trial = this.#failing;
    if (trial) this.#trying = true;
    try {
      const vectors = await embed({ ...this.options, timeoutMs }, texts);
      if (this.#failing) {
        this.#failing = false;
        this.notice(`embeddings ${this.options.baseUrl}: answering again; semantic retrieval is back`);
        this.onRecovered?.();
      }
      return vectors;
    } catch (err) {
      if (!(err instanceof EmbeddingsFailed)) throw err;
      const coolDown = this.options.coolDownMs ?? COOL_DOWN_MS;
      this.#coolUntil = Date.now() + coolDown;
      if (!this.#failing) {
        this.#failing = true;
        this.notice(
          `embeddings ${this.options.baseUrl}: ${err.message}; retrieval is BM25 alone until it answers (asked again after ${formatDuration(coolDown)})`,
        );
      }
      return undefined;
    } finally {
      if (trial) this.#trying = false;
    }
  }
}
