import { describe, expect, it } from 'vitest';
import { answerOf, doc, libraryOf } from '../helpers/library.js';

// The twenty-seventh new user's trial (K08): curl(1) as a PDF. The first sentence under an option
// line with its argument (`--retry-max-time <seconds>`) was not read as its definition, so "What
// does curl's --retry-max-time option do?" was answered with the sentences that repeat the
// question's words ("Set this option to zero…") instead of what the option does.
const RETRY_MAX_TIME = [
  '--retry-max-time <seconds>',
  'The retry timer is reset before the first transfer attempt. Retries will be done as usual (see --retry) as long as the timer has not reached this given limit. Notice that if the timer has not reached the limit, the request will be made and while performing, it may take longer than this given time period. To limit a single request’s maximum time, use -m, --max-time. Set this option to zero to not timeout retries.',
  'If --retry-max-time is provided several times, the last set value will be used.',
  'Example:',
  'curl --retry-max-time 30 --retry 10 https://example.com',
  'See also --retry.',
].join('\n');

describe('the line under an option and its argument', () => {
  it('is its definition: what the option does', async () => {
    const answer = await answerOf(
      libraryOf([doc('curl-wget/curl.1.pdf', RETRY_MAX_TIME)]),
      "What does curl's --retry-max-time option do?",
    );
    expect(answer).toMatch(/^--retry-max-time <seconds>: The retry timer is reset/);
    expect(answer).toContain('as long as the timer has not reached this given limit');
  });
});
