import { Command } from 'commander';
import { UsageError } from '../../errors.js';
import { Context } from '../../factory.js';

export default function switchCommand(run = runSwitch): Command {
  return new Command('switch')
    .description('make another stored profile the current one')
    .argument('<profile>', 'profile name')
    .addHelpText('after', '\nExamples:\n  $ kb auth switch staging')
    .action((name: string, _opts: unknown, cmd: Command) => run(Context.for(cmd), name));
}

export async function runSwitch(ctx: Context, name: string): Promise<void> {
  const known = Object.keys(ctx.config.profiles);
  if (!known.includes(name)) {
    throw new UsageError(
      `no profile named "${name}"`,
      known.length ? `profiles: ${known.join(', ')}` : 'log in first: kb auth login --profile NAME',
    );
  }
  await ctx.updateConfig((data) => {
    data.currentProfile = name;
  });
  ctx.note(`${ctx.io.errColor.green('✓')} Now using profile "${name}"`);
}
