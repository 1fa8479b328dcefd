import { describe, expect, it } from 'vitest';
import { answerOf, doc, libraryOf } from '../helpers/library.js';

// New users' trials 42 (I01) and 43 (i02): "What is X for and what is its default?" was answered
// with the default's sentence alone (`QUILT_PC: Defaults to ".pc".`), not what X is.
const QUILT = doc(
  'quilt/quilt.1.txt',
  [
    'QUILT_PATCHES',
    'The location of patch files, defaulting to "patches".',
    'QUILT_PC',
    'The location of backup files and any other data relating to the current state of the working directory from quilt\'s perspective. Defaults to ".pc".',
  ].join('\n'),
);
const FIREWALLD = doc(
  'firewalld/firewalld.conf.5.pdf',
  [
    'FlushAllOnReload',
    'Flush all runtime rules on a reload. In previous releases some runtime configuration was retained during a reload, namely; interface to zone assignment, and direct rules. This was confusing to users. To get the old behavior set this to "no". Defaults to "yes".',
  ].join('\n'),
);

describe('a question asking what a setting is and its default', () => {
  const library = libraryOf([QUILT, FIREWALLD], {
    quilt_pc: 6.9,
    quilt: 1.2,
    pc: 1.7,
    default: 0.8,
    flushallonreload: 7,
    firewalld: 3,
    conf: 1,
  });

  it('is answered with the first sentence of its definition, then the default', async () => {
    const quilt = await answerOf(library, 'What is QUILT_PC for and what is its default?');
    expect(quilt).toContain('The location of backup files');
    expect(quilt).toContain('Defaults to ".pc"');
    const flush = await answerOf(
      library,
      'What does FlushAllOnReload do in firewalld.conf, and what is its default?',
    );
    expect(flush).toContain('Flush all runtime rules on a reload.');
    expect(flush).toContain('Defaults to "yes"');
    // Not the sentences between them.
    expect(flush).not.toContain('This was confusing to users');
  });

  it('asking for the default alone is answered with the default', async () => {
    const reply = await answerOf(library, 'What is the default QUILT_PC?');
    expect(reply).toContain('Defaults to ".pc"');
    expect(reply).not.toContain('The location of backup files');
  });
});
