/** An OpenAI-compatible embeddings endpoint (`POST {baseUrl}/embeddings`): ollama, llama.cpp, vLLM, OpenAI. */
export interface EmbeddingsOptions {
  baseUrl: string;
  model: string;
  apiKey?: string;
  /** Inputs per request (default 64). */
  batchSize?: number;
  /** One request's deadline (default 60 s). */
  timeoutMs?: number;
}

/** The endpoint could not embed: why, in a few words (for the console). */
export class EmbeddingsFailed extends Error {}

/** A response larger than this is refused (64 inputs of 4,096 dimensions as JSON take ~6 MB). */
const MAX_BODY = 64 * 1024 * 1024;
/** An input longer than this is cut: every endpoint has a context limit, and a chunk is ~800 characters. */
const MAX_INPUT = 8_000;
const MAX_DIMENSIONS = 16_384;

/**
 * Unit vectors for `texts`, in order, asked for in batches. Bounded: a deadline per request,
 * the body capped, every vector checked (numbers, one length for all). Throws EmbeddingsFailed.
 */
export async function embed(options: EmbeddingsOptions, texts: string[]): Promise<Float32Array[]> {
  const out: Float32Array[] = [];
  const size = options.batchSize ?? 64;
  for (let at = 0; at < texts.length; at += size) {
    const batch = texts.slice(at, at + size).map((t) => t.slice(0, MAX_INPUT));
    for (const vector of await embedBatch(options, batch)) {
      if (out.length && vector.length !== out[0]!.length)
        throw new EmbeddingsFailed(`vectors of ${vector.length} and ${out[0]!.length} dimensions`);
      out.push(vector);
    }
  }
  return out;
}

async function embedBatch(options: EmbeddingsOptions, input: string[]): Promise<Float32Array[]> {
  const controller = new AbortController();
  const ms = options.timeoutMs ?? 60_000;
  const timer = setTimeout(() => controller.abort(), ms);
  try {
    let response: Response;
    try {
      response = await fetch(`${options.baseUrl.replace(/\/+$/, '')}/embeddings`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}),
        },
        body: JSON.stringify({ model: options.model, input }),
        signal: controller.signal,
      });
    } catch (err) {
      throw new EmbeddingsFailed(
        controller.signal.aborted ? `no answer within ${ms / 1000} s` : reasonOf(err),
      );
    }
    if (!response.ok) {
      void response.body?.cancel().catch(() => {});
      throw new EmbeddingsFailed(`answered ${response.status}`);
    }
    const text = await boundedText(response, controller, ms);
    let body: { data?: { embedding?: unknown; index?: unknown }[] };
    try {
      body = JSON.parse(text) as typeof body;
    } catch {
      throw new EmbeddingsFailed('the response is not JSON');
    }
    const data = Array.isArray(body?.data) ? body.data : [];
    if (data.length !== input.length)
      throw new EmbeddingsFailed(`${data.length} vectors for ${input.length} inputs`);
    const vectors = new Array<Float32Array>(input.length);
    data.forEach((item, i) => {
      const index = Number.isInteger(item?.index) ? (item.index as number) : i;
      const values = item?.embedding;
      if (index < 0 || index >= input.length || vectors[index])
        throw new EmbeddingsFailed('vectors with bad indexes');
      if (!Array.isArray(values) || values.length === 0 || values.length > MAX_DIMENSIONS)
        throw new EmbeddingsFailed('a vector that is not a list of numbers');
      vectors[index] = unit(values);
    });
    return vectors;
  } finally {
    clearTimeout(timer);
  }
}

async function boundedText(response: Response, controller: AbortController, ms: number): Promise<string> {
  const parts: Uint8Array[] = [];
  let size = 0;
  try {
    for await (const part of response.body as unknown as AsyncIterable<Uint8Array>) {
      size += part.length;
      if (size > MAX_BODY) {
        controller.abort();
        throw new EmbeddingsFailed(`a response larger than ${MAX_BODY / 1024 / 1024} MiB`);
      }
      parts.push(part);
    }
  } catch (err) {
    if (err instanceof EmbeddingsFailed) throw err;
    throw new EmbeddingsFailed(controller.signal.aborted ? `no answer within ${ms / 1000} s` : reasonOf(err));
  }
  return Buffer.concat(parts).toString('utf8');
}

/** The vector scaled to length 1, so that a dot product is the cosine; refused when not numbers. */
function unit(values: unknown[]): Float32Array {
  const vector = new Float32Array(values.length);
  let norm = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (typeof v !== 'number' || !Number.isFinite(v))
      throw new EmbeddingsFailed('a vector that is not a list of numbers');
    vector[i] = v;
    norm += v * v;
  }
  norm = Math.sqrt(norm);
  if (norm > 0) for (let i = 0; i < vector.length; i++) vector[i]! /= norm;
  return vector;
}

function reasonOf(err: unknown): string {
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (err as Error).message;
}

/** The cosine of two unit vectors (0 when their lengths differ). */
export function cosine(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length) return 0;
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += a[i]! * b[i]!;
  return dot;
}
