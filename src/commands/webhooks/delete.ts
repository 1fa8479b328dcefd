import { Command } from 'commander';
import { UsageError } from '../../errors.js';
import { Context } from '../../factory.js';
import { loadPrompts } from '../../io/prompt.js';
import { extension } from './unsupported.js';

export default function deleteCommand(): Command {
  return new Command('delete')
    .alias('rm')
    .description('delete a webhook (an extension some services lack)')
    .argument('<id>', 'webhook id')
    .option('-y, --yes', 'do not ask for confirmation (required when not on a terminal)')
    .addHelpText('after', '\nExamples:\n  $ kb webhooks delete wh_123 --yes')
    .action(async (id: string, opts: { yes?: boolean }, cmd: Command) => {
      const ctx = Context.for(cmd);
      const { io } = ctx;
      if (!opts.yes) {
        if (!io.canPrompt)
          throw new UsageError('refusing to delete a webhook without --yes when not on a terminal');
        const { prompts, context } = await loadPrompts(io, 'confirmation');
        if (!(await prompts.confirm({ message: `Delete webhook ${id}?`, default: false }, context))) {
          io.err('Nothing deleted\n');
          process.exitCode = 1;
          return;
        }
      }
      const client = await ctx.client();
      await extension('deleting webhooks', () => client.webhooks.delete(id, ctx.signal));
      const profile = ctx.auth.profile;
      if (ctx.config.profiles[profile]?.webhookSecrets?.[id]) {
        await ctx.updateConfig((data) => {
          delete data.profiles[profile]?.webhookSecrets?.[id];
        });
      }
      if (ctx.format === 'json') io.out(`${JSON.stringify({ id, deleted: true })}\n`);
      else if (io.stdoutIsTTY) io.out(`${io.color.green('✓')} deleted ${id}\n`);
      else io.out(`deleted\t${id}\n`);
    });
}
