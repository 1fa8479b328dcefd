import { describe, expect, it } from 'vitest';
import { extractChunks } from '../../src/server/ingest/extraction/extract-chunks.js';

// A new user's trial 43 (f2a, f2b): libtool's info manual saved as text (`info -o`) keeps each
// node's line of links above its heading; "File: libtool.info, Node: Release numbers, Prev: …"
// was a chunk's best passage and was pasted into an answer.
const MANUAL = [
  'In the above description, _programs_ using the library in question may',
  'also be replaced by other libraries using it.',
  '',
  'File: libtool.info,  Node: Release numbers,  Prev: Updating version info,  Up: Versioning',
  '',
  '7.4 Managing release information',
  '================================',
  '',
  'Often, people want to encode the name of the package release into the',
  'shared library so that it is obvious to the user what package their',
  'programs are linked against.  This convention is used especially on',
  'GNU/Linux.',
  '',
  'File: libtool.info-2,  Node: Library tips,  Next: Inter-library dependencies,  Prev: Versioning,  Up: Top',
  '',
  '8 Tips for interface design',
  '***************************',
  '',
  'Writing a good library interface takes a lot of practice and thorough',
  'understanding of the problem that the library is intended to solve.',
].join('\n');

describe("an info manual's node lines", () => {
  it('are read as links, not as text', async () => {
    const extraction = await extractChunks('libtool/libtool-manual.txt', new TextEncoder().encode(MANUAL));
    if (!extraction.ok) throw new Error(extraction.error.message);
    const text = extraction.chunks.map((c) => c.text).join('\n');
    expect(text).not.toContain('Node:');
    expect(text).toContain('7.4 Managing release information');
    expect(text).toContain('Writing a good library interface takes a lot of practice');
  });

  it('a line that only says a file and a node in prose is text', async () => {
    const prose = 'The index is kept in a file. File: the name given with -f, Node: a name in it.\n'.repeat(
      3,
    );
    const extraction = await extractChunks('notes.txt', new TextEncoder().encode(prose));
    if (!extraction.ok) throw new Error(extraction.error.message);
    expect(extraction.chunks.map((c) => c.text).join('\n')).toContain('Node: a name in it.');
  });
});
