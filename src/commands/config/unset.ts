import { Command } from 'commander';
import { Context } from '../../factory.js';
import { settingKey } from './keys.js';

export default function unsetCommand(): Command {
  return new Command('unset')
    .description('remove a setting, back to its default')
    .argument('<key>')
    .addHelpText('after', '\nExamples:\n  $ kb config unset format')
    .action(async (key: string, _opts: unknown, cmd: Command) => {
      const ctx = Context.for(cmd);
      const name = settingKey(key);
      await ctx.updateConfig((data) => {
        delete data.settings[name];
      });
    });
}
