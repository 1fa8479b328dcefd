import { Command, Option } from 'commander';
import { threadAsMarkdown } from '../../io/thread-markdown.js';
import { Context } from '../../factory.js';
import { parsePositiveInt } from '../shared/options.js';

export interface GetOptions {
  last?: number;
  format?: 'md';
}

export default function getCommand(run = runGet): Command {
  return new Command('get')
    .aliases(['view', 'show'])
    .description('show a thread and its messages, oldest first')
    .argument('<id>', 'thread id')
    .option('-n, --last <n>', 'only the last n messages', parsePositiveInt)
    .addOption(
      new Option(
        '--format <format>',
        'md: the thread as a Markdown document (as /export in kb chat)',
      ).choices(['md']),
    )
    .addHelpText(
      'after',
      "\nExamples:\n  $ kb threads get thr_123\n  $ kb threads get thr_123 --format md > thread.md\n  $ kb threads view thr_123 --json | jq -r '.messages[-1].content'",
    )
    .action((id: string, opts: GetOptions, cmd: Command) => run(Context.for(cmd), id, opts));
}

export async function runGet(ctx: Context, id: string, opts: GetOptions): Promise<void> {
  const client = await ctx.client();
  const thread = await client.threads.get(id, ctx.signal);
  if (opts.format === 'md') {
    const last = opts.last ? { ...thread, messages: thread.messages.slice(-opts.last) } : thread;
    ctx.output.text(threadAsMarkdown(last));
    return;
  }
  // Loaded only here: scripts reading --json need none of the rendering.
  const { transcriptView } = await import('../../io/transcript.js');
  ctx.output.record(thread, await transcriptView(ctx.output, { last: opts.last }));
}
