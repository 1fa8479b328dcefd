import { describe, expect, it } from 'vitest';
import { chunkText } from '../../src/server/ingest/extraction/chunk.js';

// An aside's title, as Sphinx renders a "note" box (Supervisor's configuration reference, the
// twenty-third new user's trial).
describe("a box's title alone on its line ('Note', 'Warning')", () => {
  it('heads no chunk: the ones after it are under the section it is in', () => {
    const text = [
      'startsecs',
      'The total number of seconds which the program needs to stay running after a startup to consider the start successful.',
      'Note',
      ...Array.from(
        { length: 8 },
        (_, i) =>
          `Paragraph ${i}: even if a process exits with an expected exit code, the start is a failure when it exits quicker than startsecs.`,
      ),
      'Default: 1',
    ].join('\n');
    const chunks = chunkText(text, 300, 60);
    expect(chunks.length).toBeGreaterThan(2);
    for (const chunk of chunks.slice(1)) expect(chunk.split('\n')[0]).toBe('startsecs');
  });
});
