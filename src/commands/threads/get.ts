import { Command } from 'commander';
import { Context } from '../../factory.js';

export default function getCommand(): Command {
  return new Command('get')
    .aliases(['view', 'show'])
    .description('show a thread and its messages, oldest first')
    .argument('<id>', 'thread id')
    .option('-n, --last <n>', 'only the last n messages', (v) => Number.parseInt(v, 10))
    .addHelpText(
      'after',
      "\nExamples:\n  $ kb threads get thr_123\n  $ kb threads view thr_123 --json | jq -r '.messages[-1].content'",
    )
    .action(async (id: string, opts: { last?: number }, cmd: Command) => {
      const ctx = Context.for(cmd);
      const client = await ctx.client();
      const thread = await client.threads.get(id, ctx.signal);
      if (ctx.format !== 'human') {
        ctx.io.out(
          ctx.format === 'ids'
            ? `${thread.id}\n`
            : `${JSON.stringify(thread, null, ctx.format === 'json' ? 2 : 0)}\n`,
        );
        return;
      }
      const { io } = ctx;
      const transcript = await (await import('../../io/transcript.js')).transcriptFor(io);
      const messages = opts.last && opts.last > 0 ? thread.messages.slice(-opts.last) : thread.messages;
      io.out(transcript.header(thread));
      if (messages.length === 0) {
        io.out(`\n${io.color.dim('No messages yet.')}\n`);
        return;
      }
      for (const message of messages) io.out(`\n${transcript.message(message)}`);
    });
}
