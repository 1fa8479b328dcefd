import { Command } from 'commander';
import { Context } from '../../factory.js';
import { colorStatus } from '../../io/format.js';
import { printRecord } from '../../io/output.js';
import { addFormatOptions } from '../shared/options.js';

export default function createCommand(): Command {
  return addFormatOptions(
    new Command('create')
      .alias('new')
      .description('create an empty thread')
      .option('-t, --title <title>', 'title of the thread'),
  )
    .addHelpText(
      'after',
      '\nExamples:\n  $ kb threads create --title "Onboarding questions"\n  $ T=$(kb threads create --title x --ids)',
    )
    .action(async (opts: { title?: string }, cmd: Command) => {
      const ctx = Context.for(cmd);
      const client = await ctx.client();
      const thread = await client.threads.create({ title: opts.title }, ctx.signal);
      printRecord(ctx.io, ctx.format, thread, [
        ['ID', thread.id],
        ['Title', thread.title],
        ['Status', thread.status, (s) => colorStatus(ctx.io.color, s)],
        ['Created', thread.createdAt],
      ]);
    });
}
