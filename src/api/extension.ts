import {
  type ApiError,
  isMissingRoute,
  MethodNotAllowedError,
  NotFoundError,
  ServerError,
  UnsupportedError,
} from './errors.js';

/**
 * Listing, reading and deleting webhooks, uploads and search are extensions of the published
 * interface: a server without them answers 405 or 501, or 404 for the route (not for a record's id).
 */
export async function extension<T>(
  operation: string,
  run: () => Promise<T>,
  options: { anyNotFound?: boolean } = {},
): Promise<T> {
  try {
    return await run();
  } catch (err) {
    const routeMissing = (err instanceof NotFoundError && options.anyNotFound) || isMissingRoute(err);
    const notImplemented = err instanceof ServerError && err.status === 501;
    if (err instanceof MethodNotAllowedError || notImplemented || routeMissing) {
      throw new UnsupportedError(
        `this service does not offer ${operation} (it is not part of the published interface)`,
        { code: 'unsupported', status: (err as ApiError).status },
      );
    }
    throw err;
  }
}
