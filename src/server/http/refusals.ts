import { ThreadNotOpen } from '../conversation/conversation.js';
import { type UploadRefusal, UploadRefused } from '../ingest/uploads.js';
import { ServiceError, storageUnavailable } from './errors.js';

const UPLOAD_STATUS = {
  invalid_filename: 422,
  file_too_large: 413,
  uploads_busy: 503,
  upload_incomplete: 400,
} as const satisfies Record<Exclude<UploadRefusal, 'storage_unavailable'>, ServiceError['status']>;

/** The HTTP error for `err`: a ServiceError, or a refusal a layer below threw; else undefined. */
export function serviceErrorOf(err: unknown): ServiceError | undefined {
  if (err instanceof ServiceError) return err;
  if (err instanceof ThreadNotOpen) return new ServiceError(409, err.code, err.message);
  if (!(err instanceof UploadRefused)) return undefined;
  if (err.code === 'storage_unavailable') return storageUnavailable();
  const headers: Record<string, string> =
    err.retryAfterSeconds === undefined ? {} : { 'retry-after': String(err.retryAfterSeconds) };
  return new ServiceError(UPLOAD_STATUS[err.code], err.code, err.message, headers);
}
