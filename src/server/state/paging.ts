/**
 * How a list is ordered: each record's sort key, and how two keys compare. A cursor is the
 * key of the last record a page gave, so the next page starts after it wherever records were
 * added or removed meanwhile: none is skipped or given twice.
 */
export interface ListOrder<T> {
  key(record: T): string[];
  compare(a: string[], b: string[]): number;
}

/** Newest first, then by id (records made in the same millisecond). */
export const NEWEST_FIRST: ListOrder<{ createdAt: string; id: string }> = {
  key: (r) => [r.createdAt, r.id],
  compare: (a, b) => compareStrings(b[0]!, a[0]!) || compareStrings(b[1]!, a[1]!),
};

/** By name (as people sort names), then by id. */
export const BY_NAME: ListOrder<{ name: string; id: string }> = {
  key: (r) => [r.name, r.id],
  compare: (a, b) => a[0]!.localeCompare(b[0]!) || compareStrings(a[1]!, b[1]!),
};

const compareStrings = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Sorts `records` in the list's order (in place) and returns them. */
export function sortBy<T>(records: T[], order: ListOrder<NoInfer<T>>): T[] {
  return records.sort((a, b) => order.compare(order.key(a), order.key(b)));
}

/** The opaque cursor for the page after `record`. */
export function cursorAfter<T>(record: T, order: ListOrder<T>): string {
  return Buffer.from(JSON.stringify(order.key(record))).toString('base64url');
}

export interface PageMeta {
  returned: number;
  limit: number;
  /** The cursor for the next page; null on the last one. */
  nextCursor: string | null;
  hasMore: boolean;
}

/**
 * One page of `sorted` (in `order`): the `limit` records after `cursor`. Lists kept in memory;
 * one read from the database is paged by `pageFrom`.
 */
export function pageOf<T, U>(
  sorted: T[],
  order: ListOrder<NoInfer<T>>,
  limit: number,
  cursor: string[] | undefined,
  present: (record: T) => U,
): { data: U[]; meta: PageMeta } {
  const start = cursor ? positionOf(sorted, order, cursor, true) : 0;
  return pageFrom(sorted.slice(start, start + limit + 1), order, limit, present);
}

/** The page of `limit` records whose list goes on with `following` (up to `limit + 1` records, the first of the page first). */
export function pageFrom<T, U>(
  following: T[],
  order: ListOrder<NoInfer<T>>,
  limit: number,
  present: (record: T) => U,
): { data: U[]; meta: PageMeta } {
  const records = following.slice(0, limit);
  const hasMore = following.length > limit;
  return {
    data: records.map(present),
    meta: {
      returned: records.length,
      limit,
      nextCursor: hasMore ? cursorAfter(records.at(-1)!, order) : null,
      hasMore,
    },
  };
}

/** A list as a window of it is read (web-console/list-window.ts): in memory, or in the database. */
export interface Listing<T> {
  /** How many records it holds. */
  total(): number;
  /** How many records come before the one whose key is `key` (and that one, when `inclusive`). */
  before(key: string[], inclusive: boolean): number;
  /** `size` records from the `start`th (from 0). */
  slice(start: number, size: number): T[];
}

/** `sorted` (in `order`) as a Listing. */
export function listingOf<T>(sorted: T[], order: ListOrder<NoInfer<T>>): Listing<T> {
  return {
    total: () => sorted.length,
    before: (key, inclusive) => positionOf(sorted, order, key, inclusive),
    slice: (start, size) => sorted.slice(start, start + size),
  };
}

/** How many records of `sorted` come before `key` (and at it, when `inclusive`): a binary search. */
function positionOf<T>(sorted: T[], order: ListOrder<T>, key: string[], inclusive: boolean): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    const c = order.compare(order.key(sorted[mid]!), key);
    if (c < 0 || (inclusive && c === 0)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
