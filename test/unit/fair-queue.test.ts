import { describe, expect, it } from 'vitest';
import { FairQueue } from '../../src/server/ingest/fair-queue.js';

/** Takes every item, one at a time, in turn. */
function served<T>(queue: FairQueue<T>): T[] {
  const out: T[] = [];
  for (let owner = queue.nextOwner(); owner !== undefined; owner = queue.nextOwner())
    out.push(queue.shift(owner)!);
  return out;
}

describe('FairQueue', () => {
  it("serves owners in turn, each one's items in the order they came", () => {
    const queue = new FairQueue<string>();
    for (const item of ['a1', 'a2', 'a3', 'a4']) queue.push('a', item);
    queue.push('b', 'b1');
    queue.push('b', 'b2');
    queue.push('c', 'c1');
    expect(served(queue)).toEqual(['a1', 'b1', 'c1', 'a2', 'b2', 'a3', 'a4']);
    expect(queue.size).toBe(0);
  });

  it('puts a newcomer next, after the item being served: an owner that was served has no head start', () => {
    const queue = new FairQueue<string>();
    queue.push('a', 'a1');
    expect(queue.shift(queue.nextOwner()!)).toBe('a1');
    // a1 is being worked on; a queues more, then b comes.
    queue.push('a', 'a2');
    queue.push('a', 'a3');
    queue.push('b', 'b1');
    expect(served(queue)).toEqual(['b1', 'a2', 'a3']);
  });

  it('saves no credit for an owner that was idle: it joins at the present', () => {
    const queue = new FairQueue<string>();
    queue.push('b', 'b1');
    expect(queue.shift(queue.nextOwner()!)).toBe('b1');
    for (let i = 1; i <= 5; i++) queue.push('a', `a${i}`);
    for (let i = 1; i <= 3; i++) expect(queue.shift(queue.nextOwner()!)).toBe(`a${i}`);
    // b was idle while a was served three times: it gets the next turn, not the next four.
    queue.push('b', 'b2');
    queue.push('b', 'b3');
    expect(served(queue)).toEqual(['b2', 'a4', 'b3', 'a5']);
  });

  it('skips owners whose next item is not ready, and takes a batch of one owner', () => {
    const queue = new FairQueue<{ id: string; due: number }>();
    queue.push('a', { id: 'a1', due: 5 });
    queue.push('b', { id: 'b1', due: 0 });
    queue.push('b', { id: 'b2', due: 0 });
    expect(queue.nextOwner((_owner, next) => next.due <= 1)).toBe('b');
    expect([queue.shift('b')!.id, queue.shift('b')!.id, queue.shift('b')]).toEqual(['b1', 'b2', undefined]);
    expect(queue.nextOwner((_owner, next) => next.due <= 1)).toBeUndefined();
    expect([...queue.heads()].map((h) => h.id)).toEqual(['a1']);
    expect(queue.drain().map((h) => h.id)).toEqual(['a1']);
    expect(queue.size).toBe(0);
  });
});
