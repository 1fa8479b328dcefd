import { describe, expect, it } from 'vitest';
import { GREETING_REPLY, smallTalk, THANKS_REPLY } from '../../src/server/answer/small-talk.js';

describe('small talk', () => {
  it('is a greeting or thanks alone, whatever its marks', () => {
    for (const said of ['hello', 'Hi there!', 'hey 👋', 'Good morning.', 'HELLO!!'])
      expect(smallTalk(said)).toBe(GREETING_REPLY);
    for (const said of ['thanks', 'Thank you so much!', 'thx :)', 'cheers'])
      expect(smallTalk(said)).toBe(THANKS_REPLY);
  });

  it('is not a question that starts with one', () => {
    for (const said of [
      'hello, what is the default port?',
      'Hello interval',
      'thanks for what?',
      'hi-res mode',
      'hey is a word',
    ])
      expect(smallTalk(said)).toBeUndefined();
  });
});
