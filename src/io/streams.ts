import { isatty } from 'node:tty';
import { Chalk, type ChalkInstance } from 'chalk';
import { type ColorSetting, colorLevel } from './color.js';

/** What the process may do with its streams: colour, prompts, spinners, terminal width. */
export interface IO {
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  stdout: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  stderr: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  env: NodeJS.ProcessEnv;
  stdinIsTTY: boolean;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  /** Prompts allowed: stdin and stderr are terminals and CI is not set. */
  canPrompt: boolean;
  /** Spinners and progress allowed on stderr. */
  showProgress: boolean;
  /** Colour for stdout. */
  color: ChalkInstance;
  /** Colour for stderr. */
  errColor: ChalkInstance;
  columns: number;
  out(text: string): void;
  err(text: string): void;
}

export function isCI(env: NodeJS.ProcessEnv): boolean {
  return Boolean(env.CI && env.CI !== '0' && env.CI !== 'false');
}

export function createIO(
  options: { noColor?: boolean; colorSetting?: ColorSetting; env?: NodeJS.ProcessEnv } = {},
): IO {
  const env = options.env ?? process.env;
  // process.stdin and process.stderr are made on first use; most commands never read stdin,
  // and a command that succeeds quietly never writes to stderr.
  const { stdout } = process;
  const stdinIsTTY = isatty(0);
  const stdoutIsTTY = Boolean(stdout.isTTY);
  const stderrIsTTY = isatty(2);
  const ci = isCI(env);
  const level = (isTTY: boolean) =>
    colorLevel({ env, isTTY, noColorFlag: options.noColor, setting: options.colorSetting });
  return {
    get stdin() {
      return process.stdin;
    },
    stdout,
    get stderr() {
      return process.stderr;
    },
    env,
    stdinIsTTY,
    stdoutIsTTY,
    stderrIsTTY,
    canPrompt: stdinIsTTY && stderrIsTTY && !ci,
    showProgress: stderrIsTTY && !ci,
    color: new Chalk({ level: level(stdoutIsTTY) }),
    errColor: new Chalk({ level: level(stderrIsTTY) }),
    columns: stdout.columns || Number(env.COLUMNS) || 80,
    out: (text) => stdout.write(text),
    err: (text) => process.stderr.write(text),
  };
}
