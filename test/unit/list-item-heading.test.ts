import { describe, expect, it } from 'vitest';
import { chunkText } from '../../src/server/ingest/extraction/chunk.js';

// A new user's trial (#33): in haproxy's intro.txt the list item "- Server load balancing (via
// load balancers)" headed 16 of the 20 chunks a search found, most of the file after it; the
// file's own headings lost.
describe('an item of a list in a text', () => {
  it('heads nothing: the chunks after it are under the text’s heading', () => {
    const intro = [
      '2. Quick introduction to load balancing',
      '',
      'Examples of load balancing :',
      '',
      '- Process scheduling in multi-processor systems',
      '- Server load balancing (via load balancers)',
      '',
      ...Array.from(
        { length: 12 },
        (_, i) =>
          `Paragraph ${i} says that a load balancer spreads the requests over the servers it knows, which is ${'why it helps. '.repeat(3)}`,
      ),
    ].join('\n');
    const chunks = chunkText(intro, 400, 100);
    expect(chunks.length).toBeGreaterThan(3);
    for (const chunk of chunks.slice(2)) {
      expect(chunk.split('\n')[0]).not.toMatch(/^- /);
      expect(chunk.split('\n')[0]).toBe('2. Quick introduction to load balancing');
    }
  });
});
