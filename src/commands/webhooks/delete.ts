import { Command } from 'commander';
import { CliError, ExitCode, UsageError } from '../../errors.js';
import { sanitizeField } from '../../util/sanitize.js';
import { Context } from '../../factory.js';
import { ask } from '../../io/prompt.js';
import { extension } from '../../api/extension.js';

export default function deleteCommand(): Command {
  return new Command('delete')
    .alias('rm')
    .description('delete a webhook (an extension some services lack)')
    .argument('<id>', 'webhook id')
    .option('-y, --yes', 'do not ask for confirmation (required when not on a terminal)')
    .addHelpText('after', '\nExamples:\n  $ kb webhooks delete wh_123 --yes')
    .action((id: string, opts: { yes?: boolean }, cmd: Command) => runDelete(Context.for(cmd), id, opts));
}

export async function runDelete(ctx: Context, id: string, opts: { yes?: boolean }): Promise<void> {
  const { io } = ctx;
  if (!opts.yes) {
    if (!io.canPrompt)
      throw new UsageError('refusing to delete a webhook without --yes when not on a terminal');
    const ok = await ask(io, 'confirmation', (prompts, context) =>
      prompts.confirm({ message: `Delete webhook ${sanitizeField(id)}?`, default: false }, context),
    );
    if (!ok) throw new CliError('nothing deleted', ExitCode.failure);
  }
  const client = await ctx.client();
  await extension('deleting webhooks', () => client.webhooks.delete(id, ctx.signal));
  const profile = ctx.auth.profile;
  if (ctx.config.profiles[profile]?.webhookSecrets?.[id]) {
    await ctx.updateConfig((data) => {
      delete data.profiles[profile]?.webhookSecrets?.[id];
    });
  }
  ctx.output.result(
    { id, deleted: true },
    { line: (r) => `${io.color.green('✓')} deleted ${r.id}`, fields: (r) => ['deleted', r.id] },
  );
}
