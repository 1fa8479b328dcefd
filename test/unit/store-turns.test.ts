import { describe, expect, it } from 'vitest';
import { Foreground } from '../../src/server/foreground.js';
import { StoreTurns } from '../../src/server/ingest/store-turns.js';

describe("indexing's stores and the requests being handled", () => {
  it('stores at once when no request is being handled', async () => {
    let asked = 0;
    const turns = new StoreTurns(() => {
      asked++;
      return false;
    });
    await turns.next();
    expect(asked).toBe(1);
  });

  it('waits for the requests being handled, then stores', async () => {
    let busy = true;
    const order: string[] = [];
    const turns = new StoreTurns(() => busy);
    const stored = turns.next().then(() => order.push('stored'));
    setTimeout(() => {
      order.push('answered');
      busy = false;
    }, 1);
    await stored;
    expect(order).toEqual(['answered', 'stored']);
  });

  it('waits 50 ms at most, so that indexing goes on under a steady load', async () => {
    const turns = new StoreTurns(() => true);
    const started = performance.now();
    await turns.next();
    await turns.next();
    // Each store waited its own 50 ms.
    expect(performance.now() - started).toBeGreaterThanOrEqual(98);
  });

  it('counts a request as handled until its handler returns, and a moment after', async () => {
    const foreground = new Foreground();
    expect(foreground.busy).toBe(false);
    let finish = () => {};
    const handled = foreground.handle(() => new Promise<void>((resolve) => (finish = resolve)));
    expect(foreground.busy).toBe(true);
    finish();
    await handled;
    expect(foreground.busy).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(foreground.busy).toBe(false);
  });

  it('counts a request that failed as handled too', async () => {
    const foreground = new Foreground();
    await expect(foreground.handle(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(foreground.busy).toBe(false);
  });
});
