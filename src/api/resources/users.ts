import { toPage } from '../envelope.js';
import type { Page, User } from '../types.js';
import type { PagingEnd } from '../paging.js';
import { type ListParams, type PagesParams, Resource } from './base.js';

export class UsersResource extends Resource {
  async list(params: ListParams & { q?: string } = {}): Promise<Page<User>> {
    const res = await this.client.request({
      method: 'GET',
      path: '/v1/users',
      query: { q: params.q, limit: params.limit },
      signal: params.signal,
    });
    return toPage<User>(res.body, params.limit);
  }

  /** Every page up to `want` members, following the service's paging. */
  pages(params: PagesParams & { q?: string }): AsyncGenerator<Page<User>, PagingEnd> {
    return this.paginate<User>('/v1/users', { q: params.q }, params);
  }
}
