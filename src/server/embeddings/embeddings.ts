import type { Chunk } from '../model.js';
import { embed, EmbeddingsFailed, type EmbeddingsOptions } from './client.js';

/** Passage vectors kept between questions (a passage is asked about again and again). */
const PASSAGE_CACHE = 20_000;

/**
 * The service's side of an embeddings endpoint: every call goes through here, so that a failing
 * endpoint is said once on the console (and its recovery once), and callers get `undefined`
 * (BM25 alone) instead of an error.
 */
export class Embeddings {
  #failing = false;
  readonly #passages = new Map<string, Float32Array>();
  /** Called when the endpoint answers again after failing: what was left unembedded can be done. */
  onRecovered?: () => void;

  constructor(
    readonly options: EmbeddingsOptions & { minSimilarity?: number },
    private readonly notice: (message: string) => void = () => {},
  ) {}

  get minSimilarity(): number {
    return this.options.minSimilarity ?? 0.5;
  }

  /** One vector per chunk, or undefined when the endpoint fails. */
  chunks(chunks: Chunk[]): Promise<Float32Array[] | undefined> {
    return this.#call(chunks.map((c) => c.text));
  }

  async query(text: string): Promise<Float32Array | undefined> {
    return (await this.#call([text]))?.[0];
  }

  /** Vectors of passages, from the cache where it has them. */
  async passages(texts: string[]): Promise<(Float32Array | undefined)[]> {
    const missing = [...new Set(texts.filter((t) => !this.#passages.has(t)))];
    if (missing.length) {
      const vectors = await this.#call(missing);
      if (vectors)
        missing.forEach((t, i) => {
          if (this.#passages.size >= PASSAGE_CACHE)
            this.#passages.delete(this.#passages.keys().next().value!);
          this.#passages.set(t, vectors[i]!);
        });
    }
    return texts.map((t) => this.#passages.get(t));
  }

  async #call(texts: string[]): Promise<Float32Array[] | undefined> {
    if (texts.length === 0) return [];
    try {
      const vectors = await embed(this.options, texts);
      if (this.#failing) {
        this.#failing = false;
        this.notice(`embeddings ${this.options.baseUrl}: answering again; semantic retrieval is back`);
        this.onRecovered?.();
      }
      return vectors;
    } catch (err) {
      if (!(err instanceof EmbeddingsFailed)) throw err;
      if (!this.#failing) {
        this.#failing = true;
        this.notice(
          `embeddings ${this.options.baseUrl}: ${err.message}; retrieval is BM25 alone until it answers`,
        );
      }
      return undefined;
    }
  }
}
