import { describe, expect, it } from 'vitest';
import { REDIS_APPENDFSYNC_MODES } from '../helpers/documents.js';
import { answerOf, doc, followUpOf, libraryOf, weightsOf } from '../helpers/library.js';

// redis.conf as Debian ships it (a twenty-fifth new user's trial): appendfsync's modes are a
// comment's items, each a term, a colon and what it does, far above the setting. "What does
// appendfsync everysec mean?" was answered "If unsure, use "everysec"." and its follow-up
// "Which value of it is the safest?" with no-appendfsync-on-rewrite's "leave it as "no" that is
// the safest pick": the opposite of what the file says of appendfsync.
const REDIS = doc(
  'redis/redis.conf',
  [
    ...REDIS_APPENDFSYNC_MODES,
    '# The default is "everysec", as that\'s usually the right compromise between speed and data safety.',
    '#',
    '# If unsure, use "everysec".',
    '# appendfsync always',
    'appendfsync everysec',
    '# appendfsync no',
    '#',
    '# If you have latency problems turn this to "yes". Otherwise leave it as "no" that is the safest pick from the point of view of durability.',
    'no-appendfsync-on-rewrite no',
  ].join('\n'),
);
const WEIGHTS = weightsOf({
  appendfsync: 7.3,
  everysec: 7.5,
  redis: 3.6,
  safest: 5.4,
  value: 1.2,
  mean: 0.9,
});

describe("a configuration comment's items written as a term and a colon", () => {
  it('define their term', async () => {
    const answer = await answerOf(
      libraryOf([REDIS], WEIGHTS),
      'What does appendfsync everysec mean in Redis?',
    );
    expect(answer).toContain('everysec: fsync only one time every second.');
  });

  it("leave a follow-up's setting to the one the question before named", async () => {
    const library = libraryOf([REDIS], WEIGHTS);
    const { next } = await followUpOf(
      library,
      'What does appendfsync everysec mean in Redis?',
      'Which value of it is the safest?',
    );
    const answer = next.content;
    expect(answer).not.toContain('no-appendfsync-on-rewrite');
    expect(answer).not.toContain('leave it as "no"');
  });
});
