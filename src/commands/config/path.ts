import { Command } from 'commander';
import { Context } from '../../factory.js';

export default function pathCommand(run = runPath): Command {
  return new Command('path')
    .description('print the path of the config file')
    .addHelpText('after', '\nExamples:\n  $ kb config path')
    .action((_opts: unknown, cmd: Command) => run(Context.for(cmd)));
}

export async function runPath(ctx: Context): Promise<void> {
  ctx.output.text(`${ctx.configPath}\n`);
}
