import type { ListMeta, Message, Page, ThreadWithMessages } from './types.js';

/** `{data: …}` when the body has it, the bare body otherwise. */
export function unwrap<T>(body: unknown): T {
  if (body && typeof body === 'object' && !Array.isArray(body) && 'data' in body) {
    return (body as { data: T }).data;
  }
  return body as T;
}

/** A list from `{data:[…], meta}`, `{data:[…]}`, or a bare array. */
export function toPage<T>(body: unknown, requestedLimit?: number): Page<T> {
  const data = unwrap<unknown>(body);
  const items = Array.isArray(data) ? (data as T[]) : [];
  const rawMeta =
    body && typeof body === 'object' && 'meta' in body ? (body as { meta: unknown }).meta : undefined;
  const meta: ListMeta = rawMeta && typeof rawMeta === 'object' ? { ...(rawMeta as ListMeta) } : {};
  meta.returned ??= items.length;
  if (meta.limit === undefined && requestedLimit !== undefined) meta.limit = requestedLimit;
  return { data: items, meta };
}

/** A thread with its messages from `{…thread, messages}` or `{thread, messages}`, enveloped or not. */
export function toThreadWithMessages(body: unknown): ThreadWithMessages {
  const data = unwrap<Record<string, unknown>>(body) ?? {};
  const nested =
    data.thread && typeof data.thread === 'object' ? (data.thread as Record<string, unknown>) : undefined;
  const base = nested ? { ...nested } : { ...data };
  const messages = (
    Array.isArray(data.messages) ? data.messages : Array.isArray(base.messages) ? base.messages : []
  ) as Message[];
  return { ...(base as object), messages } as ThreadWithMessages;
}
