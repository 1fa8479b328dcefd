import { Command } from 'commander';
import { THREAD_STATUSES, type Thread } from '../../api/types.js';
import { Context } from '../../factory.js';
import { colorStatus } from '../../io/format.js';
import { addListOptions, printPages, wanted } from '../shared/list-pages.js';
import { type StatusListOptions, statusOption } from '../shared/options.js';

export default function listCommand(run = runList): Command {
  return addListOptions(
    new Command('list')
      .alias('ls')
      .description('list recent threads, newest first')
      .addOption(statusOption(THREAD_STATUSES, 'threads in this status')),
  )
    .addHelpText(
      'after',
      "\nExamples:\n  $ kb threads list\n  $ kb threads list --status OPEN --limit 10\n  $ kb threads list --all --jsonl > threads.jsonl\n  $ kb threads list --json | jq -r '.[].title'",
    )
    .action((opts: StatusListOptions, cmd: Command) => run(Context.for(cmd), opts));
}

export async function runList(ctx: Context, opts: StatusListOptions): Promise<void> {
  const client = await ctx.client();
  const pages = client.threads.pages({ status: opts.status, want: wanted(opts), signal: ctx.signal });
  await printPages<Thread>(
    ctx,
    pages,
    [
      { header: 'ID', value: (t) => t.id, style: (s) => ctx.io.color.dim(s) },
      { header: 'TITLE', value: (t) => t.title, flex: true },
      { header: 'STATUS', value: (t) => t.status, style: (s) => colorStatus(ctx.io.color, s) },
      { header: 'CREATED', value: (t) => t.createdAt, time: true },
    ],
    {
      empty: opts.status ? `No ${opts.status} threads` : 'No threads yet; start one with `kb chat`',
      noun: 'threads',
      opts,
    },
  );
}
