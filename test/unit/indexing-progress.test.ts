import { describe, expect, it } from 'vitest';
import { describeIndexing } from '../../src/commands/serve/indexing-progress.js';
import type { IndexingProgress } from '../../src/server/indexer.js';

const progress = (over: Partial<IndexingProgress> = {}): IndexingProgress => ({
  done: 2,
  total: 5,
  bytesDone: 2_000_000,
  failed: 0,
  failures: [],
  startedAt: 0,
  idle: false,
  ...over,
});

describe("kb serve's indexing line", () => {
  it('names the scan being read by OCR and its page, its name made safe for the terminal', () => {
    expect(describeIndexing(progress(), 1000)).toBe('Indexing 2 of 5 documents · 2.0 MB/s · about 1.5s left');
    expect(
      describeIndexing(progress({ scanning: { name: 'hr/scan.pdf', page: 3, pages: 1200 } }), 1000),
    ).toBe('Indexing 2 of 5 documents · 2.0 MB/s · about 1.5s left · hr/scan.pdf: OCR of page 3 of 1,200');
    expect(
      describeIndexing(progress({ scanning: { name: 'evil\u001b[2J.png', page: 1, pages: 1 } }), 1000),
    ).not.toContain('\u001b');
  });
});
