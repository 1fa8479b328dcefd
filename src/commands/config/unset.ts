import { Command } from 'commander';
import { Context } from '../../factory.js';
import { settingKey } from './keys.js';

export default function unsetCommand(run = runUnset): Command {
  return new Command('unset')
    .description('remove a setting, back to its default')
    .argument('<key>')
    .addHelpText('after', '\nExamples:\n  $ kb config unset format')
    .action((key: string, _opts: unknown, cmd: Command) => run(Context.for(cmd), key));
}

export async function runUnset(ctx: Context, key: string): Promise<void> {
  const name = settingKey(key);
  await ctx.updateConfig((data) => {
    delete data.settings[name];
  });
}
