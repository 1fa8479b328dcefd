import { describe, expect, it } from 'vitest';
import { holdsAnswerType } from '../../src/server/answer/answer-type.js';

// The twenty-third new user's trial: "What is it set to if I leave it out?" after radvd's
// AdvSendAdvert was answered with its definition again, not "Default: off".
describe('a default asked in other words ("if I don\'t configure anything", "if I leave it out")', () => {
  it('asks for a default', () => {
    for (const question of [
      "If I don't configure anything, what is it set to?",
      'What is it set to if I leave it out?',
      "What does it do when I don't specify one?",
    ]) {
      expect(holdsAnswerType(question, 'Default: off')).toBe(true);
      expect(
        holdsAnswerType(
          question,
          'A flag indicating whether or not the router sends periodic router advertisements.',
        ),
      ).toBe(false);
    }
  });

  it('is held by a sentence that says what is the default ("sync is the default")', () => {
    expect(holdsAnswerType('Is it the default?', 'In all releases after 1.0.0, sync is the default.')).toBe(
      true,
    );
    expect(
      holdsAnswerType('Is it the default?', 'In releases up to 1.0.0, the async option was the default.'),
    ).toBe(true);
    expect(
      holdsAnswerType('Is it the default?', 'Reply to requests only after the changes are committed.'),
    ).toBe(false);
  });
});

// The twenty-third new user's trial (P11): jsonwebtoken's options are named in camelCase.
describe('"which option" asked', () => {
  it("is held by an option's name in camelCase, as by a flag or a snake_case name", () => {
    const question =
      "My servers' clocks are a few seconds apart and JWTs fail verification. Which option gives some slack?";
    expect(
      holdsAnswerType(
        question,
        'clockTolerance: number of seconds to tolerate when checking the nbf and exp claims, to deal with small clock differences among different servers',
      ),
    ).toBe(true);
    expect(holdsAnswerType(question, 'The clocks of the servers must agree.')).toBe(false);
  });
});
