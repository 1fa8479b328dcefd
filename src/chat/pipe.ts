import { MAX_REQUEST_BYTES } from '../api/limits.js';
import { readLines } from '../io/stdin.js';
import type { StreamEvent } from '../api/stream.js';
import type { Exchange } from '../api/types.js';
import type { ChatSession } from './session.js';

/**
 * Chat without a terminal: each non-empty line of `input` is sent in order and each exchange
 * handed to `onReply` (with how many were sent before it). Stops at the first failure, which
 * it throws.
 */
export async function chatFromLines(
  session: ChatSession,
  input: NodeJS.ReadableStream,
  options: {
    onReply: (exchange: Exchange, index: number) => void;
    /** With it, each reply is streamed (beta): every event, as it arrives. */
    onEvent?: (event: StreamEvent, index: number) => void;
    signal?: AbortSignal;
  },
): Promise<number> {
  let sent = 0;
  for await (const line of readLines(input, 'a line of input', MAX_REQUEST_BYTES)) {
    const content = line.trim();
    if (!content) continue;
    if (options.onEvent && session.canStream) {
      for await (const event of session.stream(content, options.signal)) options.onEvent(event, sent);
      sent++;
      continue;
    }
    const exchange = await session.send(content, options.signal);
    options.onReply(exchange, sent++);
  }
  return sent;
}
