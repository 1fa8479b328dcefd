/**
 * The largest request body kb sends: the local service's documented limit (1 MiB,
 * docs/local-service.md; the published interface names none). Input meant for one request
 * (a message, `kb api --input`) is read up to this plus one byte and refused beyond it, before
 * anything is sent and without holding more than this in memory.
 */
export const MAX_REQUEST_BYTES = 1024 * 1024;
