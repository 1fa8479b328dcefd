import { basename } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { IndexingError } from '../../state/model.js';
import { DOCX_UNPACKED_LIMIT } from './docx-parts.js';
import { formatBytes } from '../document-file.js';

/** The most one .gz is unpacked to, as for a Word document's parts: a gzip bomb stops there. */
export const GZIP_UNPACKED_LIMIT = DOCX_UNPACKED_LIMIT;

export type Unpacked = { ok: true; bytes: Uint8Array } | { ok: false; error: IndexingError };

/**
 * The bytes a .gz holds (every member, as gunzip writes them), or why not: damaged data is a
 * parse_error, more than GZIP_UNPACKED_LIMIT or `maxFileBytes` (--max-file-size: a document is
 * as large as its text, not its gzip) is too_large (zlib stops as it passes it).
 */
export function gunzip(filename: string, bytes: Uint8Array, maxFileBytes = Infinity): Unpacked {
  const limit = Math.min(GZIP_UNPACKED_LIMIT, maxFileBytes);
  try {
    return { ok: true, bytes: gunzipSync(bytes, { maxOutputLength: limit }) };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE')
      return {
        ok: false,
        error: {
          code: 'too_large',
          message:
            limit < GZIP_UNPACKED_LIMIT
              ? `${basename(filename)} unpacks to more than ${formatBytes(limit)}, over the limit of ${formatBytes(limit)} (--max-file-size)`
              : `${basename(filename)} unpacks to more than ${GZIP_UNPACKED_LIMIT / 1024 / 1024} MiB, the most kb serve unpacks of one file`,
        },
      };
    return {
      ok: false,
      error: { code: 'parse_error', message: `the gzip data is damaged: ${(err as Error).message}` },
    };
  }
}
