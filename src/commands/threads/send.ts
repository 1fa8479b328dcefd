import { Command } from 'commander';
import { MAX_REQUEST_BYTES } from '../../api/limits.js';
import { Interrupted, UsageError } from '../../errors.js';
import { Context } from '../../factory.js';
import { wordsOrStdin } from '../../io/stdin.js';
import { LastThread, lastThreadFile } from '../../chat/last-thread.js';
import { printReply } from './print-reply.js';
import { messageGivenAsId } from '../shared/message-as-id.js';

export default function sendCommand(run = runSend): Command {
  return new Command('send')
    .description("post a message and print the assistant's reply")
    .argument('<id>', 'thread id')
    .argument('[message...]', 'the message; `-` or a pipe reads it from stdin')
    .option('--stream', 'beta: print the reply as it is written (--jsonl: one event per line)')
    .addHelpText(
      'after',
      `
Only the reply text goes to stdout (--json: both messages). Ctrl-C cancels and exits 130;
with --stream it also stops the service writing, and what arrived is kept in the thread.

Examples:
  $ kb threads send thr_123 "How much is the Growth plan?"
  $ git log -1 --format=%B | kb threads send thr_123 -
  $ kb threads send thr_123 "Summarise v2" --json | jq -r .aiResponse.content
  $ kb threads send thr_123 "Explain the SLA" --stream`,
    )
    .action((id: string, words: string[], opts: { stream?: boolean }, cmd: Command) =>
      run(Context.for(cmd), id, words, opts),
    );
}

export function messageFrom(ctx: Context, words: string[]): Promise<string> {
  return wordsOrStdin(ctx.io, words, 'message', MAX_REQUEST_BYTES);
}

export async function runSend(
  ctx: Context,
  id: string,
  words: string[],
  opts: { stream?: boolean } = {},
): Promise<void> {
  const content = await messageFrom(ctx, words);
  // A question quoted where the id goes, with no message after it.
  const asId = content
    ? undefined
    : messageGivenAsId(
        id,
        'give the thread first (`kb threads send <thread-id> What is the SLA`); `kb threads create` makes one, or pipe the question into `kb chat`',
      );
  if (asId) throw asId;
  if (!content)
    throw new UsageError(
      'the message is empty',
      `give it as words (\`kb threads send ${id} What is the SLA\`) or on stdin`,
    );
  const client = await ctx.client();
  // `kb chat -c` continues the thread a message was sent to last, whichever command sent it.
  const last = new LastThread(lastThreadFile(ctx.env, ctx.auth.profile));
  try {
    await printReply(ctx, client, id, content, opts);
  } catch (err) {
    // Stopped with Ctrl-C: the message was sent, and what arrived is kept in the thread.
    if (err instanceof Interrupted) last.save(id);
    throw err;
  }
  last.save(id);
}
