import type { Foreground } from './foreground.js';
import type { Generations } from './conversation/generations.js';
import type { Resolver } from './webhooks/target.js';
import type { Turns } from './conversation/turns.js';
import type { HttpBindings } from '@hono/node-server';
import type { GeneratorOptions } from './answer/generator.js';
import type { Deliverer } from './webhooks/deliveries.js';
import type { Embeddings } from './search/embeddings/embeddings.js';
import type { FaultPlan } from './http/faults.js';
import type { Indexer } from './ingest/indexer.js';
import type { Workspace } from './state/model.js';
import type { Store } from './state/store.js';
import type { SearchIndex } from './search/fts-index.js';
import type { ChunkVectors } from './search/chunk-vectors.js';
import type { UploadStore } from './ingest/upload-store.js';
import type { UploadBudget } from './ingest/uploads.js';
import type { Sessions } from './web-console/sessions.js';

export interface ServiceOptions {
  replyDelayMs: number;
  /** Pause between the pieces of a streamed reply (--stream-delay). */
  streamDelayMs: number;
  allowLocalWebhooks: boolean;
  /** Requests per second per key; 0 for no limit. */
  rateLimit: number;
  generator?: GeneratorOptions;
  /** How much of a question a passage must hold to answer it (default RELEVANCE_THRESHOLD; the bench sweeps it). */
  relevanceThreshold?: number;
  resolve: Resolver;
  log?: (entry: Record<string, unknown>) => void;
  /** The --data database, named when SQLite finds it damaged while serving. */
  stateFile?: string;
  /** A line for the serve console: a fallback, an endpoint that failed. */
  notice?: (message: string) => void;
}

export interface Service {
  /** Requests being handled, which indexing's stores wait for. */
  foreground: Foreground;
  store: Store;
  /** The search index of every workspace's chunks. */
  search: SearchIndex;
  /** The chunks' vectors, with an embeddings endpoint. */
  vectors?: ChunkVectors;
  indexer: Indexer;
  deliverer: Deliverer;
  faults: FaultPlan;
  /** One message exchange at a time per thread. */
  turns: Turns;
  /** beta: the asynchronous streaming interface's generations. */
  generations: Generations;
  /** Uploaded files' bytes (kept beside --data). */
  uploads: UploadStore;
  /** The bytes of uploads being received at once, across all requests. */
  uploadBudget: UploadBudget;
  /** Larger uploads and documents are refused (--max-file-size). */
  maxFileBytes: number;
  /** An upload's body from which no byte comes for this long is ended. */
  uploadIdleMs: number;
  /** The web console's sign-in sessions (in memory: a restart ends them). */
  sessions: Sessions;
  /** The embeddings endpoint (--embed-base-url), when there is one. */
  embeddings?: Embeddings;
  options: ServiceOptions;
  /** Resolves when the server is shutting down; hanging requests end then. */
  closing: Promise<void>;
}

export type AppEnv = {
  Bindings: HttpBindings;
  Variables: {
    workspace: Workspace;
    requestId: string;
    body: Record<string, unknown>;
    /** Set by a `drop` fault: end an event stream abruptly after this many events. */
    dropAfter?: number;
  };
};
