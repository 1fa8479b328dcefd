import { describe, expect, it } from 'vitest';
import { extractChunks } from '../../src/server/ingest/extraction/extract-chunks.js';

const textsOf = async (filename: string, text: string) => {
  const read = await extractChunks(filename, Buffer.from(text));
  if (!read.ok) throw new Error(read.error.message);
  return read.chunks.map((c) => c.text);
};

const filler = (what: string) =>
  Array.from({ length: 6 }, (_, i) => `- Fixed ${what} bug number ${i} that made the transfer stop early.`);

// bench:heldout's ho-rsync-news-3 ("In which rsync version was the --mkpath option added?"): the
// item sits under `### ENHANCEMENTS:`, a heading every release has; the version was only in the
// `# NEWS for rsync 3.2.3` above it, which no chunk of the item held.
describe('a heading the document says again', () => {
  it('is read with the headings it is under, up to one said once', async () => {
    const news = [3, 2, 1].flatMap((minor) => [
      `# NEWS for rsync 3.2.${minor} (6 Aug 2020)`,
      '',
      '## Changes in this version:',
      '',
      '### BUG FIXES:',
      '',
      ...filler(`the ${minor} release's`),
      '',
      '### ENHANCEMENTS:',
      '',
      ...filler('an option'),
      minor === 3 ? '- Added `--mkpath` option to create the missing path components.' : '- Added nothing.',
      '',
    ]);
    const chunks = await textsOf('NEWS.md', news.join('\n'));
    const mkpath = chunks.filter((c) => c.includes('Added --mkpath option'));
    expect(mkpath.length).toBeGreaterThan(0);
    for (const chunk of mkpath)
      expect(chunk.split('\n').slice(0, 3)).toEqual([
        'NEWS for rsync 3.2.3 (6 Aug 2020)',
        'Changes in this version:',
        'ENHANCEMENTS:',
      ]);
  });

  it('and a heading said once is enough: its chunks start with it alone', async () => {
    const guide = [
      '# The guide',
      '',
      '## Installing',
      '',
      ...Array.from(
        { length: 40 },
        (_, i) => `Step ${i} of the installation copies the files where they belong.`,
      ),
    ];
    const chunks = await textsOf('guide.md', guide.join('\n'));
    expect(chunks.length).toBeGreaterThan(1);
    for (const chunk of chunks.slice(1)) expect(chunk.split('\n')[0]).toBe('Installing');
  });
});
