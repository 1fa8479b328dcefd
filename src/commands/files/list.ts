import { Command } from 'commander';
import { FILE_STATUSES, type KbFile } from '../../api/types.js';
import { Context } from '../../factory.js';
import { addListOptions, printPages, wanted } from '../shared/list-pages.js';
import { type StatusListOptions, statusOption } from '../shared/options.js';
import { fileColumns } from './columns.js';
import { withIndexingErrors } from './indexing-errors.js';

export default function listCommand(run = runList): Command {
  return addListOptions(
    new Command('list')
      .alias('ls')
      .description('list the documents of the workspace, newest first')
      .addOption(statusOption(FILE_STATUSES, 'files in this indexing status')),
  )
    .addHelpText(
      'after',
      "\nExamples:\n  $ kb files list --status FAILED\n  $ kb files list --all --jsonl | jq -c '{id, indexingStatus}'",
    )
    .action((opts: StatusListOptions, cmd: Command) => run(Context.for(cmd), opts));
}

export async function runList(ctx: Context, opts: StatusListOptions): Promise<void> {
  const client = await ctx.client();
  const listed = client.files.pages({ status: opts.status, want: wanted(opts), signal: ctx.signal });
  // Ids alone need no reasons: `kb files list --status FAILED --ids | kb files delete -` stays one request a page.
  const pages = ctx.format === 'ids' ? listed : withIndexingErrors(client, listed, ctx.signal);
  await printPages<KbFile>(ctx, pages, fileColumns(ctx.io, opts.status), {
    empty: opts.status
      ? `No ${opts.status} files`
      : 'No files yet; upload some with `kb files upload FILE` (kb serve) or in the web app',
    noun: 'files',
    opts,
  });
}
