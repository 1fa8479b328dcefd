import { describe, expect, it } from 'vitest';
import { answerOf, docLines, libraryOf, weightsOf } from '../helpers/library.js';

// A new user's trial 42 (K10): BIRD's BGP options end two entries with the same sentence. "What is
// the default BGP hold time in BIRD?" was answered with `startup hold time`'s default: `hold
// time`'s own "Default: 240 seconds." had been dropped as a copy of the other's.
const BGP = docLines('bird/bird-6.html', 65, [
  'startup hold time number',
  'Value of the hold timer used before the routers have a chance to exchange open messages and agree on the real value. Default: 240 seconds.',
  'hold time number',
  'Time in seconds to wait for a Keepalive message from the other side before considering the connection stale. The effective value is negotiated during session establishment. Default: 240 seconds.',
  'min hold time number',
  'Minimum value of the hold time that is accepted during session negotiation. Default: none.',
]);

describe('the same sentence under another heading', () => {
  it('is no copy: each answers for its own heading', async () => {
    const answer = await answerOf(
      libraryOf([BGP], weightsOf({ default: 0.44, bgp: 1.1, hold: 3, time: 0.5, bird: 0.1 })),
      'What is the default BGP hold time in BIRD?',
    );
    expect(answer).toMatch(/(?:^|\. )hold time number: [^:]*Default: 240 seconds\./);
  });
});
