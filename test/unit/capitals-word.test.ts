import { describe, expect, it } from 'vitest';
import { answerOf, doc, libraryOf } from '../helpers/library.js';

// tinyproxy's README (as DOCX) and its commented configuration (a sixteenth new user's trial).
const README = doc(
  'word/tinyproxy-readme.docx',
  [
    'Tinyproxy',
    'One of the key features of Tinyproxy is the buffering connection concept. In effect, Tinyproxy will buffer a high speed response from a server, and then relay it to a client at the highest speed the client will accept.',
  ].join('\n'),
);
const CONF = doc(
  'tinyproxy/tinyproxy.conf',
  [
    '#',
    '# ConnectPort: This is a list of ports allowed by tinyproxy when the',
    '# CONNECT method is used.  To disable the CONNECT method altogether, set',
    '# the value to 0.  If no ConnectPort line is found, all ports are',
    '# allowed.',
    '#',
    '#ConnectPort 443',
    '#ConnectPort 563',
  ].join('\n'),
);

describe('a word the question writes in capitals is that word, not any of its stem', () => {
  it('"CONNECT" (the HTTP method) is not held by "connection"', async () => {
    const answer = await answerOf(
      libraryOf([README, CONF], { connect: 3, tinyproxi: 4, disabl: 2, stop: 1, allow: 1 }),
      'How do I stop tinyproxy allowing CONNECT at all?',
    );
    expect(answer).toContain('To disable the CONNECT method altogether, set the value to 0.');
    expect(answer).not.toContain('buffering connection');
  });

  it('a word in capitals is still held by the same word in lower case ("csv")', async () => {
    const answer = await answerOf(
      libraryOf([
        doc('notes.md', 'To read a csv file, give gnuplot the separator with set datafile separator comma.'),
      ]),
      'How do I read a CSV file in gnuplot?',
    );
    expect(answer).toContain('set datafile separator comma');
  });
});
