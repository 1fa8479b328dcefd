import { describe, expect, it } from 'vitest';
import { stem } from '../../src/server/answer/relevance.js';
import { answerOf, doc, libraryOf } from '../helpers/library.js';

// The twenty-second new user's trial (P10): opendkim.conf(5) as a PDF, a setting's tolerance in
// seconds, its default in the sentence after.
const MAN_PAGE = doc(
  'opendkim/man/opendkim.conf.5.pdf',
  [
    'A warning will be generated if UserID is not also set.',
    'ClockDrift (integer)',
    'Sets the tolerance in seconds to be applied when determining whether a signature was either expired or generated in the future. The default is 300.',
    'Diagnostics (Boolean)',
    'Requests the inclusion of "z=" tags in signatures, which encode the original header field set for use by verifiers when diagnosing verification failures. Not recommended for normal operation.',
  ].join('\n'),
);

describe('"how much" of something measured in time', () => {
  it('is answered by a duration, as by an amount or a size', async () => {
    const library = libraryOf([MAN_PAGE], {
      [stem('clock')]: 4.1,
      [stem('difference')]: 2.3,
      opendkim: 2.4,
      [stem('tolerate')]: 4.5,
      [stem('decides')]: 3.9,
      whether: 3.3,
      [stem('signature')]: 2.5,
      [stem('expired')]: 2.9,
      [stem('comes')]: 3.3,
      [stem('future')]: 3.3,
    });
    const reply = await answerOf(
      library,
      'How much clock difference does OpenDKIM tolerate when it decides whether a signature has expired or comes from the future?',
    );
    expect(reply).toContain('Sets the tolerance in seconds');
    expect(reply).toContain('The default is 300.');
  });
});
