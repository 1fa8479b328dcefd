import { Command } from 'commander';
import type { KbClient } from '../../api/client.js';
import type { KbFile } from '../../api/types.js';
import { CliError, ExitCode, interrupted, UsageError } from '../../errors.js';
import { Context } from '../../factory.js';
import { startSpinner } from '../../io/spinner.js';
import { fileIdsFromArgs } from './file-by-name.js';
import { mapSettled } from '../../util/concurrency.js';
import { formatDuration, parseDuration } from '../../util/duration.js';
import { sleep } from '../../util/sleep.js';
import { sanitizeField } from '../../util/sanitize.js';
import { indexingError } from './get.js';
import { collectIds } from '../shared/batch-delete.js';

export interface WaitOptions {
  timeout: string;
  interval: string;
  /** Every file, whatever their number: one already FAILED fails the wait too. */
  all?: boolean;
}

/** More files than this are followed by listing every page each round rather than one request per file. */
const BY_ID = 50;

function duration(name: string, text: string): number {
  const ms = parseDuration(text);
  if (ms === undefined) throw new UsageError(`invalid ${name} "${text}"`, 'use e.g. 2s, 500ms, 10m');
  return ms;
}

export default function waitCommand(run = runWait): Command {
  return new Command('wait')
    .description(
      'wait until files finish indexing: exit 0 when all COMPLETED, 1 when one FAILED (each named), 124 on timeout',
    )
    .argument('[id...]', 'file ids or names; `-` reads ids from stdin')
    .option(
      '--all',
      'every file: wait for those not yet indexed; exit 1 if one has FAILED, already or meanwhile',
    )
    .option('--timeout <duration>', 'give up after this long (default 10m)')
    .option('--interval <duration>', 'longest time between checks, the first ones sooner (default 2s)')
    .addHelpText(
      'after',
      `
On a terminal a spinner shows each file's state; piped, a line "<id> <status> <name>"
(tab-separated) is printed for every change of state. With --all, files added while it
waits are waited for too.

Examples:
  $ kb files wait file_123
  $ kb files wait --all --timeout 2m --interval 1s
  $ kb files list --status FAILED --all --ids | kb files wait -`,
    )
    .action((ids: string[], opts: Partial<WaitOptions>, cmd: Command) => {
      // commander hands a --timeout after the verb to the root's global option of that name
      const timeout = (opts.timeout ?? Context.globalOption(cmd, 'timeout') ?? '10m') as string;
      return run(Context.for(cmd, { ownsTimeout: true }), ids, {
        timeout,
        interval: opts.interval ?? '2s',
        all: opts.all,
      });
    });
}

export async function runWait(ctx: Context, args: string[], opts: WaitOptions): Promise<void> {
  const timeoutMs = duration('timeout', opts.timeout);
  const intervalMs = duration('interval', opts.interval);
  const { io } = ctx;
  if (opts.all && args.length) throw new UsageError('give file ids or --all, not both');
  if (!opts.all && args.length === 0)
    throw new UsageError('no files given', 'name them by id, `-` to read ids from stdin, or --all');
  const client = await ctx.client();
  let ids = opts.all
    ? await notCompleted(client, ctx.signal)
    : [...new Set(await fileIdsFromArgs(client, io, args, ctx.signal))];
  const state = new Map<string, KbFile>();
  if (ids.length === 0) {
    ctx.note(
      opts.all ? 'Every file is indexed: nothing to wait for' : 'No file ids given: nothing to wait for',
    );
    // A script reading JSON gets JSON: no file waited for is an empty list.
    if (ctx.format !== 'human') printFinal(ctx, ids, state);
    return;
  }
  const started = performance.now();
  // Most files are indexed in well under the interval: the first checks come sooner, then each
  // after twice the time, up to --interval.
  let soon = FIRST_CHECK_MS;
  const spinner = startSpinner(io, 'Checking files…');
  const human = ctx.format === 'human';
  try {
    for (let round = 0; ; round++) {
      // Files added meanwhile (a docs folder still being scanned, another upload) are waited for too.
      if (opts.all && round > 0) ids = [...new Set([...ids, ...(await notCompleted(client, ctx.signal))])];
      const pending = ids.filter((id) => !isDone(state.get(id)));
      for (const [id, file] of await latest(client, pending, ctx.signal)) {
        const before = state.get(id)?.indexingStatus;
        state.set(id, file);
        if (before !== file.indexingStatus && human && !io.stdoutIsTTY)
          ctx.output.text(
            `${id}\t${sanitizeField(String(file.indexingStatus))}\t${sanitizeField(file.originalFilename ?? '')}\n`,
          );
      }
      const summary =
        ids.length > 3
          ? ['COMPLETED', 'FAILED']
              .map(
                (status) =>
                  `${ids.filter((id) => state.get(id)?.indexingStatus === status).length} ${status}`,
              )
              .concat(`${ids.length} files`)
              .join(' · ')
          : ids.map((id) => `${id} ${state.get(id)?.indexingStatus ?? '…'}`).join(' · ');
      spinner.update(`${summary} (${formatDuration(performance.now() - started)})`);
      const failed = ids.map((id) => state.get(id)!).filter((f) => f.indexingStatus === 'FAILED');
      const remaining = timeoutMs - (performance.now() - started);
      // Every file is waited for, so that all that failed are named at once.
      if (ids.every((id) => isDone(state.get(id))) || (failed.length && remaining <= 0)) {
        spinner.stop();
        printFinal(ctx, ids, state);
        if (failed.length) throw await failure(client, failed, ctx.signal);
        if (io.stderrIsTTY)
          io.err(
            `${io.errColor.green('✓')} ${ids.length === 1 ? 'indexed' : `all ${ids.length} indexed`} in ${formatDuration(performance.now() - started)}\n`,
          );
        return;
      }
      if (remaining <= 0) {
        spinner.stop();
        const waiting = ids.filter((id) => state.get(id)?.indexingStatus !== 'COMPLETED');
        throw new CliError(
          `timed out after ${formatDuration(timeoutMs)}; still waiting for ${waiting.join(', ')}`,
          ExitCode.timedOut,
        );
      }
      await sleep(Math.min(soon, intervalMs, remaining), ctx.signal).catch(() => {
        throw interrupted();
      });
      soon *= 2;
    }
  } finally {
    spinner.stop();
  }
}

/** How soon after the first check the second comes (see `soon`). */
const FIRST_CHECK_MS = 250;

const isDone = (file: KbFile | undefined) =>
  file?.indexingStatus === 'COMPLETED' || file?.indexingStatus === 'FAILED';

/** The files that FAILED, each with its reason (the first few; the rest counted), as one error. */
async function failure(client: KbClient, failed: KbFile[], signal: AbortSignal): Promise<CliError> {
  const NAMED = 3;
  const named = await Promise.all(
    failed.slice(0, NAMED).map(async (file) => {
      // A listed record may not carry the reason: the file's own does.
      const error = indexingError('indexingError' in file ? file : await client.files.get(file.id, signal));
      return {
        who: `${file.id} (${file.originalFilename ?? ''})`,
        reason: error ? `: ${error.code ? `${error.code}: ` : ''}${error.message}` : '',
      };
    }),
  );
  const [first] = named;
  const message =
    failed.length === 1
      ? `${first!.who} failed indexing${first!.reason}`
      : `${failed.length} files failed indexing: ${named.map((f) => f.who + f.reason).join('; ')}${
          failed.length > NAMED ? `; and ${failed.length - NAMED} more (kb files list --status FAILED)` : ''
        }`;
  return new CliError(message, ExitCode.failure, undefined, 'indexing_failed');
}

function printFinal(ctx: Context, ids: string[], state: Map<string, KbFile>) {
  const files = ids.map((id) => state.get(id)!);
  // Piped, each change of state has been printed already.
  if (ctx.format === 'human' && !ctx.io.stdoutIsTTY) return;
  ctx.output.result(files, {
    line: (f) => `${f.id}  ${f.originalFilename ?? ''}  ${f.indexingStatus}`,
    fields: (f) => [f.id, f.indexingStatus],
  });
}

/** The files not COMPLETED, every page of them: those FAILED already are failures of --all too. */
async function notCompleted(client: KbClient, signal: AbortSignal): Promise<string[]> {
  const ids: string[] = [];
  for (const status of ['FAILED', 'PENDING', 'PROCESSING'])
    ids.push(...(await collectIds(client.files.pages({ status, want: Infinity, signal }))));
  return [...new Set(ids)];
}

/**
 * The files' current records: one request each for a few, every page of the list for many (a
 * file not listed any more was deleted: 404, as a request for it would say).
 */
async function latest(client: KbClient, ids: string[], signal: AbortSignal): Promise<Map<string, KbFile>> {
  const found = new Map<string, KbFile>();
  if (ids.length <= BY_ID) {
    const results = await mapSettled(ids, 4, (id) => client.files.get(id, signal));
    results.forEach((r, i) => {
      if (!r.ok) throw r.error;
      found.set(ids[i]!, r.value);
    });
    return found;
  }
  const wanted = new Set(ids);
  for await (const page of client.files.pages({ want: Infinity, signal }))
    for (const file of page.data) if (wanted.has(file.id)) found.set(file.id, file);
  const gone = ids.find((id) => !found.has(id));
  if (gone) await client.files.get(gone, signal);
  return found;
}
