import { Command } from 'commander';
import type { Webhook } from '../../api/types.js';
import { Context } from '../../factory.js';
import { webhookColumns } from './columns.js';
import { extension } from '../../api/extension.js';

export default function listCommand(): Command {
  return new Command('list')
    .alias('ls')
    .description('list registered webhooks (an extension some services lack)')
    .addHelpText('after', '\nExamples:\n  $ kb webhooks list\n  $ kb webhooks list --ids')
    .action((_opts: unknown, cmd: Command) => runList(Context.for(cmd)));
}

export async function runList(ctx: Context): Promise<void> {
  const client = await ctx.client();
  const page = await extension('listing webhooks', () => client.webhooks.list(ctx.signal), {
    anyNotFound: true,
  });
  await ctx.output.list<Webhook>(page.data, webhookColumns(ctx.io), { empty: 'No webhooks' });
}
