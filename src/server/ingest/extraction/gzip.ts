import { basename } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { IndexingError } from '../../state/model.js';
import { DOCX_UNPACKED_LIMIT } from './docx-parts.js';

/** The most one .gz is unpacked to, as for a Word document's parts: a gzip bomb stops there. */
export const GZIP_UNPACKED_LIMIT = DOCX_UNPACKED_LIMIT;

export type Unpacked = { ok: true; bytes: Uint8Array } | { ok: false; error: IndexingError };

/**
 * The bytes a .gz holds (every member, as gunzip writes them), or why not: damaged data is a
 * parse_error, more than GZIP_UNPACKED_LIMIT is too_large (zlib stops as it passes it).
 */
export function gunzip(filename: string, bytes: Uint8Array): Unpacked {
  try {
    return { ok: true, bytes: gunzipSync(bytes, { maxOutputLength: GZIP_UNPACKED_LIMIT }) };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE')
      return {
        ok: false,
        error: {
          code: 'too_large',
          message: `${basename(filename)} unpacks to more than ${GZIP_UNPACKED_LIMIT / 1024 / 1024} MiB, the most kb serve unpacks of one file`,
        },
      };
    return {
      ok: false,
      error: { code: 'parse_error', message: `the gzip data is damaged: ${(err as Error).message}` },
    };
  }
}
