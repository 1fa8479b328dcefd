import { CommanderError } from 'commander';
import { ExitCode } from './errors.js';
import { buildProgram, configureTree } from './program.js';
import { running } from './running.js';

function commanderExitCode(err: CommanderError): number {
  if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version') return ExitCode.ok;
  return ExitCode.usage;
}

/** Runs kb with argv (without node and script); exits the process with the right code. */
export async function main(argv: string[]): Promise<void> {
  let interrupted = false;
  process.on('SIGINT', () => {
    // First Ctrl-C cancels the request in flight; the command then exits 130. A second one,
    // or a command that does not stop at once, ends the process.
    if (interrupted) process.exit(ExitCode.interrupted);
    interrupted = true;
    running.context?.abort();
    setTimeout(() => process.exit(ExitCode.interrupted), 150).unref();
  });
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(ExitCode.ok);
  });

  let code: number = ExitCode.ok;
  let json = argv.includes('--json');
  try {
    const program = await buildProgram(argv);
    configureTree(program, { out: (s) => process.stdout.write(s), err: (s) => process.stderr.write(s) });
    await program.parseAsync(argv, { from: 'user' });
    json = Boolean(program.opts().json);
    code = typeof process.exitCode === 'number' ? process.exitCode : ExitCode.ok;
  } catch (err) {
    if (err instanceof CommanderError) code = commanderExitCode(err);
    else {
      const ctx = running.context;
      const { reportError } = await import('./report.js');
      // eslint-disable-next-line no-restricted-syntax -- chalk is bundled: this import loads a chunk
      const { Chalk } = await import('chalk');
      const color = ctx ? ctx.io.errColor : new Chalk({ level: 0 });
      let wantsJson = json;
      try {
        wantsJson ||= ctx?.format === 'json';
      } catch {
        // the config that decides the format may be the thing that failed
      }
      code = reportError(err, {
        json: wantsJson,
        debug: ctx?.debugEnabled ?? argv.includes('--debug'),
        color,
        write: (s) => process.stderr.write(s),
      });
    }
    if (interrupted) code = ExitCode.interrupted;
  }
  await running.context?.close();
  process.exit(code);
}
