import { toPage, unwrap } from '../envelope.js';
import { segment } from '../paths.js';
import type { Page, Webhook } from '../types.js';
import type { PagingEnd } from '../paging.js';
import { type PagesParams, Resource } from './base.js';

export class WebhooksResource extends Resource {
  async create(params: { url: string; events: string[] }, signal?: AbortSignal): Promise<Webhook> {
    const res = await this.client.request({ method: 'POST', path: '/v1/webhooks', body: params, signal });
    return unwrap<Webhook>(res.body);
  }

  /** Extension: not in the published interface. */
  async list(signal?: AbortSignal): Promise<Page<Webhook>> {
    const res = await this.client.request({ method: 'GET', path: '/v1/webhooks', signal });
    return toPage<Webhook>(res.body);
  }

  /** Extension: every page up to `want` webhooks, following the service's paging. */
  pages(params: PagesParams): AsyncGenerator<Page<Webhook>, PagingEnd> {
    return this.paginate<Webhook>('/v1/webhooks', {}, params);
  }

  /** Extension: not in the published interface. */
  async get(id: string, signal?: AbortSignal): Promise<Webhook> {
    return this.about('webhook', id, async () => {
      const res = await this.client.request({ method: 'GET', path: `/v1/webhooks/${segment(id)}`, signal });
      return unwrap<Webhook>(res.body);
    });
  }

  /** Extension: not in the published interface. */
  async delete(id: string, signal?: AbortSignal): Promise<void> {
    return this.about('webhook', id, async () => {
      await this.client.request({ method: 'DELETE', path: `/v1/webhooks/${segment(id)}`, signal });
    });
  }
}
