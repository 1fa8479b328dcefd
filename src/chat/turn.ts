import { ConnectionError } from '../api/errors.js';
import type { StreamEvent } from '../api/stream.js';
import type { Exchange } from '../api/types.js';
import { CliError, ExitCode } from '../errors.js';
import { streamSanitizer } from '../util/sanitize.js';

/** Where a turn is sent: a chat session, or one thread of the client (`kb threads send`). */
export interface TurnTarget {
  readonly canStream: boolean;
  send(content: string, signal: AbortSignal): Promise<Exchange>;
  stream(content: string, signal: AbortSignal): AsyncIterable<StreamEvent>;
  /** Stops a generation on the service; resolves with what it kept. */
  cancel(generationId: string): Promise<Exchange | undefined>;
}

/** How a turn ended. `streamed` is the text shown as it arrived (empty when not streamed). */
export type TurnOutcome =
  | { kind: 'replied'; exchange: Exchange; streamed: string }
  /**
   * Stopped by its signal. `kept`: what the service stored (the reply so far, marked incomplete).
   * `sent`: whether the service may have the message (false when stopped before it was sent).
   */
  | { kind: 'cancelled'; kept?: Exchange; streamed: string; sent: boolean }
  | { kind: 'failed'; error: unknown; streamed: string };

export interface TurnHooks {
  /** Aborting it stops the turn, and a generation on the service with it. */
  signal: AbortSignal;
  /** Watch the reply as it is written, where the service can (default: send and wait). */
  stream?: boolean;
  /** Each event of a streamed reply, as it arrives (--jsonl). */
  onEvent?: (event: StreamEvent) => void;
  /**
   * Each piece of a streamed reply's text, as it arrives, sanitised for a terminal: an escape
   * sequence split across two pieces is removed whole (held back until the next piece).
   */
  onText?: (text: string) => void;
  /** Started with the turn, stopped at its first text or its end: a spinner. */
  waiting?: () => { stop(): void };
}

/**
 * One message and its reply, the one path every way of chatting takes (the REPL, `kb threads
 * send`, piped `kb chat`): sent and waited for, or streamed; stopped by the signal, which stops
 * the service writing too; every failure returned, never thrown, so that each caller says what
 * happened in its own way.
 */
export async function runTurn(target: TurnTarget, content: string, hooks: TurnHooks): Promise<TurnOutcome> {
  const { signal } = hooks;
  if (signal.aborted) return { kind: 'cancelled', streamed: '', sent: false };
  let waiting = hooks.waiting?.();
  const stopWaiting = () => {
    waiting?.stop();
    waiting = undefined;
  };
  let streamed = '';
  let generationId: string | undefined;
  const safe = streamSanitizer();
  try {
    if (!hooks.stream || !target.canStream)
      return { kind: 'replied', exchange: await target.send(content, signal), streamed };
    for await (const event of target.stream(content, signal)) {
      hooks.onEvent?.(event);
      switch (event.type) {
        case 'started':
          generationId = event.generationId;
          break;
        case 'delta':
          stopWaiting();
          streamed += event.text;
          show(safe.push(event.text));
          break;
        case 'completed':
          return { kind: 'replied', exchange: event.exchange, streamed };
        case 'cancelled':
          return { kind: 'cancelled', kept: event.exchange, streamed, sent: true };
        case 'failed':
          return {
            kind: 'failed',
            error: new CliError(event.error.message, ExitCode.failure, undefined, event.error.code),
            streamed,
          };
      }
    }
    return {
      kind: 'failed',
      error: new ConnectionError('the event stream ended before the reply did'),
      streamed,
    };
  } catch (error) {
    if (!signal.aborted) return { kind: 'failed', error, streamed };
    const kept = generationId ? await target.cancel(generationId).catch(() => undefined) : undefined;
    return { kind: 'cancelled', kept, streamed, sent: true };
  } finally {
    show(safe.end());
    stopWaiting();
  }

  function show(text: string) {
    if (text) hooks.onText?.(text);
  }
}

/** What a client needs to be a turn's target for one thread. */
export interface ThreadsClient {
  threads: {
    send(id: string, content: string, signal?: AbortSignal): Promise<Exchange>;
    stream(id: string, params: { content: string; signal?: AbortSignal }): AsyncIterable<StreamEvent>;
    cancelGeneration(generationId: string): Promise<Exchange | undefined>;
  };
}

/** One thread of the client as a turn's target. */
export function threadTarget(client: ThreadsClient, threadId: string): TurnTarget {
  return {
    canStream: true,
    send: (content, signal) => client.threads.send(threadId, content, signal),
    stream: (content, signal) => client.threads.stream(threadId, { content, signal }),
    cancel: (generationId) => client.threads.cancelGeneration(generationId),
  };
}
