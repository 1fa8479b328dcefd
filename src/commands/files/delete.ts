import { Command } from 'commander';
import type { KbFile } from '../../api/types.js';
import { AbortedError } from '../../api/errors.js';
import { CliError, ExitCode, type ItemFailure, PartialFailure, UsageError } from '../../errors.js';
import { Context } from '../../factory.js';
import { ask } from '../../io/prompt.js';
import { idsFromArgs } from '../../io/stdin.js';
import { exitCodeFor } from '../../report.js';
import { mapSettled, type Settled } from '../../util/concurrency.js';
import { sanitizeField } from '../../util/sanitize.js';

export interface DeleteOptions {
  yes?: boolean;
  dryRun?: boolean;
}

const CONCURRENCY = 4;

export default function deleteCommand(): Command {
  return new Command('delete')
    .aliases(['rm'])
    .description("soft-delete files: gone at once from lists and from the assistant's context")
    .argument('<id...>', 'file ids; `-` reads whitespace-separated ids from stdin')
    .option('-y, --yes', 'do not ask for confirmation (required when not on a terminal)')
    .option('--dry-run', 'show what would be deleted, delete nothing')
    .addHelpText(
      'after',
      `
Deletes up to ${CONCURRENCY} files at a time, reports each, and exits non-zero if any failed.

Examples:
  $ kb files delete file_123
  $ kb files list --status FAILED --ids | kb files delete --yes -
  $ kb files delete file_1 file_2 --dry-run`,
    )
    .action((ids: string[], opts: DeleteOptions, cmd: Command) => runDelete(Context.for(cmd), ids, opts));
}

export async function runDelete(ctx: Context, args: string[], opts: DeleteOptions): Promise<void> {
  const { io } = ctx;
  const ids = [...new Set(await idsFromArgs(io, args))];
  if (ids.length === 0) {
    // As `xargs -r`: `kb files list --status FAILED --ids | kb files delete --yes -` with
    // nothing failed is a successful no-op.
    ctx.note('No file ids given: nothing to delete');
    return;
  }
  if (!opts.yes && !opts.dryRun && !io.canPrompt) {
    throw new UsageError(
      `refusing to delete ${ids.length} file${ids.length === 1 ? '' : 's'} without --yes when not on a terminal`,
    );
  }
  const client = await ctx.client();

  let names = new Map<string, string>();
  if (opts.dryRun || !opts.yes) {
    const found = await mapSettled(ids, CONCURRENCY, (id) => client.files.get(id, ctx.signal));
    names = new Map(found.flatMap((r, i) => (r.ok ? [[ids[i]!, (r.value as KbFile).originalFilename]] : [])));
    const missing = failuresOf(ids, found);
    if (opts.dryRun) {
      ctx.output.result(
        ids
          .filter((id) => names.has(id))
          .map((id) => ({ id, originalFilename: names.get(id)!, wouldDelete: true })),
        {
          line: (f) => `would delete ${f.id}  ${f.originalFilename}`,
          fields: (f) => ['would-delete', f.id, f.originalFilename],
        },
      );
      throwFailures(missing, ids.length, 'not found');
      return;
    }
    const listing = ids
      .map(
        (id) =>
          `  ${sanitizeField(id)}  ${names.has(id) ? sanitizeField(names.get(id)!) : io.errColor.red('(not found)')}`,
      )
      .join('\n');
    io.err(`About to delete ${ids.length} file${ids.length === 1 ? '' : 's'}:\n${listing}\n`);
    const ok = await ask(io, 'confirmation', (prompts, context) =>
      prompts.confirm(
        {
          message: `Delete ${ids.length === 1 ? 'this file' : `these ${ids.length} files`}?`,
          default: false,
        },
        context,
      ),
    );
    if (!ok) throw new CliError('nothing deleted', ExitCode.failure);
  }

  const results = await mapSettled(ids, CONCURRENCY, (id) => client.files.delete(id, ctx.signal));
  ctx.output.result(
    ids.filter((_, i) => results[i]!.ok).map((id) => ({ id, deleted: true })),
    {
      line: (r) =>
        `${io.color.green('✓')} deleted ${r.id}${names.has(r.id) ? ` (${sanitizeField(names.get(r.id)!)})` : ''}`,
      fields: (r) => ['deleted', r.id],
    },
  );
  throwFailures(failuresOf(ids, results), ids.length, 'not deleted');
}

function failuresOf(ids: string[], results: Settled<unknown>[]): ItemFailure[] {
  return results.flatMap((r, i) => (r.ok ? [] : [{ id: ids[i]!, error: r.error }]));
}

function throwFailures(failures: ItemFailure[], total: number, what: string): void {
  if (failures.length === 0) return;
  const aborted = failures.find((f) => f.error instanceof AbortedError);
  if (aborted) throw aborted.error;
  throw new PartialFailure(
    `${failures.length} of ${total} ${what}`,
    failures,
    exitCodeFor(failures[0]!.error),
  );
}
