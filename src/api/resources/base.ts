import type { KbClient, Query } from '../client.js';
import { NotFoundError } from '../errors.js';
import { toPage } from '../envelope.js';
import { paginate, type PagingEnd } from '../paging.js';
import type { Page } from '../types.js';

export abstract class Resource {
  constructor(protected readonly client: KbClient) {}

  /**
   * A request about one record: a 404 names it (`file file_x not found`), since a service's own
   * message often does not say which of several ids it was.
   */
  protected async about<T>(kind: string, id: string, request: () => Promise<T>): Promise<T> {
    try {
      return await request();
    } catch (err) {
      throw naming(kind, id, err);
    }
  }

  /** A stream of events about one record, whose 404 names it as `about` does. */
  protected async *aboutEach<T>(kind: string, id: string, events: AsyncGenerator<T>): AsyncGenerator<T> {
    try {
      yield* events;
    } catch (err) {
      throw naming(kind, id, err);
    }
  }

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

function naming(kind: string, id: string, err: unknown): unknown {
  if (!(err instanceof NotFoundError) || err.message.includes(id) || err.code === 'route_not_found')
    return err;
  const named = new NotFoundError(`${kind} ${id} not found`, err);
  named.retryAfterMs = err.retryAfterMs;
  return err.response ? named.withResponse(err.response) : named;
}
