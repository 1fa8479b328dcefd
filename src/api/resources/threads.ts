import { toPage, toThreadWithMessages, unwrap } from '../envelope.js';
import { segment } from '../paths.js';
import { MESSAGE_TIMEOUT_MS } from '../timeouts.js';
import type { Exchange, Page, Thread, ThreadWithMessages } from '../types.js';
import type { PagingEnd } from '../paging.js';
import { type ListParams, type PagesParams, Resource } from './base.js';
import { cancelGeneration, type StreamEvent, streamReply } from '../stream.js';

export class ThreadsResource extends Resource {
  async list(params: ListParams & { status?: string } = {}): Promise<Page<Thread>> {
    const res = await this.client.request({
      method: 'GET',
      path: '/v1/threads',
      query: { status: params.status, limit: params.limit },
      signal: params.signal,
    });
    return toPage<Thread>(res.body, params.limit);
  }

  /** Every page up to `want` threads, following the service's paging. */
  pages(params: PagesParams & { status?: string }): AsyncGenerator<Page<Thread>, PagingEnd> {
    return this.paginate<Thread>('/v1/threads', { status: params.status }, params);
  }

  async create(params: { title?: string } = {}, signal?: AbortSignal): Promise<Thread> {
    const body = params.title === undefined ? {} : { title: params.title };
    const res = await this.client.request({ method: 'POST', path: '/v1/threads', body, signal });
    return unwrap<Thread>(res.body);
  }

  async get(id: string, signal?: AbortSignal): Promise<ThreadWithMessages> {
    return this.about('thread', id, async () => {
      const res = await this.client.request({ method: 'GET', path: `/v1/threads/${segment(id)}`, signal });
      return toThreadWithMessages(res.body);
    });
  }

  /** Changes a thread's title or status: an extension some services lack (the local one has it). */
  async update(
    id: string,
    changes: { title?: string; status?: string },
    signal?: AbortSignal,
  ): Promise<Thread> {
    const res = await this.client.request({
      method: 'PATCH',
      path: `/v1/threads/${segment(id)}`,
      body: changes,
      signal,
    });
    return unwrap<Thread>(res.body);
  }

  /**
   * beta: posts a message and yields the reply as it is written, resuming a dropped stream by
   * itself; falls back to posting synchronously where the service has no streaming interface.
   */
  stream(id: string, params: { content: string; signal?: AbortSignal }): AsyncGenerator<StreamEvent> {
    return this.aboutEach('thread', id, streamReply(this.client, id, params.content, params.signal));
  }

  /** beta: cancels a generation; resolves with what it stored (the partial reply, marked incomplete). */
  cancelGeneration(generationId: string): Promise<Exchange | undefined> {
    return cancelGeneration(this.client, generationId);
  }

  /** Posts a user message and waits for the assistant's reply (up to 300 s by default). */
  async send(id: string, content: string, signal?: AbortSignal): Promise<Exchange> {
    return this.about('thread', id, async () => {
      const res = await this.client.request({
        method: 'POST',
        path: `/v1/threads/${segment(id)}/messages`,
        body: { content },
        timeoutMs: MESSAGE_TIMEOUT_MS,
        signal,
      });
      return unwrap<Exchange>(res.body);
    });
  }
}
