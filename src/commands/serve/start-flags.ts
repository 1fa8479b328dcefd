/**
 * kb serve's V8 flags given at its start. V8 sizes the young generation when it creates the heap,
 * so `--max-semi-space-size` set at run time leaves kb serve's own heap as it is (its new space
 * grew to 32 MB indexing 20,000 documents, with the flag set). Where Node can replace a process
 * with another (process.execve: Node 22.15 and later, not Windows), kb serve starts itself again,
 * in the same process, with the flags (and the C library's allocator's settings, which it reads
 * only at a process's start); elsewhere they are set at run time, as before.
 */

/** A flag's name, `--max-semi-space-size=4` → `max-semi-space-size` (V8 reads `_` as `-`). */
const flagName = (flag: string): string => flag.replace(/^--/, '').split('=')[0]!.replaceAll('_', '-');

/**
 * Of `wanted`, the flags this process was not started with, by name: a flag the user gave Node
 * (on its command line or in NODE_OPTIONS), with whatever value, is theirs.
 */
export function flagsMissing(
  wanted: readonly string[],
  execArgv: readonly string[],
  nodeOptions = '',
): string[] {
  const given = new Set(
    [...execArgv, ...nodeOptions.split(/\s+/)].filter((arg) => arg.startsWith('--')).map(flagName),
  );
  return wanted.filter((flag) => !given.has(flagName(flag)));
}

type Execve = (file: string, args: string[], env: NodeJS.ProcessEnv) => never;

/**
 * Replaces this process with itself started with `wanted`'s missing flags, and `environment`'s
 * variables the user has not set, where Node can; returns when there are no flags missing or it
 * cannot. Call it before anything is written, listened on or locked: nothing but standard input,
 * output and error outlives the replacement.
 */
export function restartWithFlags(
  wanted: readonly string[],
  proc: NodeJS.Process = process,
  environment: Readonly<Record<string, string>> = {},
): void {
  const execve = (proc as unknown as { execve?: Execve }).execve;
  if (typeof execve !== 'function' || proc.platform === 'win32') return;
  const missing = flagsMissing(wanted, proc.execArgv, proc.env.NODE_OPTIONS);
  if (!missing.length) return;
  try {
    execve.call(proc, proc.execPath, [proc.execPath, ...missing, ...proc.execArgv, ...proc.argv.slice(1)], {
      ...environment,
      ...proc.env,
    });
  } catch {
    // Not replaced (the system refused): the flags are set at run time instead.
  }
}
