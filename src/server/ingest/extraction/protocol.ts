import type { IndexingError, OcrReport } from '../../state/model.js';
import type { SeenFile } from '../document-file.js';
import type { TextChunk } from './chunk.js';

/**
 * A docs-folder file the worker reads itself, as the scan saw it (see readDocumentFile): read on
 * kb serve's event loop, a file waited there behind each batch being stored.
 */
export interface FileToRead extends SeenFile {
  /** Its size when scanned. */
  size: number;
  maxBytes: number;
}

/** What the worker read of a FileToRead: how a restart tells it unchanged. */
export interface FileRead {
  size: number;
  /** SHA-256 of its bytes (hex). */
  sha256: string;
}

/** A document for the worker: `bytes` is transferred, or shared (then only read); or a file to read. */
export type WorkerJob = { id: number; filename: string } & (
  { bytes: ArrayBuffer | SharedArrayBuffer; offset: number; length: number } | { file: FileToRead }
);

/**
 * What the worker says of a job: its chunks a part at a time (so that no one message takes
 * long to read on kb serve's event loop), then the end, with the error if it has no text.
 */
export type WorkerMessage =
  | { id: number; chunks: TextChunk[] }
  | { id: number; end: true; error?: IndexingError; ocr?: OcrReport; gone?: true }
  /** A FileToRead was read (before it is extracted). */
  | { id: number; read: FileRead }
  /** A scan's page is about to be recognised (OCR), in order: for the console's progress. */
  | { id: number; page: number; pages: number }
  /** Said once, when it has loaded and listens: a document's deadline starts then, not before. */
  | { ready: true };

/** A document's chunks, or why it has none. */
export type Extraction =
  { ok: true; chunks: TextChunk[]; ocr?: OcrReport } | { ok: false; error: IndexingError };

/** An extraction and, of a FileToRead, what was read; or that the file is gone. */
export type ExtractResult =
  | (Extraction & { read?: FileRead; gone?: undefined })
  | { ok: false; gone: true; error?: undefined; read?: undefined };

/** Text in one message of chunks, at most (about). */
export const MESSAGE_TEXT = 1024 * 1024;
