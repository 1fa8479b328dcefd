import type { KbClient, Query } from '../client.js';
import { toPage } from '../envelope.js';
import { paginate, type PagingEnd } from '../paging.js';
import type { Page } from '../types.js';

export abstract class Resource {
  constructor(protected readonly client: KbClient) {}

  /** A list's pages until `want` records (Infinity: all), each as it arrives; returns how paging ended. */
  protected paginate<T>(path: string, query: Query, params: PagesParams): AsyncGenerator<Page<T>, PagingEnd> {
    return paginate<T>(
      this.client,
      { path, query },
      params.want,
      (body, limit) => toPage<T>(body, limit),
      params.signal,
    );
  }
}

export interface ListParams {
  limit?: number;
  signal?: AbortSignal;
}

export interface PagesParams {
  /** How many records at most (Infinity for all of them). */
  want: number;
  signal?: AbortSignal;
}
