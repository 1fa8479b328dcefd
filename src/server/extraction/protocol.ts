import type { IndexingError } from '../model.js';
import type { TextChunk } from './chunk.js';

/** A document for the worker; `bytes` is transferred. */
export interface WorkerJob {
  id: number;
  filename: string;
  bytes: ArrayBuffer;
}

export type WorkerResult = { id: number } & (
  { ok: true; chunks: TextChunk[] } | { ok: false; error: IndexingError }
);

export type ExtractResult = { ok: true; chunks: TextChunk[] } | { ok: false; error: IndexingError };
