let last = 0;

/** ISO-8601 UTC timestamps that strictly increase, so "newest first" is well defined. */
export function now(): string {
  let t = Date.now();
  if (t <= last) t = last + 1;
  last = t;
  return new Date(t).toISOString();
}
