import { Command } from 'commander';
import { DEFAULT_PROFILE } from '../../config/schema.js';
import { Context } from '../../factory.js';

interface LogoutOptions {
  forget?: boolean;
}

export default function logoutCommand(run = runLogout): Command {
  return new Command('logout')
    .description(
      "remove the profile's stored API key (the service URL is kept; --forget removes the profile)",
    )
    .option('--forget', 'remove the whole profile: its URL, key and saved webhook secrets')
    .addHelpText(
      'after',
      '\nExamples:\n  $ kb auth logout\n  $ kb auth logout --profile staging\n  $ kb auth logout --profile old --forget',
    )
    .action((opts: LogoutOptions, cmd: Command) => run(Context.for(cmd), opts));
}

export async function runLogout(ctx: Context, opts: LogoutOptions = {}): Promise<void> {
  const { profile } = ctx.auth;
  const stored = ctx.config.profiles[profile];
  if (opts.forget) {
    if (!stored) {
      ctx.note(`No profile named "${profile}"; nothing to do`);
      return;
    }
    const wasCurrent = (ctx.config.currentProfile ?? DEFAULT_PROFILE) === profile;
    await ctx.updateConfig((data) => {
      delete data.profiles[profile];
      if (data.currentProfile === profile) delete data.currentProfile;
    });
    ctx.note(
      `${ctx.io.errColor.green('✓')} Removed profile "${profile}"${wasCurrent && profile !== DEFAULT_PROFILE ? ` (now using "${DEFAULT_PROFILE}")` : ''}`,
    );
  } else {
    if (!stored?.apiKey) {
      ctx.note(`Profile "${profile}" has no stored key; nothing to do`);
      return;
    }
    await ctx.updateConfig((data) => {
      const entry = data.profiles[profile];
      if (entry) delete entry.apiKey;
    });
    ctx.note(`${ctx.io.errColor.green('✓')} Logged out of profile "${profile}"`);
  }
  // A warning, not a note: scripts keep authenticating with the variable.
  if (ctx.env.KB_API_KEY) ctx.warn('KB_API_KEY is still set in this environment');
}
