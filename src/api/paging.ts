import type { Query } from './client.js';
import type { Page } from './types.js';

/** A page to ask for: a path under the base URL and its query. */
export interface PageRequest {
  path: string;
  query: Query;
}

/** What the service answered for one page. */
export interface PageAnswer {
  headers: Record<string, string>;
  body: unknown;
  page: Page<unknown>;
}

/**
 * How the next page is to be asked for, by what the answer says; services page in different
 * ways and kb follows each: an RFC 8288 `Link: <…>; rel="next"` header, a `next` URL in the body
 * (`next`, `links.next`, `meta.next`), a cursor (`meta.nextCursor`/`next_cursor`; Stripe's
 * `has_more` with `starting_after` the last id), an offset (`meta.offset` with `total`), or a
 * page number (`meta.page` with `totalPages`). `last` when the answer says there is no more;
 * `unknown` when it says nothing of paging; `foreign` for a next URL on another origin, never
 * followed (the API key would go with it).
 */
export type NextPage =
  | { kind: 'next'; request: PageRequest }
  | { kind: 'last' }
  | { kind: 'unknown' }
  | { kind: 'foreign'; url: string };

const record = (v: unknown): Record<string, unknown> | undefined =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
const count = (v: unknown): number | undefined =>
  typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? v : undefined;

export function nextPage(baseUrl: string, current: PageRequest, answer: PageAnswer): NextPage {
  const body = record(answer.body);
  const meta = record(body?.meta) ?? {};
  const returned = answer.page.data.length;

  const link = linkNext(answer.headers.link);
  if (link) return fromUrl(baseUrl, current, link);
  const nextUrl = [body?.next, record(body?.links)?.next, meta.next].find((v) => typeof v === 'string');
  if (typeof nextUrl === 'string') return fromUrl(baseUrl, current, nextUrl);

  const cursor = [meta.nextCursor, meta.next_cursor].find((v) => typeof v === 'string' && v !== '');
  if (typeof cursor === 'string') return withQuery(current, { cursor });
  if (meta.nextCursor === null || meta.next_cursor === null || meta.hasMore === false)
    return { kind: 'last' };

  const hasMore = body?.has_more ?? meta.has_more;
  if (typeof hasMore === 'boolean') {
    const last = answer.page.data.at(-1) as { id?: unknown } | undefined;
    if (!hasMore || typeof last?.id !== 'string') return { kind: 'last' };
    return withQuery(current, { starting_after: last.id });
  }

  const offset = count(meta.offset);
  if (offset !== undefined) {
    const total = count(meta.total) ?? count(meta.totalCount) ?? count(meta.total_count);
    const limit = count(meta.limit);
    const more = total !== undefined ? offset + returned < total : limit !== undefined && returned >= limit;
    return more && returned > 0 ? withQuery(current, { offset: offset + returned }) : { kind: 'last' };
  }

  const page = count(meta.page);
  if (page !== undefined) {
    const pages = count(meta.totalPages) ?? count(meta.total_pages) ?? count(meta.pages);
    const limit = count(meta.limit) ?? count(meta.per_page) ?? count(meta.perPage);
    const more = pages !== undefined ? page < pages : limit !== undefined && returned >= limit;
    return more && returned > 0 ? withQuery(current, { page: page + 1 }) : { kind: 'last' };
  }
  return { kind: 'unknown' };
}

function withQuery(current: PageRequest, query: Query): NextPage {
  return { kind: 'next', request: { path: current.path, query: { ...current.query, ...query } } };
}

/** The target of a `rel="next"` link in a Link header. */
export function linkNext(header: string | undefined): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(/,(?=\s*<)/)) {
    const match = /^\s*<([^>]*)>(.*)$/.exec(part);
    if (match && /;\s*rel\s*=\s*"?(?:[^";]*\s)?next(?:\s[^";]*)?"?\s*(?:;|$)/i.test(match[2]!))
      return match[1];
  }
  return undefined;
}

/** A next URL (absolute, or relative to the page it came with) as a request under the base URL. */
function fromUrl(baseUrl: string, current: PageRequest, next: string): NextPage {
  const base = new URL(baseUrl.replace(/\/*$/, '/'));
  let url: URL;
  try {
    url = new URL(next, new URL(current.path.replace(/^\//, ''), base));
  } catch {
    return { kind: 'foreign', url: next };
  }
  const prefix = base.pathname.replace(/\/$/, '');
  if (url.origin !== base.origin || !url.pathname.startsWith(`${prefix}/`))
    return { kind: 'foreign', url: url.href };
  const query: Query = {};
  for (const [key, value] of url.searchParams) query[key] = value;
  return { kind: 'next', request: { path: url.pathname.slice(prefix.length), query } };
}

/** One request's identity, to notice a service that gives the same page again. */
export function requestKey(request: PageRequest): string {
  const entries = Object.entries(request.query)
    .filter(([, v]) => v !== undefined && v !== '')
    .map(([k, v]) => `${k}=${String(v)}`)
    .sort();
  return `${request.path}?${entries.join('&')}`;
}

/** How paging ended: every record given, more left (the caller's count was reached), or why it stopped. */
export type PagingEnd =
  | { kind: 'complete' }
  | { kind: 'more' }
  /** The service says nothing of paging; `full` when the page was as long as the limit (more may exist). */
  | { kind: 'unknown'; full: boolean }
  /** The service asked for a page it had given already. */
  | { kind: 'repeated' }
  | { kind: 'foreign'; url: string };

/** The most records asked for in one request (the service's maximum). */
export const PAGE_SIZE = 100;

interface Pager {
  baseUrl: string;
  request(req: { method: 'GET'; path: string; query: Query; signal?: AbortSignal }): Promise<{
    headers: Record<string, string>;
    body: unknown;
  }>;
}

/**
 * Pages of a list until `want` records (Infinity: all of them), each as it arrives, following
 * whatever paging the service speaks (see nextPage). Every page asks for the same limit (page
 * numbers count in it); the last is cut to `want`. Returns how it ended.
 */
export async function* paginate<T>(
  client: Pager,
  first: PageRequest,
  want: number,
  toPage: (body: unknown, limit: number) => Page<T>,
  signal?: AbortSignal,
): AsyncGenerator<Page<T>, PagingEnd> {
  const limit = Math.min(PAGE_SIZE, want);
  let request: PageRequest = { path: first.path, query: { ...first.query, limit } };
  const asked = new Set([requestKey(request)]);
  let got = 0;
  for (;;) {
    const res = await client.request({ method: 'GET', path: request.path, query: request.query, signal });
    const page = toPage(res.body, limit);
    const take = page.data.slice(0, want - got);
    got += take.length;
    yield { data: take, meta: page.meta };
    const next = nextPage(client.baseUrl, request, { headers: res.headers, body: res.body, page });
    // As long as the limit applied: more may follow. Longer: the service ignored the limit and
    // gave everything it has.
    const full = page.data.length === (page.meta.limit ?? limit);
    if (got >= want) {
      if (take.length < page.data.length || next.kind === 'next') return { kind: 'more' };
      return next.kind === 'unknown' ? { kind: 'unknown', full } : { kind: 'complete' };
    }
    if (next.kind === 'last') return { kind: 'complete' };
    if (next.kind === 'unknown') return { kind: 'unknown', full };
    if (next.kind === 'foreign') return next;
    if (page.data.length === 0) return { kind: 'complete' };
    const key = requestKey(next.request);
    if (asked.has(key)) return { kind: 'repeated' };
    asked.add(key);
    request = next.request;
  }
}
