import { Command } from 'commander';
import { Context, loadClientClass } from '../../factory.js';
import { exitNow } from '../../io/exit.js';
import { sanitizeField } from '../../util/sanitize.js';

const KINDS = ['threads', 'files', 'webhooks', 'profiles'] as const;

/**
 * `kb __complete <kind>`: candidates for shell completion, one per line as `id<TAB>description`.
 * Answers within about a second or prints nothing: short timeout, no retries, no prompts,
 * never an error message.
 */
export default function completeCommand(): Command {
  return new Command('__complete')
    .description('(for shell completion) print candidate ids')
    .argument('<kind>', KINDS.join('|'))
    .action(async (kind: string, _opts: unknown, cmd: Command) => {
      const ctx = Context.for(cmd);
      const out = (rows: [string, string][]) =>
        ctx.output.text(rows.map(([id, d]) => `${sanitizeField(id)}\t${sanitizeField(d)}\n`).join(''));
      try {
        if (kind === 'profiles') return out(Object.keys(ctx.config.profiles).map((p) => [p, 'profile']));
        if (!(KINDS as readonly string[]).includes(kind)) return;
        const KbClient = await loadClientClass();
        const auth = ctx.auth;
        if (!auth.apiKey) return;
        const client = new KbClient({
          baseUrl: ctx.baseUrl(),
          apiKey: auth.apiKey,
          timeoutOverrideMs: 900,
          maxRetries: 0,
        });
        const deadline = setTimeout(() => exitNow(0), 1000);
        deadline.unref();
        try {
          if (kind === 'threads')
            out(
              (await client.threads.list({ limit: 100 })).data.map((t) => [t.id, `${t.title} (${t.status})`]),
            );
          if (kind === 'files')
            out(
              (await client.files.list({ limit: 100 })).data.map((f) => [
                f.id,
                `${f.originalFilename} (${f.indexingStatus})`,
              ]),
            );
          if (kind === 'webhooks') out((await client.webhooks.list()).data.map((w) => [w.id, w.url]));
        } finally {
          await client.close();
        }
      } catch {
        // completion must never print errors into the user's command line
      }
    });
}
