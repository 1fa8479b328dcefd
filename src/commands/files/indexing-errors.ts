import type { KbClient } from '../../api/client.js';
import type { PagingEnd } from '../../api/paging.js';
import type { KbFile, Page } from '../../api/types.js';
import { mapSettled } from '../../util/concurrency.js';
import { indexingError } from './get.js';

/**
 * A list's pages with each FAILED file's `indexingError`: a list record does not carry it (the
 * published interface keeps it for the file's own record), so it is read from there, a few at a
 * time. A file that cannot be read meanwhile (deleted) is listed as it was.
 */
export async function* withIndexingErrors(
  client: KbClient,
  pages: AsyncGenerator<Page<KbFile>, PagingEnd>,
  signal: AbortSignal,
): AsyncGenerator<Page<KbFile>, PagingEnd> {
  for (;;) {
    const next = await pages.next();
    if (next.done) return next.value;
    const page = next.value;
    const missing = page.data.filter((f) => f.indexingStatus === 'FAILED' && !indexingError(f));
    const details = await mapSettled(missing, 4, (f) => client.files.get(f.id, signal));
    const errors = new Map<string, ReturnType<typeof indexingError>>();
    details.forEach((d, i) => {
      if (d.ok) errors.set(missing[i]!.id, indexingError(d.value));
    });
    yield {
      ...page,
      data: page.data.map((f) => (errors.get(f.id) ? { ...f, indexingError: errors.get(f.id) } : f)),
    };
  }
}
