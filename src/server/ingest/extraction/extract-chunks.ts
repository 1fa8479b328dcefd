import { indexedText } from '../../search/fts-terms.js';
import { chunkSections } from './chunk.js';
import { extractDocument } from './formats.js';
import type { ExtractResult } from './protocol.js';
import type { OcrReader } from './scanned-pages.js';

/**
 * A document's chunks with their search terms, or why it has none: what the worker does with
 * each document (tokenizing there keeps it off kb serve's event loop). Never rejects.
 */
export async function extractChunks(
  filename: string,
  bytes: Uint8Array,
  ocr?: OcrReader,
  /** --max-file-size, which a .gz's unpacked bytes are held to too. */
  maxFileBytes?: number,
): Promise<ExtractResult> {
  try {
    const extraction = await extractDocument(filename, bytes, ocr, maxFileBytes);
    if (!extraction.ok) return extraction;
    const chunks = chunkSections(extraction.sections).map((chunk) => ({
      ...chunk,
      indexed: indexedText(chunk.text),
    }));
    return extraction.ocr ? { ok: true, chunks, ocr: extraction.ocr } : { ok: true, chunks };
  } catch (err) {
    return {
      ok: false,
      error: { code: 'parse_error', message: `the file cannot be read: ${(err as Error).message}` },
    };
  }
}
