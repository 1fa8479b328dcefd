import { chunkSections } from './chunk.js';
import { extractDocument } from './formats.js';
import type { ExtractResult } from './protocol.js';

/** A document's chunks, or why it has none: what the worker does with each document. Never rejects. */
export async function extractChunks(filename: string, bytes: Uint8Array): Promise<ExtractResult> {
  try {
    const extraction = await extractDocument(filename, bytes);
    return extraction.ok ? { ok: true, chunks: chunkSections(extraction.sections) } : extraction;
  } catch (err) {
    return {
      ok: false,
      error: { code: 'parse_error', message: `the file cannot be read: ${(err as Error).message}` },
    };
  }
}
