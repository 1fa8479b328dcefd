import { createHash } from 'node:crypto';
import { indexedText } from '../../search/fts-terms.js';
import { DocumentReadError, readDocumentFileSync } from '../document-file.js';
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
 * A docs-folder file's bytes, read by the thread that extracts them (blocking: the worker's
 * thread is its own), with their size and hash; or why it cannot be read, or that it is gone.
 */
export function readFileToRead(
  file: FileToRead,
): { ok: true; bytes: Buffer; read: FileRead } | Exclude<ExtractResult, { ok: true }> {
  let bytes: Buffer;
  try {
    bytes = readDocumentFileSync(file, file.maxBytes);
  } catch (err) {
    if (err instanceof DocumentReadError) return { ok: false, error: err.error };
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { ok: false, gone: true };
    return {
      ok: false,
      error: { code: 'unreadable', message: `cannot read the file: ${code ?? String(err)}` },
    };
  }
  return {
    ok: true,
    bytes,
    read: { size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') },
  };
}

/** extractChunks of a document's bytes, or of a docs-folder file read first: the worker's job, in this thread. */
export async function readAndExtract(
  filename: string,
  input: Uint8Array | FileToRead,
  ocr?: OcrReader,
  maxFileBytes?: number,
): Promise<ExtractResult> {
  if (input instanceof Uint8Array) return extractChunks(filename, input, ocr, maxFileBytes);
  const file = readFileToRead(input);
  if (!file.ok) return file;
  return { ...(await extractChunks(filename, file.bytes, ocr, maxFileBytes)), read: file.read };
}
