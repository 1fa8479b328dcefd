import { ExitCode } from '../errors.js';

/** Resolves once everything written to `stream` so far has been handed to the OS, or the reader is gone. */
export function drained(stream: NodeJS.WritableStream): Promise<void> {
  const s = stream as NodeJS.WritableStream & { destroyed?: boolean; writableLength?: number };
  if (s.destroyed || !s.writable) return Promise.resolve();
  // Writes complete in order: the callback of an empty write runs after every earlier one.
  return new Promise((resolve) => {
    s.once('close', resolve);
    s.write('', () => {
      s.removeListener('close', resolve);
      resolve();
    });
  });
}

/**
 * The one way kb ends: waits until stdout and stderr have drained (a slow reader gets every
 * byte of any size of output), then exits with `code`.
 */
export async function exitAfterDrain(code: number): Promise<never> {
  await Promise.all([drained(process.stdout), drained(process.stderr)]);
  return process.exit(code);
}

/** Ends at once: the reader of stdout has gone away (EPIPE), so nothing more can be delivered. */
export function exitNow(code: number = ExitCode.ok): never {
  return process.exit(code);
}
