export interface ApiErrorFields {
  status?: number;
  code?: string;
  requestId?: string;
  method?: string;
  url?: string;
}

/** Any failure of a request to the service. Never carries the API key or request headers. */
export class ApiError extends Error {
  // Explicit names: the CLI bundle is minified, and names appear in stack traces and logs.
  override name = 'ApiError';
  readonly status?: number;
  readonly code?: string;
  readonly requestId?: string;
  readonly method?: string;
  readonly url?: string;
  /** How long the service asked to wait before a retry (Retry-After), when it said. */
  retryAfterMs?: number;
  /**
   * The raw response, when there was one (for `kb api`, which prints error bodies too). Not
   * enumerable: an error logged or turned into JSON never carries a body.
   */
  declare response?: { status: number; headers: Record<string, string>; rawBody: Buffer };

  /** Keeps the raw response with the error, out of what is enumerated. */
  withResponse(response: NonNullable<ApiError['response']>): this {
    Object.defineProperty(this, 'response', { value: response, enumerable: false, writable: true });
    return this;
  }

  constructor(message: string, fields: ApiErrorFields = {}) {
    super(message);
    this.status = fields.status;
    this.code = fields.code;
    this.requestId = fields.requestId;
    this.method = fields.method;
    this.url = fields.url;
  }
}

export class BadRequestError extends ApiError {
  override name = 'BadRequestError';
}
export class AuthenticationError extends ApiError {
  override name = 'AuthenticationError';
}
export class PermissionDeniedError extends ApiError {
  override name = 'PermissionDeniedError';
}
export class NotFoundError extends ApiError {
  override name = 'NotFoundError';
}
export class MethodNotAllowedError extends ApiError {
  override name = 'MethodNotAllowedError';
}
export class ConflictError extends ApiError {
  override name = 'ConflictError';
}
export class PayloadTooLargeError extends ApiError {
  override name = 'PayloadTooLargeError';
}
export class UnprocessableError extends ApiError {
  override name = 'UnprocessableError';
}
export class RateLimitError extends ApiError {
  override name = 'RateLimitError';
}
export class ServerError extends ApiError {
  override name = 'ServerError';
}
/** The service could not be reached, or the connection broke before a full answer. */
export class ConnectionError extends ApiError {
  override name = 'ConnectionError';
}
/** No complete answer within the time allowed. `sent` says whether the request may have reached the service. */
export class TimeoutError extends ApiError {
  override name = 'TimeoutError';
}
/** Cancelled by the user (Ctrl-C or an AbortSignal). */
export class AbortedError extends ApiError {
  override name = 'AbortedError';
}
/** An id that cannot be put in a path (empty, `.`, `..`, control characters): refused before any request. */
export class InvalidIdError extends ApiError {
  override name = 'InvalidIdError';
}
/** An extension of the published interface that this service does not offer (404 or 405 for the route). */
export class UnsupportedError extends ApiError {
  override name = 'UnsupportedError';
}
/** A streamed reply the service no longer knows (it restarted mid-reply): what it kept is in the thread. */
export class ReplyInterruptedError extends ApiError {
  override name = 'ReplyInterruptedError';
}
/** A response that is not the JSON the service speaks (an HTML page from a proxy, truncated JSON). */
export class InvalidResponseError extends ApiError {
  override name = 'InvalidResponseError';
}

/**
 * Whether a 404 says the route is not there rather than a record: anything but the record-level
 * `not_found` (or `<kind>_not_found`) a service answers for an unknown id. kb serve's
 * `route_not_found`, a 404 without a code, a gateway's page (NotTheServiceError) and a mock's
 * problem (Prism's `NO_PATH_MATCHED_ERROR`) all are.
 */
export function isMissingRoute(err: unknown): boolean {
  if (err instanceof NotTheServiceError) return true;
  if (!(err instanceof NotFoundError)) return false;
  return err.code === 'route_not_found' || !/^(?:[a-z]+_)?not_found$/i.test(err.code ?? '');
}

/**
 * The base URL answers, but not as the service: a page (HTML, text) or nothing at all where the
 * service answers JSON, for a route it has (404, 405, 501). A static site, another app, a wrong
 * path prefix.
 */
export class NotTheServiceError extends ApiError {
  override name = 'NotTheServiceError';
}

export function errorForStatus(status: number, message: string, fields: ApiErrorFields): ApiError {
  const all = { ...fields, status };
  switch (status) {
    case 400:
    case 415:
      return new BadRequestError(message, all);
    case 401:
      return new AuthenticationError(message, all);
    case 403:
      return new PermissionDeniedError(message, all);
    case 404:
      return new NotFoundError(message, all);
    case 405:
      return new MethodNotAllowedError(message, all);
    case 409:
      return new ConflictError(message, all);
    case 413:
      return new PayloadTooLargeError(message, all);
    case 422:
      return new UnprocessableError(message, all);
    case 429:
      return new RateLimitError(message, all);
    default:
      return status >= 500 ? new ServerError(message, all) : new ApiError(message, all);
  }
}

/** The human message from whichever common error shape the body has. */
export function messageFromBody(body: unknown): { message?: string; code?: string } {
  if (!body || typeof body !== 'object') return {};
  const b = body as Record<string, any>;
  const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : undefined);
  if (b.error && typeof b.error === 'object') {
    return {
      message: text(b.error.message) ?? text(b.error.detail),
      code: text(b.error.code) ?? text(b.error.type),
    };
  }
  if (text(b.error))
    return { message: text(b.message) ?? text(b.error), code: text(b.code) ?? text(b.error) };
  if (text(b.title) || text(b.detail)) {
    const title = text(b.title);
    const detail = text(b.detail);
    return {
      message: title && detail ? `${title}: ${detail}` : (detail ?? title),
      code: text(b.code) ?? text(b.type),
    };
  }
  return { message: text(b.message), code: text(b.code) };
}
