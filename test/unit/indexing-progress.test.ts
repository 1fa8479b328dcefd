import { describe, expect, it } from 'vitest';
import { describeIndexing } from '../../src/commands/serve/indexing-progress.js';
import type { IndexingProgress } from '../../src/server/ingest/indexer.js';

const progress = (p: Partial<IndexingProgress>): IndexingProgress => ({
  done: 0,
  total: 0,
  bytesDone: 0,
  sizeDone: 0,
  sizeTotal: 0,
  failed: 0,
  failures: [],
  startedAt: 0,
  idle: false,
  ...p,
});

describe("kb serve's indexing estimate", () => {
  it('goes by the sizes of the files, so one big file left is not "about 0.1s left"', () => {
    // Ten 1 kB files took 1 s; a 100 MB file is left.
    const line = describeIndexing(
      progress({ done: 10, total: 11, bytesDone: 10_000, sizeDone: 10_000, sizeTotal: 100_010_000 }),
      1000,
    );
    expect(line).toBe('Indexing 10 of 11 documents · 10 kB of 100.0 MB · 0.0 MB/s · about 166m40s left');
  });

  it('grows while that file takes longer than the rate so far says, rather than standing still', () => {
    const at = (nowMs: number) =>
      describeIndexing(progress({ done: 1, total: 2, bytesDone: 1e6, sizeDone: 1e6, sizeTotal: 2e6 }), nowMs);
    expect(at(1000)).toBe('Indexing 1 of 2 documents · 1.0 MB of 2.0 MB · 1.0 MB/s · about 1.0s left');
    expect(at(4000)).toBe('Indexing 1 of 2 documents · 1.0 MB of 2.0 MB · 0.3 MB/s · about 4.0s left');
  });

  it('has no estimate before a file is done, and says so by the sizes', () => {
    expect(describeIndexing(progress({ total: 1, sizeTotal: 5e8 }), 3000)).toBe(
      'Indexing 0 of 1 document · 0 kB of 500.0 MB',
    );
  });
});

describe("kb serve's indexing line while a scan is read", () => {
  it('names the scan being read by OCR and its page, its name made safe for the terminal', () => {
    const base = { done: 2, total: 5, bytesDone: 2e6, sizeDone: 2e6, sizeTotal: 5e6 };
    expect(describeIndexing(progress(base), 1000)).toBe(
      'Indexing 2 of 5 documents · 2.0 MB of 5.0 MB · 2.0 MB/s · about 1.5s left',
    );
    expect(
      describeIndexing(progress({ ...base, scanning: { name: 'hr/scan.pdf', page: 3, pages: 1200 } }), 1000),
    ).toBe(
      'Indexing 2 of 5 documents · 2.0 MB of 5.0 MB · 2.0 MB/s · about 1.5s left · hr/scan.pdf: OCR of page 3 of 1,200',
    );
    expect(
      describeIndexing(
        progress({ ...base, scanning: { name: 'evil\u001b[2J.png', page: 1, pages: 1 } }),
        1000,
      ),
    ).not.toContain('\u001b');
  });
});
