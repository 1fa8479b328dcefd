import type { KbClient } from '../../api/client.js';
import { AbortedError } from '../../api/errors.js';
import type { Exchange } from '../../api/types.js';
import { CliError, ExitCode, Interrupted } from '../../errors.js';
import type { Context } from '../../factory.js';

/**
 * Posts `content` and writes the reply to stdout as it arrives (beta streaming interface):
 * plain text ending with a newline, or with --jsonl one event object per line, or with --json
 * the final {userMessage, aiResponse} only. Ctrl-C cancels the generation on the service,
 * keeps what arrived, says so and exits 130.
 */
export async function printStreamedReply(
  ctx: Context,
  client: KbClient,
  threadId: string,
  content: string,
): Promise<Exchange> {
  const stop = new AbortController();
  const release = ctx.signals.trap(() => stop.abort());
  let generationId: string | undefined;
  let wroteText = false;
  try {
    for await (const event of client.threads.stream(threadId, {
      content,
      signal: AbortSignal.any([stop.signal, ctx.signal]),
    })) {
      if (ctx.format === 'jsonl' || ctx.format === 'ids') ctx.output.event(event, () => '');
      if (event.type === 'started') generationId = event.generationId;
      else if (event.type === 'delta' && ctx.format === 'human') {
        ctx.output.text(event.text);
        wroteText = true;
      } else if (event.type === 'completed' || event.type === 'cancelled') {
        if (ctx.format === 'human')
          ctx.output.text(`${wroteText ? '' : event.exchange.aiResponse.content}\n`);
        if (ctx.format === 'json') ctx.output.record(event.exchange, []);
        return event.exchange;
      } else if (event.type === 'failed')
        throw new CliError(event.error.message, ExitCode.failure, undefined, event.error.code);
    }
    throw new CliError('the event stream ended before the reply did', ExitCode.unavailable);
  } catch (err) {
    if (!(err instanceof AbortedError) || !stop.signal.aborted) throw err;
    // Ctrl-C: the service stops writing; what it wrote is kept in the thread.
    if (generationId) await client.threads.cancelGeneration(generationId).catch(() => undefined);
    if (wroteText) ctx.output.text('\n');
    throw new Interrupted(
      false,
      generationId
        ? 'cancelled: the reply so far is kept in the thread, marked incomplete'
        : 'cancelled before the reply started',
    );
  } finally {
    release();
  }
}
