import { UsageError } from '../errors.js';
import type { IO } from './streams.js';

/** Reads all of stdin; refuses when stdin is a terminal, where it would wait silently. */
export async function readStdin(io: IO, what = 'input'): Promise<string> {
  if (io.stdinIsTTY) throw new UsageError(`expected ${what} on stdin, but stdin is a terminal`);
  const chunks: Buffer[] = [];
  for await (const chunk of io.stdin) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  return Buffer.concat(chunks).toString('utf8');
}

/** Ids given as arguments, with `-` standing for whitespace-separated ids on stdin. */
export async function idsFromArgs(io: IO, args: string[]): Promise<string[]> {
  const ids: string[] = [];
  for (const arg of args) {
    if (arg === '-') ids.push(...(await readStdin(io, 'ids')).split(/\s+/).filter(Boolean));
    else ids.push(arg);
  }
  return ids;
}
