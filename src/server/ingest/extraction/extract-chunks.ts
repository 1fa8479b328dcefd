import { createHash } from 'node:crypto';
import { indexedText } from '../../search/fts-terms.js';
import { readDocumentFileSync, readFailure } from '../document-file.js';
import { chunkSections } from './chunk.js';
import { extractDocument } from './formats.js';
import type { Extraction, ExtractResult, FileRead, FileToRead } from './protocol.js';
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
): Promise<Extraction> {
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

/**
 * extractChunks of a document's bytes, or of a docs-folder file read first (blocking: the
 * worker's thread is its own), with its size and hash, told to `onRead` before it is extracted
 * (a document that then times out or crashes the worker was read all the same); or why it
 * cannot be read, or that it is gone. What the worker does with a job; tests run it in their
 * thread. Never rejects.
 */
export async function readAndExtract(
  filename: string,
  input: Uint8Array | FileToRead,
  ocr?: OcrReader,
  maxFileBytes?: number,
  onRead?: (read: FileRead) => void,
): Promise<ExtractResult> {
  if (input instanceof Uint8Array) return extractChunks(filename, input, ocr, maxFileBytes);
  let bytes: Buffer;
  try {
    bytes = readDocumentFileSync(input, input.maxBytes);
  } catch (err) {
    const failure = readFailure(err);
    return 'gone' in failure ? { ok: false, gone: true } : { ok: false, error: failure.error };
  }
  const read = { size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') };
  onRead?.(read);
  return { ...(await extractChunks(filename, bytes, ocr, maxFileBytes)), read };
}
