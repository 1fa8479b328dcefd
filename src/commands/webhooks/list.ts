import { Command } from 'commander';
import type { Webhook } from '../../api/types.js';
import { Context } from '../../factory.js';
import { printList } from '../../io/output.js';
import { addFormatOptions } from '../shared/options.js';
import { webhookColumns } from './columns.js';
import { extension } from './unsupported.js';

export default function listCommand(): Command {
  return addFormatOptions(
    new Command('list').alias('ls').description('list registered webhooks (an extension some services lack)'),
  )
    .addHelpText('after', '\nExamples:\n  $ kb webhooks list\n  $ kb webhooks list --ids')
    .action(async (_opts: unknown, cmd: Command) => {
      const ctx = Context.for(cmd);
      const client = await ctx.client();
      const page = await extension('listing webhooks', () => client.webhooks.list(ctx.signal), {
        anyNotFound: true,
      });
      await printList<Webhook>(ctx.io, ctx.format, page.data, webhookColumns(ctx.io), {
        empty: 'No webhooks',
      });
    });
}
