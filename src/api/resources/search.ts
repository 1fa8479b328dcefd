import { extension } from '../extension.js';
import type { SearchHit, SearchResult } from '../types.js';
import { Resource } from './base.js';

export interface SearchParams {
  /** The question. */
  q: string;
  /** How many chunks (kb serve: 1 to 50, default 10). */
  limit?: number;
  /** Read the question as a follow-up in this thread. */
  threadId?: string;
  signal?: AbortSignal;
}

export class SearchResource extends Resource {
  /**
   * The passages retrieved for a question, ranked: an extension kb serve offers
   * (`GET /v1/search`); a service without it is an UnsupportedError.
   */
  async search(params: SearchParams): Promise<SearchResult> {
    const { q, limit, threadId, signal } = params;
    const ask = async () => {
      const res = await this.client.request({
        method: 'GET',
        path: '/v1/search',
        query: { q, limit, threadId },
        signal,
      });
      return toSearchResult(res.body, q);
    };
    // With a thread, a 404 of the service's own (not "no such route") is about the thread.
    return extension(
      'search (an extension of kb serve)',
      () => (threadId === undefined ? ask() : this.about('thread', threadId, ask)),
      { anyNotFound: threadId === undefined },
    );
  }
}

/** A search answer, tolerant of what a service leaves out. */
function toSearchResult(body: unknown, q: string): SearchResult {
  const b = (body && typeof body === 'object' ? body : {}) as Partial<SearchResult>;
  const data = (Array.isArray(b.data) ? b.data : []).filter(
    (h): h is SearchHit => !!h && typeof h === 'object',
  );
  const indexing = b.indexing;
  return {
    query: typeof b.query === 'string' ? b.query : q,
    answered: typeof b.answered === 'boolean' ? b.answered : data.some((h) => h.answers === true),
    data: data.map((h, i) => ({
      ...h,
      rank: typeof h.rank === 'number' ? h.rank : i + 1,
      passages: Array.isArray(h.passages) ? h.passages : [],
    })),
    ...(typeof indexing === 'number' && Number.isSafeInteger(indexing) && indexing >= 0 && { indexing }),
  };
}
