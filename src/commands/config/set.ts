import { Command } from 'commander';
import { Context } from '../../factory.js';
import { SETTINGS, settingKey } from './keys.js';

export default function setCommand(run = runSet): Command {
  return new Command('set')
    .description('change a setting')
    .argument('<key>')
    .argument('<value>')
    .addHelpText('after', '\nExamples:\n  $ kb config set format json\n  $ kb config set timeout 2m')
    .action((key: string, value: string, _opts: unknown, cmd: Command) => run(Context.for(cmd), key, value));
}

export async function runSet(ctx: Context, key: string, value: string): Promise<void> {
  const name = settingKey(key);
  const parsed = SETTINGS[name].parse(value);
  await ctx.updateConfig((data) => {
    (data.settings as Record<string, unknown>)[name] = parsed;
  });
}
