import { parseCursor } from '../http/validate.js';
import { cursorAfter, type Listing, type ListOrder } from '../state/paging.js';

/** Where a page of a list starts: after a record (going older) or before one (going newer). */
export interface WindowQuery {
  after?: string;
  before?: string;
}

/** The part of a list a console page shows, and the cursors of its neighbours. */
export interface ListWindow<T> {
  records: T[];
  /** The position of the first record shown, from 0. */
  start: number;
  total: number;
  /** The cursor for `?before=` (the newer records), or null on the first page. */
  newer: string | null;
  /** The cursor for `?after=` (the older records), or null on the last page. */
  older: string | null;
}

/**
 * `size` records of `list` (in `order`): the first ones, those after the cursor `after`, or
 * those just before the cursor `before`. Cursors are keys of records, as the API's, so a page
 * stays put while records are added above it. A cursor that is not one of ours, or past the
 * end, gives the nearest full page rather than an error: this is a page a person reads.
 */
export function windowOf<T>(
  list: Listing<T>,
  order: ListOrder<NoInfer<T>>,
  size: number,
  query: WindowQuery,
): ListWindow<T> {
  const total = list.total();
  let start = 0;
  const after = lenient(query.after);
  const before = lenient(query.before);
  if (after) start = list.before(after, true);
  else if (before) start = list.before(before, false) - size;
  if (start >= total) start = total - size;
  start = Math.max(0, start);
  const records = list.slice(start, size);
  return {
    records,
    start,
    total,
    newer: start > 0 && records.length ? cursorAfter(records[0]!, order) : null,
    older: start + size < total ? cursorAfter(records.at(-1)!, order) : null,
  };
}

function lenient(raw: string | undefined): string[] | undefined {
  try {
    return parseCursor(raw);
  } catch {
    return undefined;
  }
}
