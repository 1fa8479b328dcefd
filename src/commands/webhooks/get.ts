import { Command } from 'commander';
import { Context } from '../../factory.js';
import { printRecord } from '../../io/output.js';
import { addFormatOptions } from '../shared/options.js';
import { webhookFields } from './columns.js';
import { extension } from './unsupported.js';

export default function getCommand(): Command {
  return addFormatOptions(
    new Command('get')
      .aliases(['view', 'show'])
      .description('show a webhook (never its secret)')
      .argument('<id>', 'webhook id'),
  )
    .addHelpText('after', '\nExamples:\n  $ kb webhooks get wh_123')
    .action(async (id: string, _opts: unknown, cmd: Command) => {
      const ctx = Context.for(cmd);
      const client = await ctx.client();
      const webhook = await extension('reading webhooks', () => client.webhooks.get(id, ctx.signal));
      const { secret: _secret, ...shown } = webhook;
      printRecord(ctx.io, ctx.format, shown, webhookFields(webhook));
    });
}
