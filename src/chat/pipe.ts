import { MAX_REQUEST_BYTES } from '../api/limits.js';
import { readLines } from '../io/stdin.js';
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
  options: { onReply: (exchange: Exchange, index: number) => void; signal?: AbortSignal },
): Promise<number> {
  let sent = 0;
  for await (const line of readLines(input, 'a line of input', MAX_REQUEST_BYTES)) {
    const content = line.trim();
    if (!content) continue;
    const exchange = await session.send(content, options.signal);
    options.onReply(exchange, sent++);
  }
  return sent;
}
