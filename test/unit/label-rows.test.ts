import { describe, expect, it } from 'vitest';
import { passagesOf } from '../../src/server/answer/passages.js';
import { answerOf, doc, libraryOf } from '../helpers/library.js';

// cron's README.Debian as kb reads it (a new user's trial 39): rows of labels and their values
// under the sentence that introduces them. The first row was read as a term and the others as its
// definition and attributes ("user crontabs: /var/spool/cron/crontabs/*: deny file: /etc/cron.deny"),
// a list's item and a line cut before a path as headings of the rest of the file.
const README = doc(
  'cron/README.Debian',
  [
    'cron for DEBIAN',
    "This is the Debian GNU/Linux prepackaged and heavily modified version of Paul Vixie's cron subsystem.",
    'Ian obtained them from',
    'src.doc.ic.ac.uk:/usenet/comp.sources.unix/volume27/vixie-cron.',
    "Debian's cron version introduces a significant number of changes:",
    '* Support for /etc/cron.d (drop-in dir for package crontabs)',
    '* SGID crontab(1) instead of SUID root',
    'Users are STRONGLY advised to carefully check the man pages crontab(1) and crontab(5).',
    'File locations that are different than that indicated in the cron distributions README:',
    'user crontabs: /var/spool/cron/crontabs/*',
    'log file: Check your syslog settings, facility "cron"',
    'allow file: /etc/cron.allow',
    'deny file: /etc/cron.deny',
    'This package is now maintained by Javier Fernández-Sanguino Peña <jfs@debian.org>.',
  ].join('\n'),
);

describe('rows of labels and their values', () => {
  it('are rows of the list their sentence introduces, under the heading and no item or cut line', () => {
    const passages = passagesOf(README);
    const rows = passages.filter((p) => p.line >= 9 && p.line <= 12);
    expect(rows.map((p) => p.text)).toEqual([
      'user crontabs: /var/spool/cron/crontabs/*',
      'log file: Check your syslog settings, facility "cron"',
      'allow file: /etc/cron.allow',
      'deny file: /etc/cron.deny',
    ]);
    for (const row of rows) {
      expect(row.intro).toBe(
        'File locations that are different than that indicated in the cron distributions README:',
      );
      expect(row.lead).toBe('cron for DEBIAN');
    }
    expect(passages.map((p) => p.lead)).not.toContain('Ian obtained them from');
    expect(passages.map((p) => p.lead)).not.toContain('* SGID crontab(1) instead of SUID root');
  });

  it('answer with the row asked about alone', async () => {
    const answer = await answerOf(
      libraryOf([README], { user: 2, crontab: 2, store: 1, debian: 1 }),
      'Where are user crontabs stored on Debian?',
    );
    expect(answer).toContain('user crontabs: /var/spool/cron/crontabs/*');
    expect(answer).not.toContain('deny file');
  });
});

// BIRD's NEWS (a new user's trial 40): each version's changes are items marked `o`, as nroff marks
// them. The first item had headed the others, so "Which BIRD version added BGP roles?" was
// answered with the items and without the version.
describe("an item marked as nroff's `o` bullet", () => {
  it('heads nothing: the version above it heads the items', async () => {
    const news = doc(
      'bird2-NEWS',
      [
        'Version 2.0.12 (2023-01-23)',
        "o Filter: New 'onlink' route attribute",
        'o Important bugfixes',
        'Version 2.0.11 (2022-11-12)',
        'o BGP roles (RFC 9234)',
        'o BGP: Keepalive time scaling',
        "o BGP: New 'min hold time' and 'min keepalive time' options",
      ].join('\n'),
    );
    expect(passagesOf(news).find((p) => p.text === 'o BGP: Keepalive time scaling')?.lead).toBe(
      'Version 2.0.11 (2022-11-12)',
    );
    const answer = await answerOf(
      libraryOf([news], { bird: 2, version: 1, ad: 1, bgp: 3, role: 3, rfc: 2, 9234: 5 }),
      'Which BIRD version added BGP roles (RFC 9234)?',
    );
    expect(answer).toContain('Version 2.0.11');
  });
});
