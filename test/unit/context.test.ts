import { afterEach, describe, expect, it, vi } from 'vitest';
import { KbClient } from '../../src/api/client.js';
import { type Fake, fakeContext } from '../helpers/context.js';

let fake: Fake;
afterEach(() => fake?.agent.close());

describe('Context.client', () => {
  it('gives one client per set of options, and closes every client it made', async () => {
    fake = fakeContext();
    const ctx = fake.ctx;
    const [a, b] = await Promise.all([ctx.client(), ctx.client()]);
    expect(a).toBe(b);
    const other = await ctx.client({ baseUrl: 'https://other.test', apiKey: 'kb_other_0123456789' });
    expect(other).not.toBe(a);
    expect(await ctx.client({ baseUrl: 'https://other.test', apiKey: 'kb_other_0123456789' })).toBe(other);
    expect(await ctx.client({ maxRetries: 0 })).not.toBe(a);

    const close = vi.spyOn(KbClient.prototype, 'close').mockResolvedValue();
    await ctx.close();
    expect(close).toHaveBeenCalledTimes(3);
    close.mockRestore();
  });

  it('fails again, rather than remembering a failure, when no key is available', async () => {
    fake = fakeContext({ env: { KB_API_KEY: '' } });
    await expect(fake.ctx.client()).rejects.toThrow('not logged in');
    await expect(fake.ctx.client()).rejects.toThrow('not logged in');
    expect(await fake.ctx.client({ requireKey: false })).toBeInstanceOf(KbClient);
  });
});
