import { Command } from 'commander';
import { extension } from '../../api/extension.js';
import { Context } from '../../factory.js';
import { collectIds, type DeleteOptions, runBatchDelete } from '../shared/batch-delete.js';

export default function deleteCommand(run = runDelete): Command {
  return new Command('delete')
    .alias('rm')
    .description('delete webhooks (an extension some services lack)')
    .argument('[id...]', 'webhook ids; `-` reads whitespace-separated ids from stdin')
    .option('--all', 'delete every webhook of the workspace')
    .option('-y, --yes', 'do not ask for confirmation (required when not on a terminal)')
    .option('--dry-run', 'show what would be deleted, delete nothing')
    .addHelpText(
      'after',
      '\nExamples:\n  $ kb webhooks delete wh_123 --yes\n  $ kb webhooks list --ids | kb webhooks delete --yes -\n  $ kb webhooks delete --all --dry-run',
    )
    .action((ids: string[], opts: DeleteOptions, cmd: Command) => run(Context.for(cmd), ids, opts));
}

export async function runDelete(ctx: Context, args: string[], opts: DeleteOptions): Promise<void> {
  const client = await ctx.client();
  await runBatchDelete(ctx, args, opts, {
    one: 'webhook',
    many: 'webhooks',
    describe: async (id) =>
      (await extension('reading webhooks', () => client.webhooks.get(id, ctx.signal))).url,
    remove: (id) => extension('deleting webhooks', () => client.webhooks.delete(id, ctx.signal)),
    select: () =>
      extension(
        'listing webhooks',
        () => collectIds(client.webhooks.pages({ want: Infinity, signal: ctx.signal })),
        {
          anyNotFound: true,
        },
      ),
    // The secrets kept for verifying their deliveries go with them.
    after: async (deleted) => {
      const profile = ctx.auth.profile;
      const secrets = ctx.config.profiles[profile]?.webhookSecrets ?? {};
      if (!deleted.some((id) => secrets[id])) return;
      await ctx.updateConfig((data) => {
        for (const id of deleted) delete data.profiles[profile]?.webhookSecrets?.[id];
      });
    },
  });
}
