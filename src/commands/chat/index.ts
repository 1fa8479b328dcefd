import { join } from 'node:path';
import { Command } from 'commander';
import { messageGivenAsId } from '../shared/message-as-id.js';
import { lastThreadFile } from '../../chat/last-thread.js';
import { stateDir } from '../../config/paths.js';
import { UsageError } from '../../errors.js';
import { Context } from '../../factory.js';
import { startChat } from './start.js';

interface ChatOptions {
  continue?: boolean;
  title?: string;
  raw?: boolean;
  quiet?: boolean;
  stream?: boolean;
}

export default function chatCommand(): Command {
  return new Command('chat')
    .description('Chat with the assistant: a REPL on a terminal, line by line from a pipe')
    .argument('[thread-id]', 'continue this thread')
    .option('-c, --continue', 'continue the most recent thread')
    .option('-t, --title <title>', 'title for a new thread (default: the first message)')
    .option('--raw', 'print replies as received, without Markdown rendering')
    .option('-q, --quiet', 'no latency and size line after each reply')
    .option(
      '--stream',
      'piped: print each reply as it is written (on a terminal replies always stream, where the service can)',
    )
    .addHelpText(
      'after',
      `
On a terminal: line editing and history, Markdown replies, slash commands (/help lists
them), multi-line input with a trailing \\ or a """ block, Ctrl-C to cancel a reply, Ctrl-D
to leave. Piped: each non-empty line is sent in order and each reply printed.

Examples:
  $ kb chat
  $ kb chat -c
  $ kb chat thr_123 --raw
  $ printf 'How much is Growth?\\nAnd Enterprise?\\n' | kb chat --json | jq -r .aiResponse.content`,
    )
    .action(async (threadId: string | undefined, opts: ChatOptions, cmd: Command) => {
      const ctx = Context.for(cmd);
      if (threadId && opts.continue) throw new UsageError('give a thread id or --continue, not both');
      const asId =
        threadId &&
        messageGivenAsId(
          threadId,
          'start `kb chat` and type it there, or pipe it in: `echo "How much is Growth?" | kb chat`',
        );
      if (asId) throw asId;
      const client = await ctx.client();
      const historyFile = join(
        stateDir(ctx.env),
        'history',
        `chat-${ctx.auth.profile.replace(/[^\w.-]/g, '_')}`,
      );
      await startChat(ctx, client, {
        threadId,
        ...opts,
        historyFile,
        lastThreadFile: lastThreadFile(ctx.env, ctx.auth.profile),
      });
    });
}
