import { describe, expect, it } from 'vitest';
import { stem } from '../../src/server/answer/relevance.js';
import { answerOf, doc, libraryOf } from '../helpers/library.js';

// A new user's trial 28 (K25, F3a): ntp.conf(5) as a PDF. "What does iburst do in ntp.conf?" was
// answered with its FILES section's "/etc/ntpsec/ntp.conf: the default name of the configuration
// file.": a definition of the name ntp.conf, taken for the answer though the question's subject,
// `iburst` (a name, no word of the language), is neither its term nor its document's name.
const FILES = doc(
  'ntp/ntp.conf.5.pdf',
  [
    'filenum filedescriptors',
    'Specifies the maximum number of file descriptors ntpd may have open at once. Defaults to the system default.',
    'FILES',
    '/etc/ntpsec/ntp.conf',
    'the default name of the configuration file',
    '/etc/ntpsec/ntp.keys',
    'private keys',
    'One of the following exit values will be returned:',
  ].join('\n'),
  20,
);
const IBURST = doc(
  'ntp/ntp.conf.5.pdf',
  [
    'iburst',
    'When the server is unreachable, send a burst of six packets instead of the usual one. The packet spacing is normally 2 s.',
  ].join('\n'),
  2,
);

describe("a definition answers what a name does only when it is that name's", () => {
  it("not one of the file the question names (ntp.conf's FILES entry for iburst)", async () => {
    const answer = await answerOf(
      libraryOf([FILES, IBURST], { [stem('iburst')]: 6, [stem('ntp.conf')]: 3, [stem('does')]: 0.5 }),
      'What does iburst do in ntp.conf?',
    );
    expect(answer).toMatch(/^iburst: When the server is unreachable, send a burst of six packets/);
    expect(answer).not.toContain('the default name of the configuration file');
  });

  it("so that without the name anywhere, the question is not answered by the file's entry", async () => {
    const answer = await answerOf(
      libraryOf([FILES], { [stem('iburst')]: 6, [stem('ntp.conf')]: 3, [stem('does')]: 0.5 }),
      'What does iburst do in ntp.conf?',
    );
    expect(answer).toMatch(/^I couldn't find anything about that/);
  });
});
