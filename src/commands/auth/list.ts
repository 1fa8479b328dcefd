import { Command } from 'commander';
import { DEFAULT_PROFILE } from '../../config/schema.js';
import { Context } from '../../factory.js';

interface ProfileRow {
  name: string;
  baseUrl: string | null;
  /** Whether a key is stored (the key itself is never shown). */
  hasKey: boolean;
  current: boolean;
}

export default function listCommand(run = runList): Command {
  return new Command('list')
    .alias('ls')
    .description('list the stored profiles: service URL, whether a key is stored, which is current')
    .addHelpText(
      'after',
      "\nExamples:\n  $ kb auth list\n  $ kb auth list --json | jq -r '.[] | select(.hasKey) | .name'",
    )
    .action((_opts: unknown, cmd: Command) => run(Context.for(cmd)));
}

export async function runList(ctx: Context): Promise<void> {
  const { profiles, currentProfile } = ctx.config;
  const current = currentProfile ?? DEFAULT_PROFILE;
  const rows: ProfileRow[] = Object.entries(profiles).map(([name, p]) => ({
    name,
    baseUrl: p.baseUrl ?? null,
    hasKey: Boolean(p.apiKey),
    current: name === current,
  }));
  const { color } = ctx.io;
  await ctx.output.list(
    rows,
    [
      {
        header: 'PROFILE',
        value: (r) => `${r.current && ctx.output.forPeople ? '* ' : ''}${r.name}`,
        style: (s, r) => (r.current ? color.bold(s) : s),
      },
      { header: 'BASE URL', value: (r) => r.baseUrl ?? '', flex: true },
      { header: 'KEY', value: (r) => (r.hasKey ? 'stored' : 'none') },
      // Piped, the current profile is said in a field of its own (the table marks it with *).
      ...(ctx.output.forPeople
        ? []
        : [{ header: 'CURRENT', value: (r: ProfileRow) => (r.current ? 'current' : '') }]),
    ],
    { empty: 'No profiles yet; log in with `kb auth login`' },
  );
}
