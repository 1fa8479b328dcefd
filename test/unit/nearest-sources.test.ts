import { describe, expect, it } from 'vitest';
import { nearestSources } from '../../src/server/answer/assistant.js';
import type { Hit } from '../../src/server/search/hit.js';

const hit = (filename: string, n: number, score: number, pages?: [number, number]): Hit => ({
  chunk: { id: `${filename}:${n}`, fileId: filename, filename, text: '', ...(pages && { pages }) },
  score,
  terms: [],
  queryTerms: [],
  expansions: [],
});

describe('the nearest passages a refusal names', () => {
  it("are the two best chunks: one file when both are its (a new user's trial 18 was sent to ssh-agent.1.pdf, ranked eighth)", () => {
    const hits = [
      hit('openssh/README.Debian', 0, 25.2),
      hit('openssh/README.Debian', 1, 24.4),
      hit('openssh/README.Debian', 2, 23.1),
      hit('openssh/ssh-agent.1.pdf', 0, 18.5, [2, 2]),
    ];
    expect(nearestSources(hits)).toEqual(['openssh/README.Debian']);
  });

  it('name both files, best first, when the two best chunks are in two', () => {
    const hits = [hit('sick.txt', 0, 3.1), hit('leave.md', 0, 4.2, [3, 3]), hit('leave.md', 1, 1)];
    expect(nearestSources(hits)).toEqual(['leave.md p. 3', 'sick.txt']);
  });
});
