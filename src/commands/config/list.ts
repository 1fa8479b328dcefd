import { Command } from 'commander';
import { Context } from '../../factory.js';
import { SETTINGS } from './keys.js';

export default function listCommand(run = runList): Command {
  return new Command('list')
    .description('print every setting that is set')
    .addHelpText('after', '\nExamples:\n  $ kb config list --json')
    .action((_opts: unknown, cmd: Command) => run(Context.for(cmd)));
}

export async function runList(ctx: Context): Promise<void> {
  const settings = ctx.config.settings;
  ctx.output.record(
    settings,
    Object.keys(SETTINGS).map((k) => [k, settings[k as keyof typeof settings]]),
  );
}
