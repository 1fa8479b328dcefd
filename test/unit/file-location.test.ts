import { describe, expect, it } from 'vitest';
import { holdsAnswerType } from '../../src/server/answer/answer-type.js';
import { passagesOf } from '../../src/server/answer/passages.js';
import { answerOf, doc, libraryOf, weightsOf } from '../helpers/library.js';

// btrfs-scrub(8) as a PDF (a new user's trial 40): asked where scrub keeps its status files, kb
// answered "The progress is saved in the status file so btrfs scrub resume can continue…", which
// shares more of the question's words, and left out the sentence that names the directory.
const SCRUB = doc(
  'btrfs-scrub.8.pdf',
  [
    'DESCRIPTION',
    'The scrubbing status is recorded in /var/lib/btrfs/ in textual files named scrub.status.UUID for a filesystem identified by the given UUID.',
    'cancel <path>|<device>',
    'Cancel a running scrub. The progress is saved in the status file so btrfs scrub resume can continue from the last position.',
  ].join('\n'),
);

describe('a question that asks where a program keeps a file', () => {
  it('is held by a path', () => {
    const question = 'Where does btrfs scrub keep its status files?';
    expect(
      holdsAnswerType(question, 'The scrubbing status is recorded in /var/lib/btrfs/ in textual files.'),
    ).toBe(true);
    expect(
      holdsAnswerType('Which directory holds the spool?', 'user crontabs: /var/spool/cron/crontabs/*'),
    ).toBe(true);
    expect(
      holdsAnswerType(
        'Where does git config --global write its settings?',
        'write to global ~/.gitconfig file',
      ),
    ).toBe(true);
    expect(
      holdsAnswerType(
        question,
        'The progress is saved in the status file so btrfs scrub resume can continue.',
      ),
    ).toBe(false);
    // Not a question on where a name comes from, nor on the fraction "and/or".
    expect(holdsAnswerType('Where does the name Debian come from?', '')).toBeUndefined();
    expect(holdsAnswerType(question, 'It reads and/or writes the file.')).toBe(false);
  });

  it('is answered with the sentence that names the place', async () => {
    const answer = await answerOf(
      libraryOf([SCRUB], weightsOf({ btrfs: 2, scrub: 3, keep: 1.5, status: 2, files: 1 })),
      'Where does btrfs scrub keep its status files?',
    );
    expect(answer).toContain('/var/lib/btrfs/');
  });
});

// munin.conf(5) as a PDF (a new user's trial 41): each directive is written with the kind of its
// value and its default in parentheses, its description on the line under it. The colon of
// "(Default: …" had made the line a row of its own, so the description was under no directive.
describe('a directive with its default in parentheses', () => {
  it('heads the description under it', () => {
    const munin = doc(
      'munin.conf.5.pdf',
      [
        'GLOBAL DIRECTIVES',
        'logdir path (Default: /var/log/munin)',
        'Directory for log files. Required.',
        'htmldir path (Default: /var/cache/munin/www)',
        'Directory for HTML pages and graphs. Required.',
      ].join('\n'),
    );
    const passage = passagesOf(munin).find((p) => p.text === 'Directory for HTML pages and graphs.');
    expect(passage?.lead).toBe('htmldir path (Default: /var/cache/munin/www)');
  });
});
