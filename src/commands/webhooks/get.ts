import { Command } from 'commander';
import { Context } from '../../factory.js';
import { webhookFields } from './columns.js';
import { extension } from '../../api/extension.js';

export default function getCommand(run = runGet): Command {
  return new Command('get')
    .aliases(['view', 'show'])
    .description('show a webhook (never its secret)')
    .argument('<id>', 'webhook id')
    .addHelpText('after', '\nExamples:\n  $ kb webhooks get wh_123')
    .action((id: string, _opts: unknown, cmd: Command) => run(Context.for(cmd), id));
}

export async function runGet(ctx: Context, id: string): Promise<void> {
  const client = await ctx.client();
  const webhook = await extension('reading webhooks', () => client.webhooks.get(id, ctx.signal));
  const { secret: _secret, ...shown } = webhook;
  ctx.output.record(shown, webhookFields(ctx.output, webhook));
}
