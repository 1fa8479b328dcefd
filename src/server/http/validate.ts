import { badRequest, unprocessable } from './errors.js';

export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 100;
export const MAX_TITLE = 200;
/** The search route's: chunks listed by default and at most, and the longest question. */
export const SEARCH_DEFAULT_LIMIT = 10;
export const SEARCH_MAX_LIMIT = 50;
export const MAX_QUERY = 2_000;

/**
 * `?limit=`: default 50, above 100 clamped to 100 (a list's; the search route's are its own);
 * 0, negative or non-numeric is a 400.
 */
export function parseLimit(
  raw: string | undefined,
  { fallback = DEFAULT_LIMIT, max = MAX_LIMIT }: { fallback?: number; max?: number } = {},
): number {
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw.trim()) || Number(raw) < 1) {
    throw badRequest(
      `limit must be a whole number from 1 to ${max}, got "${raw.slice(0, 40)}"`,
      'invalid_limit',
    );
  }
  return Math.min(Number(raw), max);
}

export function parseStatus(raw: string | undefined, allowed: readonly string[]): string | undefined {
  if (raw === undefined || raw === '') return undefined;
  const upper = raw.toUpperCase();
  if (!allowed.includes(upper))
    throw badRequest(
      `status must be one of ${allowed.join(', ')}, got "${raw.slice(0, 40)}"`,
      'invalid_status',
    );
  return upper;
}

export function optionalString(body: Record<string, unknown>, field: string): string | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw badRequest(`${field} must be a string`, 'invalid_type');
  return value;
}

export function requiredString(body: Record<string, unknown>, field: string, max: number): string {
  const value = optionalString(body, field);
  if (value === undefined) throw badRequest(`${field} is required`, 'missing_field');
  if (!value.trim()) throw unprocessable(`${field} must not be empty`, 'empty_field');
  if (value.length > max)
    throw unprocessable(`${field} is longer than ${max} characters (${value.length})`, 'too_long');
  return value;
}

/** `?cursor=`: the sort key a cursor names (state/paging.ts cursorAfter), or a 400 invalid_cursor. */
export function parseCursor(raw: string | undefined): string[] | undefined {
  if (raw === undefined || raw === '') return undefined;
  let key: unknown;
  try {
    key = raw.length <= 2048 ? JSON.parse(Buffer.from(raw, 'base64url').toString()) : undefined;
  } catch {
    key = undefined;
  }
  if (!Array.isArray(key) || key.length !== 2 || !key.every((part) => typeof part === 'string'))
    throw badRequest('cursor is not one this service gave (take meta.nextCursor as it is)', 'invalid_cursor');
  return key as string[];
}
