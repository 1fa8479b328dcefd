import { readFileSync } from 'node:fs';
import { UsageError } from '../errors.js';
import type { IO } from '../io/streams.js';

/** The raw payload bytes from --payload-file or stdin, unparsed. */
export async function readPayload(io: IO, file: string | undefined): Promise<Buffer> {
  if (file && file !== '-') {
    try {
      return readFileSync(file);
    } catch (err) {
      throw new UsageError(
        `cannot read payload file ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
      );
    }
  }
  if (io.stdinIsTTY)
    throw new UsageError('no payload given', 'pass --payload-file FILE, or pipe the raw body on stdin');
  const chunks: Buffer[] = [];
  for await (const chunk of io.stdin) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  return Buffer.concat(chunks);
}
