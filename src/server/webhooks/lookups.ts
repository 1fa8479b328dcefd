import type { Resolver } from './target.js';

/** How long a webhook host name may take to resolve, its wait for a turn included; then it counts as unresolved. */
export const LOOKUP_TIMEOUT_MS = 5_000;
/**
 * Lookups at once in each lane. Node resolves names on libuv's 4 threads, and a lookup holds
 * its thread until the system resolver gives up (20 s and more for a name whose servers do
 * not answer): deliveries to such names must not take them all.
 */
export const LOOKUPS_AT_ONCE = 2;

export interface WebhookLookups {
  /** For POST /v1/webhooks. */
  registration: Resolver;
  /** For each delivery attempt. */
  delivery: Resolver;
}

/**
 * Webhook host name lookups in two lanes, registration's and deliveries', so that deliveries
 * never make a registration wait: each lane runs at most LOOKUPS_AT_ONCE at once, and every
 * lookup gives up at its deadline (POST /v1/webhooks then accepts the name as unresolved, to
 * be checked at delivery; a delivery attempt fails `unresolved`).
 */
export function webhookLookups(resolve: Resolver, timeoutMs = LOOKUP_TIMEOUT_MS): WebhookLookups {
  return {
    registration: lane(resolve, LOOKUPS_AT_ONCE, timeoutMs),
    delivery: lane(resolve, LOOKUPS_AT_ONCE, timeoutMs),
  };
}

/**
 * At most `atOnce` lookups at a time, the others waiting their turn in order. A lookup keeps
 * its place until it really ends, also after its caller gave up at the deadline (its thread is
 * busy until then).
 */
function lane(resolve: Resolver, atOnce: number, timeoutMs: number): Resolver {
  let running = 0;
  const waiting: (() => void)[] = [];
  const next = () => {
    while (running < atOnce && waiting.length) waiting.shift()!();
  };
  return (hostname) =>
    new Promise((fulfil, reject) => {
      let done = false;
      const timer = setTimeout(() => {
        done = true;
        reject(Object.assign(new Error(`no answer within ${timeoutMs / 1000} s`), { code: 'ETIMEOUT' }));
      }, timeoutMs);
      timer.unref();
      waiting.push(() => {
        // Gave up while waiting: its turn goes to the next.
        if (done) return;
        running++;
        Promise.resolve()
          .then(() => resolve(hostname))
          .then(
            (addresses) => {
              if (done) return;
              done = true;
              clearTimeout(timer);
              fulfil(addresses);
            },
            (err: unknown) => {
              if (done) return;
              done = true;
              clearTimeout(timer);
              reject(err as Error);
            },
          )
          .finally(() => {
            running--;
            next();
          });
      });
      next();
    });
}
