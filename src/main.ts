import { CommanderError } from 'commander';
import { ExitCode, UsageError } from './errors.js';
import { exitAfterDrain, exitNow } from './io/exit.js';
import { type SignalName, Signals, signalExitCode } from './io/signals.js';
import { buildProgram, configureTree, splitShortValues } from './program.js';
import { running } from './running.js';

/** How long a command has to stop by itself after Ctrl-C before kb ends it. */
const INTERRUPT_GRACE_MS = 150;

/**
 * Runs kb with argv (without node and script) and ends the process: the one exit path. Commands
 * throw typed errors; they are reported here, once, and kb exits once stdout and stderr drain.
 */
export async function main(given: string[]): Promise<void> {
  const argv = splitShortValues(given);
  let signalled: SignalName | undefined;
  running.signals = new Signals((signal) => {
    // Without a command's own trap: the first signal cancels the request in flight and the
    // command exits by itself; a second, or a command that does not stop at once, ends kb.
    if (signalled) exitNow(signalExitCode(signal));
    signalled = signal;
    running.context?.abort();
    setTimeout(() => void exitAfterDrain(signalExitCode(signal)), INTERRUPT_GRACE_MS).unref();
  }).listen();
  // The reader went away (`kb … | head`): nothing more can be delivered.
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') exitNow(ExitCode.ok);
  });

  const json = argv.includes('--json');
  let usage = '';
  let code: number = ExitCode.ok;
  try {
    const program = await buildProgram(argv);
    configureTree(program, {
      out: (s) => process.stdout.write(s),
      // With --json, commander's own usage errors are reported as JSON below.
      err: (s) => (json ? (usage += s) : process.stderr.write(s)),
    });
    await program.parseAsync(argv, { from: 'user' });
  } catch (err) {
    code = await report(err, argv, usage);
  }
  if (signalled) code = signalExitCode(signalled);
  await running.context?.close();
  await exitAfterDrain(code);
}

async function report(err: unknown, argv: string[], usage: string): Promise<number> {
  if (err instanceof CommanderError) {
    if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version') return ExitCode.ok;
    // help() asked for (`kb help threads`, `kb threads`): printed on stdout, exit 0
    if (err.code === 'commander.help' && err.exitCode === 0) return ExitCode.ok;
    if (!usage) return ExitCode.usage;
  }
  const { reportError } = await import('./report.js');
  const ctx = running.context;
  let json = argv.includes('--json');
  try {
    // A json format from KB_FORMAT or the setting is for scripts: a person at a terminal still
    // gets an error to read, with its hint.
    json ||= ctx?.format === 'json' && !ctx.io.stderrIsTTY;
  } catch {
    // the setting that decides the format may be the thing that failed
  }
  const reported =
    err instanceof CommanderError
      ? new UsageError(
          usage.replace(/^error: /, '').split('\n')[0] ?? err.message,
          'run with --help for usage',
        )
      : err;
  // eslint-disable-next-line no-restricted-syntax -- chalk is bundled: this import loads a chunk
  const { Chalk } = await import('chalk');
  return reportError(reported, {
    json,
    debug: ctx?.debugEnabled ?? argv.includes('--debug'),
    color: ctx ? ctx.io.errColor : new Chalk({ level: 0 }),
    write: (s) => process.stderr.write(s),
  });
}
