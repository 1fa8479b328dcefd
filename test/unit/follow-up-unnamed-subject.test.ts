import { describe, expect, it } from 'vitest';
import { followUpOf, libraryOf, weightsOf } from '../helpers/library.js';
import type { Chunk } from '../../src/server/state/model.js';

const page = (filename: string, n: number, text: string[]): Chunk => ({
  id: `${filename}:${n}`,
  fileId: filename,
  filename,
  text: text.join('\n'),
  pages: [n, n],
});

// bench:heldout's ho-scp-1 (#33): after "How do I copy a whole directory with scp?" (answered with
// scp's `-r`), "And how do I connect to a port other than the default?" was answered with rsync's
// `--port`: the follow-up names no subject of its own and says no "it", so it was read as having
// one, and "other than the default" was read as asking for a default, which rsync's sentence
// states and scp's does not. Pages as kb serve reads openssh's scp(1) and rsync(1) rendered to PDF.
const SCP = page('man-scp.pdf', 3, [
  'VerifyHostKeyDNS',
  '-P port',
  'Specifies the port to connect to on the remote host. Note that this option is written with a capital ‘P’, because -p is already reserved for preserving the times and mode bits of the file.',
  '-p Preserves modification times, access times, and file mode bits from the source file.',
  '-q Quiet mode: disables the progress meter as well as warning and diagnostic messages from ssh(1).',
  '-R Copies between two remote hosts are performed by connecting to the origin host and executing scp there.',
  '-r Recursively copy entire directories. Note that scp follows symbolic links encountered in the tree traversal.',
]);
const RSYNC = page('man-rsync.pdf', 39, [
  '--port=PORT',
  'This specifies an alternate TCP port number to use rather than the default of 873. This is only needed if you are using the double-colon (::) syntax to connect with an rsync daemon (since the URL syntax has a way to specify the port as a part of the URL).',
]);
// The words' weights in the held-out corpus.
const WEIGHTS = weightsOf({
  scp: 3.3,
  rsync: 3,
  port: 2.5,
  than: 2.1,
  whole: 2.3,
  connect: 1.6,
  copy: 1.4,
  directory: 1.2,
  default: 1,
  other: 0.6,
});

describe('a follow-up that names no subject and says no "it"', () => {
  it('goes on about the program the question before asked about', async () => {
    const { first, next } = await followUpOf(
      libraryOf([RSYNC, SCP], WEIGHTS),
      'How do I copy a whole directory with scp?',
      'And how do I connect to a port other than the default?',
    );
    expect(first.content).toContain('Recursively copy entire directories');
    expect(next.content).toContain('Specifies the port to connect to on the remote host.');
    expect(next.sources).toEqual(['man-scp.pdf p. 3']);
  });

  it('still has a subject of its own when it names one', async () => {
    const { next } = await followUpOf(
      libraryOf([RSYNC, SCP], WEIGHTS),
      'How do I copy a whole directory with scp?',
      'And how do I make rsync connect to a port other than the default?',
    );
    expect(next.content).toContain('--port=PORT');
  });
});

describe("a follow-up's answer in the document the answer before drew on", () => {
  it('is looked for there too, when the whole workspace ranks other documents first', async () => {
    // scp(1)'s page 3 as two chunks: `-P` and the options after it, then `-R` and `-r`.
    const lines = SCP.text.split('\n');
    const scpP = { ...SCP, id: 'man-scp.pdf:0', text: lines.slice(0, 5).join('\n') };
    const scpR = { ...SCP, id: 'man-scp.pdf:1', text: lines.slice(5).join('\n') };
    const library = libraryOf([RSYNC, scpR], WEIGHTS);
    const within: string[][] = [];
    const workspace = library.search.workspace('ws');
    library.search.workspace = () =>
      Object.assign(workspace, {
        searchWithin: (_: string, fileIds: string[], limit: number) => {
          within.push(fileIds);
          return fileIds.includes('man-scp.pdf')
            ? [{ chunk: scpP, score: 1, terms: [], queryTerms: [], expansions: [] }].slice(0, limit)
            : [];
        },
      });
    const { first, next } = await followUpOf(
      library,
      'How do I copy a whole directory with scp?',
      'And how do I connect to a port other than the default?',
    );
    expect(first.content).toContain('Recursively copy entire directories');
    expect(within).toContainEqual(['man-scp.pdf']);
    expect(next.content).toContain('Specifies the port to connect to on the remote host.');
  });
});
