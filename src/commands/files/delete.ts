import { Command } from 'commander';
import type { KbFile } from '../../api/types.js';
import { UsageError } from '../../errors.js';
import { Context } from '../../factory.js';
import { loadPrompts } from '../../io/prompt.js';
import { idsFromArgs } from '../../io/stdin.js';
import { exitCodeFor } from '../../report.js';
import { mapSettled } from '../../util/concurrency.js';
import { sanitizeField } from '../../util/sanitize.js';

interface DeleteOptions {
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
  if (ids.length === 0) throw new UsageError('no file ids given');
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
    const missing = found.flatMap((r, i) => (r.ok ? [] : [{ id: ids[i]!, error: r.error }]));
    if (opts.dryRun) {
      for (const id of ids) {
        if (names.has(id))
          io.out(
            `${io.stdoutIsTTY ? 'would delete ' : 'would-delete\t'}${id}\t${sanitizeField(names.get(id)!)}\n`,
          );
      }
      for (const m of missing) io.err(`${io.errColor.red('✗')} ${m.id}: ${(m.error as Error).message}\n`);
      if (missing.length) process.exitCode = exitCodeFor(missing[0]!.error);
      return;
    }
    const listing = ids
      .map(
        (id) => `  ${id}  ${names.has(id) ? sanitizeField(names.get(id)!) : io.errColor.red('(not found)')}`,
      )
      .join('\n');
    io.err(`About to delete ${ids.length} file${ids.length === 1 ? '' : 's'}:\n${listing}\n`);
    const { prompts, context } = await loadPrompts(io, 'confirmation');
    const ok = await prompts.confirm(
      { message: `Delete ${ids.length === 1 ? 'this file' : `these ${ids.length} files`}?`, default: false },
      context,
    );
    if (!ok) {
      io.err('Nothing deleted\n');
      process.exitCode = 1;
      return;
    }
  }

  const results = await mapSettled(ids, CONCURRENCY, (id) => client.files.delete(id, ctx.signal));
  const report = results.map((r, i) => ({
    id: ids[i]!,
    deleted: r.ok,
    error: r.ok ? undefined : (r.error as Error).message,
  }));
  if (ctx.format === 'json' || ctx.format === 'jsonl') {
    io.out(
      ctx.format === 'json'
        ? `${JSON.stringify(report, null, 2)}\n`
        : report.map((r) => `${JSON.stringify(r)}\n`).join(''),
    );
  } else {
    for (const r of report) {
      if (!r.deleted) continue;
      if (ctx.format === 'ids') io.out(`${r.id}\n`);
      else if (io.stdoutIsTTY)
        io.out(
          `${io.color.green('✓')} deleted ${r.id}${names.has(r.id) ? ` (${sanitizeField(names.get(r.id)!)})` : ''}\n`,
        );
      else io.out(`deleted\t${r.id}\n`);
    }
  }
  const failures = results.flatMap((r, i) => (r.ok ? [] : [{ id: ids[i]!, error: r.error }]));
  for (const f of failures) io.err(`${io.errColor.red('✗')} ${f.id}: ${(f.error as Error).message}\n`);
  if (failures.length) {
    if (failures.some((f) => (f.error as Error).name === 'AbortedError')) throw failures[0]!.error;
    io.err(`${failures.length} of ${ids.length} not deleted\n`);
    process.exitCode = exitCodeFor(failures[0]!.error);
  }
}
