import { UsageError } from '../errors.js';
import type { IO } from '../io/streams.js';
import { readUserFile } from '../util/user-file.js';

/** The raw payload bytes from --payload-file or stdin, unparsed. */
export async function readPayload(io: IO, file: string | undefined): Promise<Buffer> {
  if (file && file !== '-') {
    return readUserFile(file, 'payload file');
  }
  if (io.stdinIsTTY)
    throw new UsageError('no payload given', 'pass --payload-file FILE, or pipe the raw body on stdin');
  const chunks: Buffer[] = [];
  for await (const chunk of io.stdin) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  return Buffer.concat(chunks);
}
