import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Sessions } from '../../src/server/web-console/sessions.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

let sessions: Sessions;
beforeEach(() => {
  vi.useFakeTimers();
  sessions = new Sessions();
});
afterEach(() => {
  sessions.stop?.();
  vi.useRealTimers();
});

describe("the console's sessions", () => {
  it('end after an hour unused; one in use lasts 12 hours from sign-in, no longer', () => {
    const used = sessions.open('ws_1', 'kb_key_1');
    const idle = sessions.open('ws_1', 'kb_key_1');
    vi.advanceTimersByTime(59 * MINUTE);
    expect(sessions.get(used.id)).toBeDefined();
    vi.advanceTimersByTime(2 * MINUTE);
    expect(sessions.get(idle.id)).toBeUndefined();
    for (let at = 61 * MINUTE; at < 12 * HOUR - 50 * MINUTE; at += 50 * MINUTE) {
      expect(sessions.get(used.id)).toBeDefined();
      vi.advanceTimersByTime(50 * MINUTE);
    }
    vi.setSystemTime(used.createdAt + 12 * HOUR - 1);
    expect(sessions.get(used.id)).toBeDefined();
    vi.setSystemTime(used.createdAt + 12 * HOUR);
    expect(sessions.get(used.id)).toBeUndefined();
  });

  it('keep at most 20 per key: a new sign-in ends the one used longest ago', () => {
    const other = sessions.open('ws_1', 'kb_key_2');
    const opened = Array.from({ length: 20 }, () => {
      vi.advanceTimersByTime(1000);
      return sessions.open('ws_1', 'kb_key_1');
    });
    // The first is used again, so the second is now the one used longest ago.
    expect(sessions.get(opened[0]!.id)).toBeDefined();
    sessions.open('ws_1', 'kb_key_1');
    expect(sessions.get(opened[1]!.id)).toBeUndefined();
    for (const session of [opened[0]!, ...opened.slice(2), other])
      expect(sessions.get(session.id)).toBeDefined();
    expect(sessions.size).toBe(21);
  });

  it('are swept when they expire, and old sign-in failures with them, without anyone asking', () => {
    for (let i = 0; i < 50; i++) sessions.open('ws_1', `kb_key_${i}`);
    for (let i = 0; i < 50; i++) sessions.startSignIn(`10.0.0.${i}`);
    expect(sessions.size).toBe(50);
    expect(sessions.addressesWatched).toBe(50);
    vi.advanceTimersByTime(HOUR + 10 * MINUTE);
    expect(sessions.size).toBe(0);
    expect(sessions.addressesWatched).toBe(0);
  });

  it('count a sign-in when it starts, so that slow ones cannot all get past the limit', () => {
    const attempts = Array.from({ length: 10 }, () => sessions.startSignIn('10.0.0.1'));
    expect(attempts.every((a) => a.retryAfter === 0)).toBe(true);
    expect(sessions.startSignIn('10.0.0.1').retryAfter).toBeGreaterThan(0);
    // A right key does not count against its address.
    attempts[0]!.succeeded();
    const next = sessions.startSignIn('10.0.0.1');
    expect(next.retryAfter).toBe(0);
    expect(sessions.startSignIn('10.0.0.1').retryAfter).toBeGreaterThan(0);
    vi.advanceTimersByTime(MINUTE);
    expect(sessions.startSignIn('10.0.0.1').retryAfter).toBe(0);
  });
});
