import { spawn } from 'node:child_process';
import { BIN, baseEnv } from './cli.js';

export interface ServeProcess {
  child: ReturnType<typeof spawn>;
  url: string;
  stdout: () => string;
  stderr: () => string;
}

/**
 * `kb serve` as its own process (so it can be killed with SIGKILL), resolved once it listens.
 * With `--json` (the default) its stderr's indexing lines are JSON; `human: true` runs it without.
 */
export function startServeProcess(
  dir: string,
  args: string[],
  env: Record<string, string> = {},
  { human = false } = {},
): Promise<ServeProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [BIN, 'serve', '--port', '0', ...(human ? [] : ['--json']), ...args],
      {
        env: baseEnv(dir, env),
      },
    );
    let out = '';
    let err = '';
    child.stderr!.on('data', (d) => (err += d));
    child.stdout!.on('data', (d) => {
      out += d;
      if (!out.includes('\n')) return;
      const url = human
        ? /listening on (\S+)/.exec(out)![1]!
        : (JSON.parse(out.split('\n')[0]!) as { url: string }).url;
      resolve({ child, url, stdout: () => out, stderr: () => err });
    });
    child.on('exit', (code) => reject(new Error(`serve exited ${code}: ${err}`)));
  });
}

/** Runs `kb serve` expecting it to refuse to start; resolves with its exit code and stderr. */
export function serveRefusal(
  dir: string,
  args: string[],
): Promise<{ code: number | null; stderr: string; stdout: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', ...args], { env: baseEnv(dir) });
    let stderr = '';
    let stdout = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.stdout.on('data', (d) => {
      stdout += d;
      child.kill('SIGTERM');
    });
    child.on('exit', (code) => resolve({ code, stderr, stdout }));
  });
}
