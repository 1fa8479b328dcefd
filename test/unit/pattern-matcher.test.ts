import { afterEach, describe, expect, it } from 'vitest';
import { PatternMatcher, PatternTimeout } from '../../src/eval/pattern-matcher.js';

let matcher: PatternMatcher | undefined;
afterEach(() => matcher?.close());

describe('PatternMatcher', () => {
  it("counts a pattern's deadline from when its worker listens, not from the worker's start", async () => {
    // Starting a worker takes tens of milliseconds (far more on a loaded CI machine); a quick
    // pattern must still pass under a deadline shorter than that start.
    matcher = new PatternMatcher(25);
    await expect(matcher.test(/SOC 2 Type II/, 'Orbitdesk holds SOC 2 Type II.')).resolves.toBe(true);
    await expect(matcher.test(/HIPAA/, 'Orbitdesk holds SOC 2 Type II.')).resolves.toBe(false);
  });

  it('stops a pattern that backtracks past its deadline, and serves the next one with a new worker', async () => {
    matcher = new PatternMatcher(200);
    const started = Date.now();
    await expect(matcher.test(/^(a+)+$/, 'a'.repeat(40) + '!')).rejects.toBeInstanceOf(PatternTimeout);
    expect(Date.now() - started).toBeLessThan(5_000);
    await expect(matcher.test(/a/, 'a')).resolves.toBe(true);
  });
});
