import type { MiddlewareHandler } from 'hono';
import type { Store } from '../state/store.js';

/** Waits for a large workspace's files, read after the start (Store.filesLoaded), before what reads or changes them. */
export const filesRead =
  (store: Store): MiddlewareHandler =>
  async (_c, next) => {
    await store.filesLoaded;
    await next();
  };
