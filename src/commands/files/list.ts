import { Command } from 'commander';
import { FILE_STATUSES, type KbFile } from '../../api/types.js';
import { Context } from '../../factory.js';
import { addListOptions, notePage, type StatusListOptions, statusOption } from '../shared/options.js';
import { fileColumns } from './columns.js';

export default function listCommand(): Command {
  return addListOptions(
    new Command('list')
      .alias('ls')
      .description('list the documents of the workspace, newest first')
      .addOption(statusOption(FILE_STATUSES, 'files in this indexing status')),
  )
    .addHelpText(
      'after',
      "\nExamples:\n  $ kb files list --status FAILED\n  $ kb files list --jsonl --limit 100 | jq -c '{id, indexingStatus}'",
    )
    .action((opts: StatusListOptions, cmd: Command) => runList(Context.for(cmd), opts));
}

export async function runList(ctx: Context, opts: StatusListOptions): Promise<void> {
  const client = await ctx.client();
  const page = await client.files.list({ status: opts.status, limit: opts.limit, signal: ctx.signal });
  await ctx.output.list<KbFile>(page.data, fileColumns(ctx.io), {
    empty: opts.status ? `No ${opts.status} files` : 'No files yet; upload documents in the web interface',
  });
  notePage(ctx, page, opts.limit, 'files');
}
