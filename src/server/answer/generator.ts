import type { Hit } from '../search/hit.js';
import { MAX_CONTENT, type MessageRecord } from '../state/model.js';

export interface GeneratorOptions {
  baseUrl: string;
  model: string;
  apiKey?: string;
  /** One deadline for the whole generation, streamed or not (default 120 s). */
  timeoutMs?: number;
  /** Sent as max_tokens (default 2048). */
  maxTokens?: number;
}

/** What the endpoint wrote; `incomplete` when it was cut (the length cap, max_tokens, a broken stream, the deadline). */
export interface Generated {
  text: string;
  incomplete: boolean;
  /** Why it is incomplete, for the console. */
  reason?: string;
}

/** The endpoint could not give a reply (before writing anything): the caller answers another way. */
export class GeneratorFailed extends Error {}

/** Room left in a message for the sources line after the generated text. */
const SOURCES_ROOM = 2_000;
export const MAX_GENERATED = MAX_CONTENT - SOURCES_ROOM;
/** A non-streamed response's body, and one line of a streamed one. */
const MAX_BODY = 4 * 1024 * 1024;
const MAX_LINE = 1024 * 1024;

/**
 * A signal that aborts after `ms` or when `outer` does. A plain timer, cleared by `dispose`:
 * AbortSignal.timeout combined with AbortSignal.any can be collected and never fire on Node 20.
 */
function deadline(
  ms: number,
  outer?: AbortSignal,
): { signal: AbortSignal; expired: () => boolean; dispose: () => void } {
  const controller = new AbortController();
  let expired = false;
  const timer = setTimeout(() => {
    expired = true;
    controller.abort(new Error(`no complete reply within ${Math.round(ms / 1000)} s`));
  }, ms);
  const onAbort = () => controller.abort(outer?.reason);
  if (outer?.aborted) onAbort();
  else outer?.addEventListener('abort', onAbort, { once: true });
  return {
    signal: controller.signal,
    expired: () => expired,
    dispose: () => {
      clearTimeout(timer);
      outer?.removeEventListener('abort', onAbort);
    },
  };
}

function context(hits: Hit[], cite: (hit: Hit) => string): string {
  return hits.map((h, i) => `[${i + 1}] (${cite(h)})\n${h.chunk.text}`).join('\n\n');
}

export interface GenerationRequest {
  message: string;
  hits: Hit[];
  history: MessageRecord[];
  /** How a hit is cited in the context (`manual.pdf p. 3`). */
  cite: (hit: Hit) => string;
}

function requestBody(options: GeneratorOptions, request: GenerationRequest, stream: boolean): string {
  return JSON.stringify({
    model: options.model,
    max_tokens: options.maxTokens ?? 2048,
    ...(stream ? { stream: true } : {}),
    messages: [
      {
        role: 'system',
        content: `Answer only from the workspace documents below and cite file names in brackets. If they do not cover the question, say so.\n\n${context(request.hits, request.cite)}`,
      },
      ...request.history.slice(-6).map((m) => ({ role: m.role, content: m.content })),
      { role: 'user', content: request.message },
    ],
  });
}

/**
 * The endpoint's reply to a request grounded in the hits: `POST {baseUrl}/chat/completions`,
 * streamed (`stream: true`, each piece to `onPiece`) when `onPiece` is given. Bounded: one
 * deadline, the body and each line capped, the text cut at MAX_GENERATED. Throws
 * GeneratorFailed when nothing was written; once something was, resolves with it, marked
 * incomplete when the reply did not end properly. Cancelled through `signal`, resolves with what was written.
 */
export async function generate(
  options: GeneratorOptions,
  request: GenerationRequest,
  { onPiece, signal }: { onPiece?: (text: string) => void; signal?: AbortSignal } = {},
): Promise<Generated> {
  const limit = deadline(options.timeoutMs ?? 120_000, signal);
  const url = `${options.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  try {
    let response: Response;
    try {
      response = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}),
        },
        body: requestBody(options, request, !!onPiece),
        signal: limit.signal,
      });
    } catch (err) {
      throw new GeneratorFailed(limit.expired() ? (limit.signal.reason as Error).message : reasonOf(err));
    }
    if (!response.ok) {
      void response.body?.cancel().catch(() => {});
      throw new GeneratorFailed(`answered ${response.status}`);
    }
    if (!response.body) throw new GeneratorFailed('answered with no body');
    const body = response.body as unknown as AsyncIterable<Uint8Array>;
    return onPiece ? await readStream(body, onPiece, limit, signal) : await readWhole(body, limit);
  } finally {
    limit.dispose();
  }
}

function reasonOf(err: unknown): string {
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (err as Error).message;
}

function cut(text: string): Generated {
  return text.length > MAX_GENERATED
    ? { text: text.slice(0, MAX_GENERATED), incomplete: true, reason: `cut at ${MAX_GENERATED} characters` }
    : { text, incomplete: false };
}

async function readWhole(
  body: AsyncIterable<Uint8Array>,
  limit: ReturnType<typeof deadline>,
): Promise<Generated> {
  const parts: Uint8Array[] = [];
  let size = 0;
  try {
    for await (const part of body) {
      size += part.length;
      if (size > MAX_BODY) throw new GeneratorFailed(`response larger than ${MAX_BODY / 1024 / 1024} MiB`);
      parts.push(part);
    }
  } catch (err) {
    if (err instanceof GeneratorFailed) throw err;
    throw new GeneratorFailed(limit.expired() ? (limit.signal.reason as Error).message : reasonOf(err));
  }
  let parsed: { choices?: { message?: { content?: unknown }; finish_reason?: unknown }[] };
  try {
    parsed = JSON.parse(Buffer.concat(parts).toString('utf8')) as typeof parsed;
  } catch {
    throw new GeneratorFailed('response is not JSON');
  }
  const choice = parsed?.choices?.[0];
  const content = typeof choice?.message?.content === 'string' ? choice.message.content.trim() : '';
  if (!content) throw new GeneratorFailed('returned no content');
  const result = cut(content);
  return choice?.finish_reason === 'length' && !result.incomplete
    ? { ...result, incomplete: true, reason: 'stopped at max_tokens' }
    : result;
}

async function readStream(
  body: AsyncIterable<Uint8Array>,
  onPiece: (text: string) => void,
  limit: ReturnType<typeof deadline>,
  signal: AbortSignal | undefined,
): Promise<Generated> {
  let text = '';
  let pending = '';
  let ended: string | undefined;
  let reason: string | undefined;
  const decoder = new TextDecoder();
  const take = (line: string): boolean => {
    const data = /^data:\s?(.*)$/.exec(line.trim())?.[1];
    if (!data) return true;
    if (data === '[DONE]') {
      ended ??= 'stop';
      return false;
    }
    let event: { choices?: { delta?: { content?: unknown }; finish_reason?: unknown }[] };
    try {
      event = JSON.parse(data) as typeof event;
    } catch {
      reason = 'sent an event that is not JSON';
      return false;
    }
    const choice = event?.choices?.[0];
    const piece = typeof choice?.delta?.content === 'string' ? choice.delta.content : '';
    if (piece) {
      const room = MAX_GENERATED - text.length;
      const kept = piece.slice(0, room);
      text += kept;
      if (kept) onPiece(kept);
      if (kept.length < piece.length) {
        reason = `cut at ${MAX_GENERATED} characters`;
        return false;
      }
    }
    if (typeof choice?.finish_reason === 'string') ended = choice.finish_reason;
    return true;
  };
  try {
    reading: for await (const part of body) {
      pending += decoder.decode(part, { stream: true });
      let at: number;
      while ((at = pending.indexOf('\n')) >= 0) {
        const line = pending.slice(0, at);
        pending = pending.slice(at + 1);
        if (!take(line)) break reading;
      }
      if (pending.length > MAX_LINE) {
        reason = `sent a line longer than ${MAX_LINE / 1024 / 1024} MiB`;
        break;
      }
    }
    if (!reason && pending) take(pending);
  } catch (err) {
    if (signal?.aborted) return { text, incomplete: true, reason: 'cancelled' };
    reason = limit.expired() ? (limit.signal.reason as Error).message : `the stream broke (${reasonOf(err)})`;
  }
  if (signal?.aborted) return { text, incomplete: true, reason: 'cancelled' };
  if (!reason && ended === undefined) reason = 'the stream ended before the reply did';
  if (!reason && ended === 'length') reason = 'stopped at max_tokens';
  if (!text.trim()) throw new GeneratorFailed(reason ?? 'returned no content');
  return reason ? { text, incomplete: true, reason } : { text, incomplete: false };
}
