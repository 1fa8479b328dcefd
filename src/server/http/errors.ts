import { HTTPException } from 'hono/http-exception';

/** The one error envelope of the local service: `{"error": {"code", "message"}}`. */
export function errorBody(code: string, message: string, requestId?: string) {
  return { error: { code, message, ...(requestId ? { requestId } : {}) } };
}

export class ServiceError extends HTTPException {
  constructor(
    status: 400 | 401 | 404 | 405 | 409 | 413 | 415 | 422 | 429 | 500 | 503,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(status, { message });
  }
}

export const badRequest = (message: string, code = 'invalid_request') => new ServiceError(400, code, message);
export const unprocessable = (message: string, code = 'validation_failed') =>
  new ServiceError(422, code, message);
export const notFound = (what: string) => new ServiceError(404, 'not_found', `${what} not found`);

/** 503 with Retry-After: the disk refused a change (full, read-only, an I/O error); nothing was saved. */
export const storageUnavailable = () =>
  new ServiceError(
    503,
    'storage_unavailable',
    'the service cannot store this change now; nothing was saved',
    {
      'retry-after': '5',
    },
  );

/**
 * 503 without Retry-After: the database file is damaged (SQLite found a page that is not what it
 * should be). Asking again will not help: kb serve must be restarted with --repair.
 */
export const storageDamaged = (file: string | undefined) =>
  new ServiceError(
    503,
    'storage_damaged',
    `${file ?? "kb serve's database"} is damaged: nothing was changed; restart kb serve with --repair to keep every readable record, or restore a backup`,
  );
