import { MAX_REQUEST_BYTES } from '../api/limits.js';
import { readLines } from '../io/stdin.js';
import type { StreamEvent } from '../api/stream.js';
import type { Exchange } from '../api/types.js';
import { interrupted } from '../errors.js';
import type { ChatSession } from './session.js';
import { runTurn } from './turn.js';

/**
 * Chat without a terminal: each non-empty line of `input` is sent in order and each exchange
 * handed to `onReply` (with how many were sent before it). Stops at the first failure, which
 * it throws; stopped by `signal`, it throws Interrupted.
 */
export async function chatFromLines(
  session: ChatSession,
  input: NodeJS.ReadableStream,
  options: {
    onReply: (exchange: Exchange, index: number) => void;
    /** With it, each reply is streamed (beta): every event, as it arrives. */
    onEvent?: (event: StreamEvent, index: number) => void;
    signal: AbortSignal;
  },
): Promise<number> {
  let sent = 0;
  for await (const line of readLines(input, 'a line of input', MAX_REQUEST_BYTES)) {
    const content = line.trim();
    if (!content) continue;
    const index = sent++;
    const { onEvent } = options;
    const outcome = await runTurn(session, content, {
      signal: options.signal,
      stream: Boolean(onEvent),
      onEvent: onEvent && ((event) => onEvent(event, index)),
    });
    if (outcome.kind === 'failed') throw outcome.error;
    if (outcome.kind === 'cancelled') {
      if (options.signal.aborted) throw interrupted();
      continue; // stopped on the service by someone else: what it kept was shown as it came
    }
    // A service without streaming answers at once: its reply is one completed event.
    if (!onEvent || !session.canStream) options.onReply(outcome.exchange, index);
  }
  return sent;
}
