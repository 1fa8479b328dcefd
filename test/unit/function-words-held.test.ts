import { describe, expect, it } from 'vitest';
import { holdsAnswerType } from '../../src/server/answer/answer-type.js';
import { answerOf, doc, libraryOf, weightsOf } from '../helpers/library.js';

// FRR's BFD page (a new user's trial 40): the answer is an example in other words than the
// question's. It held every name the question gives but "if", which WordNet does not list and so
// weighed as a name, and its "900 milliseconds" was no duration: refused at 0.49.
const BFD = doc(
  'frr-bfd.html',
  [
    'detect-multiplier (2-255)',
    'Configures the detection multiplier to determine packet loss. The remote transmission interval will be multiplied by this value to determine the connection loss detection timer. The default value is 3.',
    'Example: when the local system has detect-multiplier 3 and the remote system has transmission interval 300, the local system will detect failures only after 900 milliseconds without receiving packets.',
  ].join('\n'),
);

describe('a paraphrase that holds every name the question gives', () => {
  it('need not hold its conjunctions and prepositions', async () => {
    const answer = await answerOf(
      libraryOf(
        [BFD],
        weightsOf({
          default: 0.8,
          bfd: 0.9,
          settings: 0.9,
          frr: 0.1,
          without: 2.6,
          packets: 1,
          before: 0.6,
          failure: 2.1,
          detected: 1.5,
          if: 0.8,
          remote: 1.5,
          side: 4,
          transmits: 1.5,
          every: 0.8,
          300: 3.4,
          ms: 2.5,
        }),
      ),
      'With default BFD settings in FRR, how long without packets before a failure is detected if the remote side transmits every 300 ms?',
    );
    expect(answer).toContain('900 milliseconds');
  });

  it('answers "how long" with milliseconds', () => {
    expect(holdsAnswerType('How long until it fails?', 'It fails after 900 milliseconds.')).toBe(true);
    expect(holdsAnswerType('How long until it fails?', 'It fails after 250ms.')).toBe(true);
  });
});
