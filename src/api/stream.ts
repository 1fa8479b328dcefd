import type { KbClient } from './client.js';
import {
  AbortedError,
  ConnectionError,
  MethodNotAllowedError,
  InvalidResponseError,
  isMissingRoute,
  NotFoundError,
  ReplyInterruptedError,
  TimeoutError,
} from './errors.js';
import { unwrap } from './envelope.js';
import { segment } from './paths.js';
import { type SseEvent, SseLimitError, SseParser } from './sse.js';
import { MESSAGE_TIMEOUT_MS } from './timeouts.js';
import { sleep } from '../util/sleep.js';
import type { Exchange } from './types.js';

/** beta: what a streamed reply yields, in order. */
export type StreamEvent =
  /** The generation was started (its id, to cancel it); not sent by a service without streaming. */
  | { type: 'started'; generationId: string; threadId: string }
  | { type: 'delta'; seq: number; text: string }
  /** The reply is complete and stored: the same {userMessage, aiResponse} as posting a message. */
  | { type: 'completed'; seq: number; exchange: Exchange; streamed: boolean }
  /**
   * Cancelled: what was written by then is stored, marked `incomplete`; no exchange when it was
   * cancelled before any of it was written and no reply was stored.
   */
  | { type: 'cancelled'; seq: number; exchange?: Exchange }
  | { type: 'failed'; seq: number; error: { code: string; message: string } };

/**
 * How often a dropped event stream is resumed before the client gives up: after 0.1, 0.2, 0.4,
 * 0.8 and 1.6 s, so a service that restarts (a few seconds) is waited for, not only a blip.
 */
const MAX_RESUMES = 5;

/** Services that answered that they have no streaming interface, by base URL, for the rest of the run. */
const unsupported = new Set<string>();

/** The event a server-sent event stands for; InvalidResponseError when its data is not what the kind needs. */
function toEvent(e: SseEvent): StreamEvent | undefined {
  const type = e.event;
  const seq = Number(e.id);
  let data: any;
  try {
    data = e.data ? JSON.parse(e.data) : undefined;
  } catch {
    throw new InvalidResponseError(`the event stream sent a ${type} event whose data is not JSON`);
  }
  const exchange = () => {
    if (!isExchange(data))
      throw new InvalidResponseError(`the event stream sent a ${type} event without the two messages`);
    return data as Exchange;
  };
  switch (type) {
    case 'delta':
      return { type, seq, text: String(data?.text ?? '') };
    case 'completed':
      return { type, seq, exchange: exchange(), streamed: true };
    case 'cancelled':
      return data?.aiResponse === null ? { type, seq } : { type, seq, exchange: exchange() };
    case 'failed':
      return {
        type,
        seq,
        error: data?.error ?? { code: 'failed', message: 'the reply could not be written' },
      };
    default:
      return undefined; // an event kind this client does not know: skipped
  }
}

/**
 * Posts a message and yields the reply as it is written (beta streaming interface). A dropped
 * connection is resumed from the last event seen (Last-Event-ID): every event arrives once, in
 * order. Against a service without the interface (405, or a 404 for the route: see
 * isMissingRoute), remembered per base URL, the
 * message is posted synchronously and the reply comes as one `completed` event.
 */
export async function* streamReply(
  client: KbClient,
  threadId: string,
  content: string,
  signal?: AbortSignal,
): AsyncGenerator<StreamEvent> {
  if (unsupported.has(client.baseUrl)) return yield* synchronously(client, threadId, content, signal);
  let generationId: string;
  try {
    const res = await client.request({
      method: 'POST',
      path: `/v1/threads/${segment(threadId)}/generations`,
      body: { content },
      signal,
    });
    generationId = unwrap<{ id: string }>(res.body).id;
  } catch (err) {
    // A 404 about the thread (not_found) is said as it is; one about the route means no streaming.
    if (!(err instanceof MethodNotAllowedError || isMissingRoute(err))) throw err;
    unsupported.add(client.baseUrl);
    return yield* synchronously(client, threadId, content, signal);
  }
  yield { type: 'started', generationId, threadId };
  let last = 0;
  for (let resumes = 0; ; resumes++) {
    try {
      for await (const event of readEvents(client, generationId, last, signal)) {
        if ('seq' in event) {
          if (event.seq <= last) continue; // already seen before the stream dropped
          last = event.seq;
        }
        yield event;
        if (event.type !== 'delta') return;
      }
    } catch (err) {
      if (err instanceof NotFoundError && err.code !== 'route_not_found')
        throw new ReplyInterruptedError(
          `the reply was interrupted: the service no longer knows generation ${generationId} (it restarted?); what it kept is in thread ${threadId}`,
          { code: 'reply_interrupted', status: 404 },
        );
      if (signal?.aborted || !(err instanceof ConnectionError || err instanceof TimeoutError)) throw err;
      if (resumes >= MAX_RESUMES) throw err;
    }
    // The stream ended (or dropped) before the reply did: resume after the last event seen.
    await sleep(100 * 2 ** resumes, signal).catch(() => {
      throw new AbortedError('request cancelled');
    });
  }
}

/**
 * The events of a generation after `after`, read from its event stream as it arrives; ends when
 * the stream does. Bounded: a line or an event past the parser's limits is an invalid response.
 */
async function* readEvents(
  client: KbClient,
  generationId: string,
  after: number,
  signal: AbortSignal | undefined,
): AsyncGenerator<StreamEvent> {
  const res = await client.request({
    method: 'GET',
    path: `/v1/generations/${segment(generationId)}/events`,
    headers: { accept: 'text/event-stream', 'last-event-id': String(after) },
    timeoutMs: MESSAGE_TIMEOUT_MS,
    signal,
    // Resumed by the caller, from the last event seen, rather than replayed from the start.
    maxRetries: 0,
    stream: true,
  });
  if (!res.chunks) throw new InvalidResponseError('the service answered the event stream with no events');
  const parser = new SseParser();
  for await (const chunk of res.chunks) {
    let events: SseEvent[];
    try {
      events = parser.push(chunk);
    } catch (err) {
      throw err instanceof SseLimitError ? new InvalidResponseError(err.message) : err;
    }
    for (const e of events) {
      const event = toEvent(e);
      if (event) yield event;
    }
  }
}

async function* synchronously(
  client: KbClient,
  threadId: string,
  content: string,
  signal?: AbortSignal,
): AsyncGenerator<StreamEvent> {
  const exchange = await client.threads.send(threadId, content, signal);
  yield { type: 'completed', seq: 1, exchange, streamed: false };
}

/** Cancels a generation; resolves with what it stored (the partial reply, marked incomplete). */
export async function cancelGeneration(
  client: KbClient,
  generationId: string,
): Promise<Exchange | undefined> {
  const res = await client.request({
    method: 'POST',
    path: `/v1/generations/${segment(generationId)}/cancel`,
  });
  const data = unwrap<{ userMessage?: Exchange['userMessage']; aiResponse?: Exchange['aiResponse'] }>(
    res.body,
  );
  return data.userMessage && data.aiResponse
    ? { userMessage: data.userMessage, aiResponse: data.aiResponse }
    : undefined;
}

function isExchange(data: unknown): boolean {
  const message = (m: unknown) =>
    typeof m === 'object' && m !== null && typeof (m as { content?: unknown }).content === 'string';
  return (
    typeof data === 'object' &&
    data !== null &&
    message((data as Exchange).userMessage) &&
    message((data as Exchange).aiResponse)
  );
}
