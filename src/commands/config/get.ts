import { Command } from 'commander';
import { CliError, ExitCode } from '../../errors.js';
import { Context } from '../../factory.js';
import { settingKey } from './keys.js';

export default function getCommand(run = runGet): Command {
  return new Command('get')
    .description('print a setting (exit 1 when unset)')
    .argument('<key>')
    .addHelpText('after', '\nExamples:\n  $ kb config get format')
    .action((key: string, _opts: unknown, cmd: Command) => run(Context.for(cmd), key));
}

export async function runGet(ctx: Context, key: string): Promise<void> {
  const value = ctx.config.settings[settingKey(key)];
  if (value === undefined) throw new CliError(`${key} is not set`, ExitCode.failure);
  ctx.output.text(`${value}\n`);
}
