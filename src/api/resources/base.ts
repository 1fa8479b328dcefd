import type { KbClient } from '../client.js';

export abstract class Resource {
  constructor(protected readonly client: KbClient) {}
}

export interface ListParams {
  limit?: number;
  signal?: AbortSignal;
}
