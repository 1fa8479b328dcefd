import { Command } from 'commander';
import { FILE_STATUSES } from '../../api/types.js';
import { Context } from '../../factory.js';
import { collectIds, type DeleteOptions, runBatchDelete } from '../shared/batch-delete.js';
import { statusOption } from '../shared/options.js';
import { fileIdsFromArgs } from './file-by-name.js';

export default function deleteCommand(run = runDelete): Command {
  return new Command('delete')
    .aliases(['rm'])
    .description("soft-delete files: gone at once from lists and from the assistant's context")
    .argument('[id...]', 'file ids or names; `-` reads whitespace-separated ids from stdin')
    .addOption(statusOption(FILE_STATUSES, 'delete every file in this indexing status'))
    .option('--all', 'delete every file of the workspace')
    .option('-y, --yes', 'do not ask for confirmation (required when not on a terminal)')
    .option('--dry-run', 'show what would be deleted, delete nothing')
    .addHelpText(
      'after',
      `
Deletes up to 4 files at a time, reports each, and exits non-zero if any failed. --status
and --all list every page of the selection before deleting any.

Examples:
  $ kb files delete file_123
  $ kb files delete --status FAILED --yes
  $ kb files list --status FAILED --all --ids | kb files delete --yes -
  $ kb files delete file_1 file_2 --dry-run`,
    )
    .action((ids: string[], opts: DeleteOptions, cmd: Command) => run(Context.for(cmd), ids, opts));
}

export async function runDelete(ctx: Context, args: string[], opts: DeleteOptions): Promise<void> {
  const client = await ctx.client();
  await runBatchDelete(ctx, args, opts, {
    one: 'file',
    many: 'files',
    given: (args) => fileIdsFromArgs(client, ctx.io, args, ctx.signal),
    describe: async (id) => (await client.files.get(id, ctx.signal)).originalFilename,
    remove: (id) => client.files.delete(id, ctx.signal),
    select: (o) => collectIds(client.files.pages({ status: o.status, want: Infinity, signal: ctx.signal })),
  });
}
