import { describe, expect, it } from 'vitest';
import { holdsAnswerType } from '../../src/server/answer/answer-type.js';
import { answerOf, doc, libraryOf, weightsOf } from '../helpers/library.js';

// radvd.conf(5) as a PDF (a new user's trial 40): asked which option sets the maximum time between
// router advertisements, kb answered with MinRtrAdvInterval, whose default ("0.33 *
// MaxRtrAdvInterval") held a figure, read as the magnitude "maximum" asks for.
const RADVD = doc(
  'radvd.conf.5.pdf',
  [
    'MaxRtrAdvInterval seconds',
    'The maximum time allowed between sending unsolicited multicast router advertisements from the interface, in seconds.',
    'Must be no less than 4 seconds and no greater than 1800 seconds.',
    'MinRtrAdvInterval seconds',
    'The minimum time allowed between sending unsolicited multicast router advertisements from the interface, in seconds.',
    'Default: 0.33 * MaxRtrAdvInterval',
  ].join('\n'),
);

describe('a question that asks which option does something', () => {
  it('asks for an option alone, not for the magnitude or figure its other words name', () => {
    const question = 'Which option sets the maximum time between unsolicited router advertisements?';
    expect(holdsAnswerType(question, 'The limit is 600 seconds.')).toBe(false);
    expect(holdsAnswerType(question, 'MaxRtrAdvInterval seconds')).toBe(true);
    expect(
      holdsAnswerType('What is the maximum time between advertisements?', 'The limit is 600 seconds.'),
    ).toBe(true);
  });

  it('is answered with the option that does it', async () => {
    const answer = await answerOf(
      libraryOf(
        [RADVD],
        weightsOf({
          radvd: 2,
          conf: 1,
          option: 0.5,
          set: 0.9,
          maximum: 2.4,
          time: 0.6,
          between: 2.1,
          unsolicited: 4,
          router: 3,
          advertisement: 3.5,
        }),
      ),
      'In radvd.conf, which option sets the maximum time between unsolicited router advertisements?',
    );
    expect(answer).toMatch(/^MaxRtrAdvInterval/);
  });
});

// opendkim.conf(5) as a PDF (a new user's trial 40): each setting's name heads its description,
// with the type of its value. Asked which setting selects relaxed or simple canonicalization, kb
// quoted the description's later sentences without the setting's name, the one thing asked.
describe('a question on which setting does something', () => {
  it("is answered with the name the answering sentence's description is under", async () => {
    const opendkim = doc(
      'opendkim.conf.5.pdf',
      [
        'Canonicalization (string)',
        'Selects the canonicalization method(s) to be used when signing messages. When verifying, the message’s DKIM-Signature: header field specifies the canonicalization method. The recognized values are relaxed and simple as defined by the DKIM specification. The default is simple.',
        'ChangeRootDirectory (string)',
        'Requests that the operating system change the effective root directory of the process.',
      ].join('\n'),
    );
    const answer = await answerOf(
      libraryOf(
        [opendkim],
        weightsOf({
          opendkim: 2,
          conf: 1,
          setting: 0.5,
          select: 2,
          relaxed: 4,
          simple: 3,
          canonicalization: 4,
        }),
      ),
      'Which opendkim.conf setting selects relaxed or simple canonicalization?',
    );
    expect(answer).toMatch(/^Canonicalization \(string\): /);
  });
});
