import { describe, expect, it } from 'vitest';
import { scaleTable, scaleTargets } from '../../bench/scale.js';

const row = {
  documents: 100000,
  megabytes: 285,
  indexMs: 45_000,
  messageP50Ms: 10,
  messageP95Ms: 60,
  indexingP95Ms: 90,
  rssMb: 250,
  peakRssMb: 300,
  restartFirstAnswerMs: 1200,
  uploadStallMs: 20,
  uploadSettledStallMs: 273,
  recallAt5: 0.9,
};

describe('bench/scale.js targets (#34)', () => {
  it('checks each figure of a size the issue names against its target, the limit itself passing', () => {
    expect(scaleTargets([row])).toEqual([
      '100,000 documents, targets of #34: index all 45.0 s ≤ 60 s ✓, peak RSS 300 MB ≤ 300 MB ✓, ' +
        'restart to first answer 1.2 s ≤ 1 s ✗, message p95 60 ms ≤ 50 ms ✗, ' +
        'p95 while indexing 90 ms ≤ 100 ms ✓, max stall during an upload 273 ms ≤ 50 ms ✗',
    ]);
  });

  it('says a figure of a phase left out was not measured, rather than failing it', () => {
    const { indexingP95Ms: _, ...withoutIndexing } = row;
    expect(scaleTargets([withoutIndexing])[0]).toContain(
      'message p95 60 ms ≤ 50 ms ✗, p95 while indexing not measured, max stall',
    );
  });

  it('shows a phase left out as not measured in the table too', () => {
    const { indexingP95Ms: _, ...withoutIndexing } = row;
    const cells = scaleTable([withoutIndexing]).split('\n')[1]!.split(/ {2,}/);
    expect(cells.slice(3, 7)).toEqual(['10 ms', '60 ms', 'not measured', '250 MB']);
  });

  it('has no line for a size without targets, nor for a size that failed', () => {
    expect(
      scaleTargets([
        { ...row, documents: 2000 },
        { documents: 20000, error: 'index: timed out' },
      ]),
    ).toEqual([]);
  });

  it('prints a size that failed below the table, with its error', () => {
    const table = scaleTable([row, { documents: 20000, error: 'index: timed out' }]).split('\n');
    expect(table[0]).toMatch(
      /^documents +text MB +index all .* peak RSS +restart to first answer +upload stall +recall@5$/,
    );
    expect(table[1]).toMatch(/^100000 +285 +45\.0 s .* 300 MB +1\.2 s +273 ms +0\.9 *$/);
    expect(table[2]).toBe('20000  failed: index: timed out');
  });
});
