export type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };

/** Runs `fn` over `items` with at most `limit` at a time; every item gets a result, in order. */
export async function mapSettled<I, T>(
  items: I[],
  limit: number,
  fn: (item: I, index: number) => Promise<T>,
): Promise<Settled<T>[]> {
  const results: Settled<T>[] = new Array(items.length);
  let next = 0;
  async function worker() {
    while (next < items.length) {
      const index = next++;
      try {
        results[index] = { ok: true, value: await fn(items[index]!, index) };
      } catch (error) {
        results[index] = { ok: false, error };
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
