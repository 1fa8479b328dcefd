import { toPage, unwrap } from '../envelope.js';
import { extension } from '../extension.js';
import { segment } from '../paths.js';
import type { KbFile, Page } from '../types.js';
import type { PagingEnd } from '../paging.js';
import { type ListParams, type PagesParams, Resource } from './base.js';

export class FilesResource extends Resource {
  async list(params: ListParams & { status?: string } = {}): Promise<Page<KbFile>> {
    const res = await this.client.request({
      method: 'GET',
      path: '/v1/files',
      query: { status: params.status, limit: params.limit },
      signal: params.signal,
    });
    return toPage<KbFile>(res.body, params.limit);
  }

  /** Every page up to `want` files, following the service's paging. */
  pages(params: PagesParams & { status?: string }): AsyncGenerator<Page<KbFile>, PagingEnd> {
    return this.paginate<KbFile>('/v1/files', { status: params.status }, params);
  }

  async get(id: string, signal?: AbortSignal): Promise<KbFile> {
    return this.about('file', id, async () => {
      const res = await this.client.request({ method: 'GET', path: `/v1/files/${segment(id)}`, signal });
      return unwrap<KbFile>(res.body);
    });
  }

  /**
   * Uploads a file to be indexed: an extension kb serve offers (`POST /v1/files?filename=`, the
   * bytes as the body); the published interface takes uploads in its web app only.
   */
  async upload(
    filename: string,
    bytes: Buffer,
    params: {
      signal?: AbortSignal;
      timeoutMs?: number;
      onProgress?: (sent: number, total: number) => void;
    } = {},
  ): Promise<KbFile> {
    return extension('uploads through the API (upload in its web app)', async () => {
      const res = await this.client.request({
        method: 'POST',
        path: '/v1/files',
        query: { filename },
        rawBody: bytes,
        headers: { 'content-type': 'application/octet-stream' },
        onUploadProgress: params.onProgress,
        timeoutMs: params.timeoutMs,
        signal: params.signal,
        // A retry would send the whole file again: a failed upload is said, and run again by the user.
        maxRetries: 0,
      });
      return unwrap<KbFile>(res.body);
    });
  }

  /** Soft-deletes a file. Accepts 204 or 200 with any body. */
  async delete(id: string, signal?: AbortSignal): Promise<void> {
    return this.about('file', id, async () => {
      await this.client.request({ method: 'DELETE', path: `/v1/files/${segment(id)}`, signal });
    });
  }
}
