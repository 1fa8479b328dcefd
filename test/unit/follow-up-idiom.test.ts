import { describe, expect, it } from 'vitest';
import { questionWords } from '../../src/server/answer/relevance.js';
import { doc, followUpOf, libraryOf } from '../helpers/library.js';

const page = (n: number, text: string) => doc('logrotate/logrotate.8.pdf', text, n);

// A new user's trial (#33, trial 18): after "What does logrotate's delaycompress option do?", the
// follow-up "Does it do anything on its own?" was answered with `create`'s "owner specifies the
// user who will own the log file": "own" was read as a word of the question.
const CREATE = page(
  6,
  'create mode owner group, create owner group\nImmediately after rotation (before the postrotate script is run) the log file is created (with the same name as the log file just rotated). mode specifies the mode for the log file in octal (the same as chmod(2)), owner specifies the user who will own the log file, and group specifies the group the log file will belong to.',
);
const DELAYCOMPRESS = page(
  7,
  'delaycompress\nPostpone compression of the previous log file to the next rotation cycle. This only has effect when used in combination with compress. It can be used when some program cannot be told to close its logfile and thus might continue writing to the previous log file for some time.',
);

describe('"on its own", "by itself"', () => {
  it('say alone, not owning: a follow-up saying them is answered on the subject before', async () => {
    expect(questionWords('Does it do anything on its own?')).not.toContain('own');
    expect(questionWords('Can the job run by itself?')).toEqual(['job', 'run']);
    const library = libraryOf([CREATE, DELAYCOMPRESS], { own: 3, delaycompress: 4, logrotate: 2 });
    const question = "What does logrotate's delaycompress option do?";
    const { first, next } = await followUpOf(library, question, 'Does it do anything on its own?');
    expect(first.content).toMatch(/^delaycompress: Postpone compression/);
    expect(next.content).toContain('This only has effect when used in combination with compress.');
    expect(next.content).not.toContain('owner specifies');
  });
});
