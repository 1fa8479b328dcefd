import { UsageError } from '../errors.js';
import { humanSize } from './format.js';
import type { IO } from './streams.js';

/** Input that is not bound for one request (ids, webhook payloads) is still bounded. */
const DEFAULT_LIMIT = 64 * 1024 * 1024;

function tooLarge(what: string, limit: number): UsageError {
  return new UsageError(
    `${what} is larger than ${humanSize(limit)} (${limit} bytes); nothing was sent`,
    'the service refuses larger requests; send a shorter text, or split it',
  );
}

/**
 * Reads all of stdin, at most `limit` bytes: one byte more is a usage error, raised as soon as
 * it arrives, so memory stays bounded whatever is piped in. Refuses a terminal, where it
 * would wait silently.
 */
export async function readStdinBytes(io: IO, what = 'input', limit = DEFAULT_LIMIT): Promise<Buffer> {
  if (io.stdinIsTTY) throw new UsageError(`expected ${what} on stdin, but stdin is a terminal`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of io.stdin) {
    const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
    size += bytes.length;
    if (size > limit) throw tooLarge(what, limit);
    chunks.push(bytes);
  }
  return Buffer.concat(chunks);
}

export async function readStdin(io: IO, what = 'input', limit = DEFAULT_LIMIT): Promise<string> {
  return (await readStdinBytes(io, what, limit)).toString('utf8');
}

/**
 * Text given as words on the command line (joined by spaces), or, with none or `-`, read whole
 * from a pipe on stdin (at most `limit` bytes); trimmed. A terminal on stdin with no words is a
 * usage error rather than a silent wait.
 */
export async function wordsOrStdin(
  io: IO,
  words: string[],
  what: string,
  limit = DEFAULT_LIMIT,
): Promise<string> {
  if (words.length === 0 || (words.length === 1 && words[0] === '-')) {
    if (io.stdinIsTTY) throw new UsageError(`no ${what} given`, 'pass it as arguments, or pipe it on stdin');
    return (await readStdin(io, `the ${what}`, limit)).trim();
  }
  return words.join(' ').trim();
}

/** The lines of `input` (without `\n` or `\r\n`), each at most `maxBytes`: a longer one is a usage error. */
export async function* readLines(
  input: NodeJS.ReadableStream,
  what: string,
  maxBytes: number,
): AsyncGenerator<string> {
  let pending: Buffer[] = [];
  let size = 0;
  const line = (last: Buffer) => {
    const text = Buffer.concat([...pending, last]).toString('utf8');
    pending = [];
    size = 0;
    return text.endsWith('\r') ? text.slice(0, -1) : text;
  };
  for await (const chunk of input) {
    const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
    let start = 0;
    for (let end = bytes.indexOf(10, start); end !== -1; end = bytes.indexOf(10, start)) {
      if (size + end - start > maxBytes) throw tooLarge(what, maxBytes);
      yield line(bytes.subarray(start, end));
      start = end + 1;
    }
    const rest = bytes.subarray(start);
    size += rest.length;
    if (size > maxBytes) throw tooLarge(what, maxBytes);
    if (rest.length) pending.push(rest);
  }
  if (size > 0) yield line(Buffer.alloc(0));
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
