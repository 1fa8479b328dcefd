import { isatty } from 'node:tty';
import { Chalk, type ChalkInstance } from 'chalk';
import { type ColorSetting, colorLevel } from './color.js';

/** The three standard streams and what they are connected to. */
export interface Streams {
  readonly stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  readonly stdout: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  readonly stderr: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  readonly stdinIsTTY: boolean;
  readonly stdoutIsTTY: boolean;
  readonly stderrIsTTY: boolean;
}

/** The process's streams: the one place that reads them (stdin and stderr are made on first use). */
export function processStreams(): Streams {
  return {
    get stdin() {
      return process.stdin;
    },
    stdout: process.stdout,
    get stderr() {
      return process.stderr;
    },
    stdinIsTTY: isatty(0),
    stdoutIsTTY: Boolean(process.stdout.isTTY),
    stderrIsTTY: isatty(2),
  };
}

/** What the process may do with its streams: colour, prompts, spinners, terminal width. */
export interface IO extends Streams {
  env: NodeJS.ProcessEnv;
  /** Prompts allowed: stdin and stderr are terminals and CI is not set. */
  canPrompt: boolean;
  /** Spinners and progress allowed on stderr. */
  showProgress: boolean;
  /** Colour for stdout. */
  color: ChalkInstance;
  /** Colour for stderr. */
  errColor: ChalkInstance;
  /** The terminal's width now (it changes when the window is resized). */
  readonly columns: number;
  /** Writes to stdout: for the output layer (io/output.ts) and the chat REPL's screen only. */
  out(text: string | Uint8Array): void;
  /** Writes to stderr: messages, progress, errors. */
  err(text: string): void;
}

export function isCI(env: NodeJS.ProcessEnv): boolean {
  return Boolean(env.CI && env.CI !== '0' && env.CI !== 'false');
}

export function createIO(
  streams: Streams,
  options: { noColor?: boolean; colorSetting?: ColorSetting; env: NodeJS.ProcessEnv },
): IO {
  const { env } = options;
  const ci = isCI(env);
  const level = (isTTY: boolean) =>
    colorLevel({ env, isTTY, noColorFlag: options.noColor, setting: options.colorSetting });
  return {
    get stdin() {
      return streams.stdin;
    },
    get stdout() {
      return streams.stdout;
    },
    get stderr() {
      return streams.stderr;
    },
    env,
    stdinIsTTY: streams.stdinIsTTY,
    stdoutIsTTY: streams.stdoutIsTTY,
    stderrIsTTY: streams.stderrIsTTY,
    canPrompt: streams.stdinIsTTY && streams.stderrIsTTY && !ci,
    showProgress: streams.stderrIsTTY && !ci,
    color: new Chalk({ level: level(streams.stdoutIsTTY) }),
    errColor: new Chalk({ level: level(streams.stderrIsTTY) }),
    get columns() {
      return streams.stdout.columns || streams.stderr.columns || Number(env.COLUMNS) || 80;
    },
    out: (text) => void streams.stdout.write(text),
    err: (text) => void streams.stderr.write(text),
  };
}
