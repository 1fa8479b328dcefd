/** The kb library: a typed client for the service, webhook signatures, and the local service. */
export {
  type ApiResponse,
  type ClientOptions,
  joinUrl,
  KbClient,
  parseRetryAfter,
  type RequestOptions,
} from './api/client.js';
export * from './api/errors.js';
export type { StreamEvent } from './api/stream.js';
export * from './api/types.js';
export type { RunningServer, ServerOptions } from './server/index.js';
export {
  SIGNATURE_HEADER,
  type SignatureScheme,
  type SignOptions,
  signPayload,
  type VerifyOptions,
  type VerifyResult,
  verifySignature,
} from './webhooks/signature.js';

import type { RunningServer, ServerOptions } from './server/index.js';

/** Starts the local service; loaded on first use so the client alone stays light. */
export async function startServer(options?: ServerOptions): Promise<RunningServer> {
  return (await import('./server/index.js')).startServer(options);
}
