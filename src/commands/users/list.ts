import { Command } from 'commander';
import type { User } from '../../api/types.js';
import { Context } from '../../factory.js';
import { sanitizeField } from '../../util/sanitize.js';
import { addListOptions, type ListOptions, printPages, wanted } from '../shared/list-pages.js';

export default function listCommand(run = runList): Command {
  return addListOptions(
    new Command('list')
      .alias('ls')
      .description('list workspace members, optionally matching a name or e-mail')
      .option('-q, --query <text>', 'only members whose name or e-mail contains this (case-insensitive)'),
  )
    .addHelpText('after', '\nExamples:\n  $ kb users list\n  $ kb users list -q "@orbitdesk.example" --ids')
    .action((opts: UsersListOptions, cmd: Command) => run(Context.for(cmd), opts));
}

export interface UsersListOptions extends ListOptions {
  query?: string;
}

export async function runList(ctx: Context, opts: UsersListOptions): Promise<void> {
  const client = await ctx.client();
  const pages = client.users.pages({ q: opts.query, want: wanted(opts), signal: ctx.signal });
  await printPages<User>(
    ctx,
    pages,
    [
      { header: 'ID', value: (u) => u.id, style: (s) => ctx.io.color.dim(s) },
      { header: 'NAME', value: (u) => u.name, flex: true },
      { header: 'E-MAIL', value: (u) => u.email, flex: true },
      { header: 'JOINED', value: (u) => u.createdAt, time: true },
    ],
    {
      empty: opts.query ? `No members match "${sanitizeField(opts.query)}"` : 'No members',
      noun: 'members',
      opts,
    },
  );
}
