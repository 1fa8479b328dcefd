import { Command } from 'commander';
import { Context } from '../../factory.js';
import { colorStatus } from '../../io/format.js';

export interface CreateOptions {
  title?: string;
}

export default function createCommand(run = runCreate): Command {
  return new Command('create')
    .alias('new')
    .description('create an empty thread')
    .option('-t, --title <title>', 'title of the thread')
    .addHelpText(
      'after',
      '\nExamples:\n  $ kb threads create --title "Onboarding questions"\n  $ T=$(kb threads create --title x --ids)',
    )
    .action((opts: CreateOptions, cmd: Command) => run(Context.for(cmd), opts));
}

export async function runCreate(ctx: Context, opts: CreateOptions): Promise<void> {
  const client = await ctx.client();
  const thread = await client.threads.create({ title: opts.title }, ctx.signal);
  ctx.output.record(thread, [
    ['ID', thread.id],
    ['Title', thread.title],
    ['Status', thread.status, (s) => colorStatus(ctx.io.color, s)],
    ['Created', ctx.output.time(thread.createdAt)],
  ]);
}
