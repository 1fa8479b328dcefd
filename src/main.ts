import { type Command, CommanderError } from 'commander';
import { ExitCode } from './errors.js';
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

  let refused: Command | undefined;
  let code: number = ExitCode.ok;
  try {
    const program = await buildProgram(argv);
    configureTree(program, {
      out: (s) => process.stdout.write(s),
      err: (s) => process.stderr.write(s),
      refused: (command) => (refused = command),
    });
    await program.parseAsync(argv, { from: 'user' });
  } catch (err) {
    code = await report(err, argv, refused);
  }
  if (signalled) code = signalExitCode(signalled);
  await running.context?.close();
  await exitAfterDrain(code);
}

/** Reports `err` once and returns the exit code; `refused` is the command commander refused argv in. */
async function report(err: unknown, argv: string[], refused: Command | undefined): Promise<number> {
  if (err instanceof CommanderError) {
    if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version') return ExitCode.ok;
    // help() asked for (`kb help threads`, `kb threads`): printed on stdout, exit 0
    if (err.code === 'commander.help' && err.exitCode === 0) return ExitCode.ok;
    if (!refused) return ExitCode.usage;
  }
  const { reportError } = await import('./report.js');
  // A usage error comes before any command made a context: one from argv gives it the same colour.
  const ctx = running.context ?? (await import('./factory.js')).Context.beforeCommand(argv);
  let json = argv.includes('--json');
  try {
    // A json format from KB_FORMAT or the setting is for scripts: a person at a terminal still
    // gets an error to read, with its hint.
    json ||= ctx.format === 'json' && !ctx.io.stderrIsTTY;
  } catch {
    // the setting that decides the format may be the thing that failed
  }
  const reported =
    err instanceof CommanderError && refused
      ? (await import('./usage-error.js')).usageErrorFor(err, refused, argv)
      : err;
  return reportError(reported, {
    json,
    debug: ctx.debugEnabled,
    color: ctx.io.errColor,
    write: (s) => process.stderr.write(s),
  });
}
