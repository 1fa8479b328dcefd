import { Command } from 'commander';
import type { Webhook } from '../../api/types.js';
import { Context } from '../../factory.js';
import { webhookColumns } from './columns.js';
import { extension } from '../../api/extension.js';
import { addListOptions, type ListOptions, printPages, wanted } from '../shared/list-pages.js';

export default function listCommand(run = runList): Command {
  return addListOptions(
    new Command('list').alias('ls').description('list registered webhooks (an extension some services lack)'),
  )
    .addHelpText('after', '\nExamples:\n  $ kb webhooks list\n  $ kb webhooks list --all --ids')
    .action((opts: ListOptions, cmd: Command) => run(Context.for(cmd), opts));
}

export async function runList(ctx: Context, opts: ListOptions = {}): Promise<void> {
  const client = await ctx.client();
  await extension(
    'listing webhooks',
    () =>
      printPages<Webhook>(
        ctx,
        client.webhooks.pages({ want: wanted(opts), signal: ctx.signal }),
        webhookColumns(ctx.io),
        {
          empty: 'No webhooks',
          noun: 'webhooks',
          opts,
        },
      ),
    { anyNotFound: true },
  );
}
