import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const BIN = join(ROOT, 'bin', 'kb.cjs');

export interface RunResult {
  stdout: string;
  stderr: string;
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface RunOptions {
  env?: Record<string, string | undefined>;
  input?: string | Buffer;
  configDir?: string;
  timeoutMs?: number;
  /** Options for node itself, before the script (e.g. --import). */
  nodeArgs?: string[];
  /** Called with the child once spawned (e.g. to send SIGINT). */
  onSpawn?: (child: ChildProcessWithoutNullStreams) => void;
}

export function tempDir(prefix = 'kb-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** One compile cache for the test run, warm after the first commands, as a user's would be. */
const compileCache = tempDir('kb-cache-');

/** A clean environment: nothing from the developer's shell leaks into a test. */
export function baseEnv(
  configDir: string,
  extra: Record<string, string | undefined> = {},
): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    // The run's own temporary folder (test/global-temp.ts), removed when the run ends.
    TMPDIR: process.env.TMPDIR,
    HOME: configDir,
    LANG: 'C.UTF-8',
    KB_CONFIG_DIR: configDir,
    XDG_CACHE_HOME: compileCache,
  };
  for (const [k, v] of Object.entries(extra)) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  return env;
}

/** Collects a child's output until it exits (killed after `timeoutMs`). */
function collect(child: ChildProcessWithoutNullStreams, options: RunOptions): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 20_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ stdout, stderr, code, signal });
    });
    options.onSpawn?.(child);
  });
}

/** Runs the built `kb` binary with piped stdio. */
export function runKb(args: string[], options: RunOptions = {}): Promise<RunResult> {
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), BIN, ...args], {
    env: baseEnv(options.configDir ?? tempDir(), options.env),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const result = collect(child, options);
  child.stdin.end(options.input);
  return result;
}

/** Runs kb recording every module it loads (test/helpers/trace-modules.mjs): file names, URLs, node:x. */
export async function runKbTraced(
  args: string[],
  options: RunOptions & { tty?: boolean } = {},
): Promise<RunResult & { modules: string[] }> {
  const trace = join(tempDir(), 'modules.txt');
  const run = options.tty ? runKbOnTTY : runKb;
  const result = await run(args, {
    ...options,
    env: { ...options.env, KB_TRACE_FILE: trace },
    nodeArgs: ['--import', join(ROOT, 'test/helpers/trace-modules.mjs')],
  });
  const modules = existsSync(trace) ? readFileSync(trace, 'utf8').split('\n').filter(Boolean) : [];
  return { ...result, modules };
}

function shellQuote(arg: string): string {
  return `'${arg.replace(/'/g, `'\\''`)}'`;
}

/**
 * Runs `kb` on a pseudo-terminal (util-linux `script`), so stdin, stdout and stderr are TTYs.
 * Returns the terminal's output (stdout and stderr together, as a user sees them).
 */
export async function runKbOnTTY(
  args: string[],
  options: RunOptions & { columns?: number } = {},
): Promise<RunResult> {
  const argv = [process.execPath, ...(options.nodeArgs ?? []), BIN, ...args];
  const command = `stty cols ${options.columns ?? 100} rows 40 2>/dev/null; ${argv.map(shellQuote).join(' ')}`;
  const child = spawn('script', ['-qefc', command, '/dev/null'], {
    env: baseEnv(options.configDir ?? tempDir(), { TERM: 'xterm-256color', ...options.env }),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const result = collect(child, options);
  if (options.input !== undefined) child.stdin.write(options.input);
  const { stdout, ...rest } = await result;
  return { stdout: stdout.replace(/\r\n/g, '\n'), ...rest };
}

export function stripAnsi(text: string): string {
  return text.replace(/\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b\][^\u0007]*\u0007/g, '');
}
