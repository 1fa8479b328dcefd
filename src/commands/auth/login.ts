import { Command } from 'commander';
import { AuthenticationError } from '../../api/errors.js';
import { checkBaseUrl } from '../../config/resolve.js';
import { CliError, ExitCode, UsageError } from '../../errors.js';
import { Context } from '../../factory.js';
import { ask } from '../../io/prompt.js';
import { readStdin } from '../../io/stdin.js';

interface LoginOptions {
  withKey?: boolean;
}

export default function loginCommand(run = runLogin): Command {
  return (
    new Command('login')
      .description('store an API key for a profile, after checking it with the service')
      .option('--with-key', 'read the API key from stdin instead of asking')
      .addHelpText(
        'after',
        `
Examples:
  $ kb auth login --base-url https://kb.example.com
  $ kb auth login --profile staging --base-url https://staging.kb.example.com
  $ printf '%s' "$KB_KEY" | kb auth login --with-key --base-url http://127.0.0.1:4010`,
      )
      // A key typed as an argument is in ps and the shell's history: said so, rather than "too many arguments".
      .allowExcessArguments(true)
      .action((opts: LoginOptions, cmd: Command) => {
        if (cmd.args.length)
          throw new UsageError(
            'an API key is never taken as an argument (ps and your shell history would keep it)',
            'type it when asked, or pipe it: printf \'%s\' "$KB_KEY" | kb auth login --with-key',
          );
        return run(Context.for(cmd), opts);
      })
  );
}

export async function runLogin(ctx: Context, opts: LoginOptions): Promise<void> {
  const { io } = ctx;
  const { profile } = ctx.auth;
  const stored = ctx.config.profiles[profile];
  let baseUrl = ctx.options.baseUrl ?? ctx.env.KB_BASE_URL ?? stored?.baseUrl;
  if (!baseUrl) {
    if (opts.withKey || !io.canPrompt) throw new UsageError('no service URL given', 'pass --base-url URL');
    baseUrl = await ask(io, 'the service URL', (prompts, context) =>
      prompts.input({ message: 'Service URL:', validate: (v) => Boolean(v.trim()) || 'required' }, context),
    );
  }
  baseUrl = checkBaseUrl(baseUrl.trim(), ctx.options.insecure);

  let apiKey: string;
  if (opts.withKey) {
    apiKey = (await readStdin(io, 'the API key')).trim();
  } else {
    if (!io.canPrompt) {
      throw new UsageError(
        'no terminal to ask for the API key',
        'pipe it in: printf %s "$KEY" | kb auth login --with-key',
      );
    }
    apiKey = (
      await ask(io, 'the API key', (prompts, context) =>
        prompts.password({ message: 'API key:', mask: true }, context),
      )
    ).trim();
  }
  if (!apiKey) throw new UsageError('the API key is empty');
  if (/\s/.test(apiKey)) throw new UsageError('the API key must not contain whitespace');

  const client = await ctx.client({ apiKey, baseUrl });
  try {
    await client.users.list({ limit: 1, signal: ctx.signal });
  } catch (err) {
    if (err instanceof AuthenticationError) {
      throw new CliError(`the service at ${baseUrl} refused this API key; nothing was saved`, ExitCode.auth);
    }
    throw err;
  } finally {
    await client.close();
  }

  await ctx.updateConfig((data) => {
    data.profiles[profile] = { ...data.profiles[profile], baseUrl, apiKey };
    data.currentProfile = profile;
  });
  ctx.note(`${io.errColor.green('✓')} Logged in to ${baseUrl} as profile "${profile}"`);
}
