import type { IndexingError, OcrReport } from '../../state/model.js';
import type { TextChunk } from './chunk.js';

/** A document for the worker: `bytes` is transferred, or shared (then only read). */
export interface WorkerJob {
  id: number;
  filename: string;
  bytes: ArrayBuffer | SharedArrayBuffer;
  offset: number;
  length: number;
}

/**
 * What the worker says of a job: its chunks a part at a time (so that no one message takes
 * long to read on kb serve's event loop), then the end, with the error if it has no text.
 */
export type WorkerMessage =
  | { id: number; chunks: TextChunk[] }
  | { id: number; end: true; error?: IndexingError; ocr?: OcrReport }
  /** A scan's page is about to be recognised (OCR), in order: for the console's progress. */
  | { id: number; page: number; pages: number }
  /** Said once, when it has loaded and listens: a document's deadline starts then, not before. */
  | { ready: true };

export type ExtractResult =
  { ok: true; chunks: TextChunk[]; ocr?: OcrReport } | { ok: false; error: IndexingError };

/** Text in one message of chunks, at most (about). */
export const MESSAGE_TEXT = 1024 * 1024;
