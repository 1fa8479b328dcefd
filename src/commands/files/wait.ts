import { Command } from 'commander';
import type { KbFile } from '../../api/types.js';
import { CliError, ExitCode, interrupted, UsageError } from '../../errors.js';
import { Context } from '../../factory.js';
import { startSpinner } from '../../io/spinner.js';
import { idsFromArgs } from '../../io/stdin.js';
import { mapSettled } from '../../util/concurrency.js';
import { formatDuration, parseDuration } from '../../util/duration.js';
import { sleep } from '../../util/sleep.js';
import { sanitizeField } from '../../util/sanitize.js';
import { indexingError } from './get.js';

export interface WaitOptions {
  timeout: string;
  interval: string;
}

function duration(name: string, text: string): number {
  const ms = parseDuration(text);
  if (ms === undefined) throw new UsageError(`invalid ${name} "${text}"`, 'use e.g. 2s, 500ms, 10m');
  return ms;
}

export default function waitCommand(): Command {
  return new Command('wait')
    .description(
      'wait until files finish indexing: exit 0 when all COMPLETED, 1 when one FAILED, 124 on timeout',
    )
    .argument('<id...>', 'file ids; `-` reads ids from stdin')
    .option('--timeout <duration>', 'give up after this long (default 10m)')
    .option('--interval <duration>', 'time between checks (default 2s)')
    .addHelpText(
      'after',
      `
On a terminal a spinner shows each file's state; piped, a line "<id> <status>" is printed
for every change of state.

Examples:
  $ kb files wait file_123
  $ kb files list --status PENDING --ids | kb files wait - --timeout 2m --interval 1s`,
    )
    .action((ids: string[], opts: Partial<WaitOptions>, cmd: Command) => {
      // commander hands a --timeout after the verb to the root's global option of that name
      const timeout = (opts.timeout ?? Context.globalOption(cmd, 'timeout') ?? '10m') as string;
      return runWait(Context.for(cmd, { ownsTimeout: true }), ids, {
        timeout,
        interval: opts.interval ?? '2s',
      });
    });
}

export async function runWait(ctx: Context, args: string[], opts: WaitOptions): Promise<void> {
  const timeoutMs = duration('timeout', opts.timeout);
  const intervalMs = duration('interval', opts.interval);
  const { io } = ctx;
  const ids = [...new Set(await idsFromArgs(io, args))];
  if (ids.length === 0) {
    ctx.note('No file ids given: nothing to wait for');
    return;
  }
  const client = await ctx.client();
  const state = new Map<string, KbFile>();
  const started = performance.now();
  const spinner = startSpinner(io, 'Checking files…');
  const human = ctx.format === 'human';
  try {
    for (;;) {
      const pending = ids.filter((id) => {
        const s = state.get(id)?.indexingStatus;
        return s !== 'COMPLETED' && s !== 'FAILED';
      });
      const results = await mapSettled(pending, 4, (id) => client.files.get(id, ctx.signal));
      results.forEach((r, i) => {
        if (!r.ok) throw r.error;
        const id = pending[i]!;
        const before = state.get(id)?.indexingStatus;
        state.set(id, r.value);
        if (before !== r.value.indexingStatus && human && !io.stdoutIsTTY)
          ctx.output.text(`${id}\t${sanitizeField(String(r.value.indexingStatus))}\n`);
      });
      const summary = ids.map((id) => `${id} ${state.get(id)?.indexingStatus ?? '…'}`).join(' · ');
      spinner.update(`${summary} (${formatDuration(performance.now() - started)})`);
      const failed = ids.map((id) => state.get(id)!).find((f) => f.indexingStatus === 'FAILED');
      if (failed) {
        spinner.stop();
        printFinal(ctx, ids, state);
        const error = indexingError(failed);
        throw new CliError(
          `${failed.id} (${failed.originalFilename ?? ''}) failed indexing${error ? `: ${error.code ? `${error.code}: ` : ''}${error.message}` : ''}`,
          ExitCode.failure,
          undefined,
          'indexing_failed',
        );
      }
      if (ids.every((id) => state.get(id)?.indexingStatus === 'COMPLETED')) {
        spinner.stop();
        printFinal(ctx, ids, state);
        if (io.stderrIsTTY)
          io.err(
            `${io.errColor.green('✓')} ${ids.length === 1 ? 'indexed' : `all ${ids.length} indexed`} in ${formatDuration(performance.now() - started)}\n`,
          );
        return;
      }
      const remaining = timeoutMs - (performance.now() - started);
      if (remaining <= 0) {
        spinner.stop();
        const waiting = ids.filter((id) => state.get(id)?.indexingStatus !== 'COMPLETED');
        throw new CliError(
          `timed out after ${formatDuration(timeoutMs)}; still waiting for ${waiting.join(', ')}`,
          ExitCode.timedOut,
        );
      }
      await sleep(Math.min(intervalMs, remaining), ctx.signal).catch(() => {
        throw interrupted();
      });
    }
  } finally {
    spinner.stop();
  }
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
