import { AbortedError } from '../../api/errors.js';
import { CliError, ExitCode, type ItemFailure, PartialFailure, UsageError } from '../../errors.js';
import type { Context } from '../../factory.js';
import { ask } from '../../io/prompt.js';
import { idsFromArgs } from '../../io/stdin.js';
import { exitCodeFor } from '../../report.js';
import { mapSettled, type Settled } from '../../util/concurrency.js';
import { sanitizeField } from '../../util/sanitize.js';

export interface DeleteOptions {
  yes?: boolean;
  dryRun?: boolean;
  /** Every record, or (files) every one in this status: listed a page at a time first. */
  all?: boolean;
  status?: string;
}

/** What a delete verb deletes: how to name, find and remove one, and how to select many. */
export interface DeleteTarget {
  one: string;
  many: string;
  /** What a person knows the record by (a file's name, a webhook's URL); rejects when there is none. */
  describe(id: string): Promise<string>;
  remove(id: string): Promise<void>;
  /** The ids of the records given (ids or, where a record has one, names; `-` reads ids from stdin). */
  given?(args: string[]): Promise<string[]>;
  /** The ids `--all` (or `--status`) selects, every page of them. */
  select?(opts: DeleteOptions): Promise<string[]>;
  /** After the deletes that succeeded. */
  after?(deleted: string[]): Promise<void>;
}

const CONCURRENCY = 4;
/** A confirmation names this many records, then counts the rest. */
const LISTED = 20;

/**
 * Deletes the records named by ids (`-` reads any number from stdin) or selected by --all or
 * --status: confirmed on a terminal (or --yes), shown but not done with --dry-run, up to four
 * at a time; each one reported, and the first failure's exit code when any failed.
 */
export async function runBatchDelete(
  ctx: Context,
  args: string[],
  opts: DeleteOptions,
  target: DeleteTarget,
): Promise<void> {
  const { io } = ctx;
  const selecting = Boolean(opts.all || opts.status);
  if (selecting && args.length)
    throw new UsageError(`give ${target.many} by id or select them with --all/--status, not both`);
  if (!selecting && args.length === 0)
    throw new UsageError(
      `no ${target.many} given`,
      `name them by id, \`-\` to read ids from stdin, or --all`,
    );
  if (selecting && !opts.yes && !opts.dryRun && !io.canPrompt)
    throw new UsageError(`refusing to delete ${target.many} without --yes when not on a terminal`);
  const count = (n: number) => `${n} ${n === 1 ? target.one : target.many}`;
  // Refused before the records given are looked up; ids on stdin are read first (none is a no-op).
  if (!selecting && !args.includes('-') && !opts.yes && !opts.dryRun && !io.canPrompt)
    throw new UsageError(`refusing to delete ${count(args.length)} without --yes when not on a terminal`);
  const ids = selecting
    ? await target.select!(opts)
    : [...new Set(await (target.given ? target.given(args) : idsFromArgs(io, args)))];
  if (ids.length === 0) {
    // As `xargs -r`: a pipeline that selected nothing is a successful no-op.
    ctx.note(`No ${target.many} ${selecting ? 'selected' : 'given'}: nothing to delete`);
    return;
  }
  if (!opts.yes && !opts.dryRun && !io.canPrompt)
    throw new UsageError(`refusing to delete ${count(ids.length)} without --yes when not on a terminal`);

  let names = new Map<string, string>();
  if (opts.dryRun || !opts.yes) {
    const found = await mapSettled(ids, CONCURRENCY, (id) => target.describe(id));
    names = new Map(found.flatMap((r, i) => (r.ok ? [[ids[i]!, r.value as string]] : [])));
    const missing = failuresOf(ids, found);
    if (opts.dryRun) {
      ctx.output.result(
        ids.filter((id) => names.has(id)).map((id) => ({ id, name: names.get(id)!, wouldDelete: true })),
        { line: (r) => `would delete ${r.id}  ${r.name}`, fields: (r) => ['would-delete', r.id, r.name] },
      );
      throwFailures(missing, ids.length, 'not found');
      return;
    }
    // Nothing to confirm when none of them is there.
    if (names.size === 0) throwFailures(missing, ids.length, 'not found');
    const listing = ids
      .slice(0, LISTED)
      .map(
        (id) =>
          `  ${sanitizeField(id)}  ${names.has(id) ? sanitizeField(names.get(id)!) : io.errColor.red('(not found)')}\n`,
      )
      .join('');
    const more = ids.length > LISTED ? `  and ${ids.length - LISTED} more\n` : '';
    io.err(`About to delete ${count(ids.length)}:\n${listing}${more}`);
    const ok = await ask(io, 'confirmation', (prompts, context) =>
      prompts.confirm(
        {
          message: `Delete ${ids.length === 1 ? `this ${target.one}` : `these ${count(ids.length)}`}?`,
          default: false,
        },
        context,
      ),
    );
    if (!ok) throw new CliError('nothing deleted', ExitCode.failure);
  }

  const results = await mapSettled(ids, CONCURRENCY, (id) => target.remove(id));
  const deleted = ids.filter((_, i) => results[i]!.ok);
  await target.after?.(deleted);
  ctx.output.result(
    deleted.map((id) => ({ id, deleted: true })),
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

/** Every id of a list's pages. */
export async function collectIds(pages: AsyncIterable<{ data: { id: string }[] }>): Promise<string[]> {
  const ids: string[] = [];
  for await (const page of pages) for (const record of page.data) ids.push(record.id);
  return ids;
}
