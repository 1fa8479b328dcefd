import { Command } from 'commander';
import { Context } from '../../factory.js';

export default function logoutCommand(): Command {
  return new Command('logout')
    .description("remove the profile's stored API key (the service URL is kept)")
    .addHelpText('after', '\nExamples:\n  $ kb auth logout\n  $ kb auth logout --profile staging')
    .action((_opts: unknown, cmd: Command) => runLogout(Context.for(cmd)));
}

export async function runLogout(ctx: Context): Promise<void> {
  const { profile } = ctx.auth;
  if (!ctx.config.profiles[profile]?.apiKey) {
    ctx.note(`Profile "${profile}" has no stored key; nothing to do`);
    return;
  }
  await ctx.updateConfig((data) => {
    const stored = data.profiles[profile];
    if (stored) delete stored.apiKey;
  });
  ctx.note(`${ctx.io.errColor.green('✓')} Logged out of profile "${profile}"`);
  // A warning, not a note: scripts keep authenticating with the variable.
  if (ctx.env.KB_API_KEY) ctx.warn('KB_API_KEY is still set in this environment');
}
