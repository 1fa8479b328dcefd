import { createInterface } from 'node:readline';
import { sanitizeText } from '../util/sanitize.js';
import type { ChatSession } from './session.js';

/**
 * Chat without a terminal: each non-empty line of `input` is sent in order and its reply
 * printed (plain text, separated by a blank line), or one `{userMessage, aiResponse}` JSON
 * object per line with `json`. Stops at the first failure, which it throws.
 */
export async function chatFromLines(
  session: ChatSession,
  input: NodeJS.ReadableStream,
  output: NodeJS.WritableStream,
  options: { json: boolean; signal?: AbortSignal },
): Promise<number> {
  const rl = createInterface({ input, terminal: false, crlfDelay: Number.POSITIVE_INFINITY });
  let sent = 0;
  try {
    for await (const line of rl) {
      const content = line.trim();
      if (!content) continue;
      const exchange = await session.send(content, options.signal);
      if (options.json) output.write(`${JSON.stringify(exchange)}\n`);
      else
        output.write(
          `${sent > 0 ? '\n' : ''}${sanitizeText(exchange.aiResponse?.content ?? '').trimEnd()}\n`,
        );
      sent++;
    }
  } finally {
    rl.close();
  }
  return sent;
}
