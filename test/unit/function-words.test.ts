import { describe, expect, it } from 'vitest';
import { questionWords, shareOf, stem } from '../../src/server/answer/relevance.js';
import { answerOf, doc, libraryOf } from '../helpers/library.js';

// The twenty-second and twenty-third new users' trials: words WordNet does not know weighed as
// names ("anything" 5.1, "don" of "don't" 3.4), though they are none.
describe("an indefinite pronoun and a contraction's first part", () => {
  it('weigh as common words, not as names', () => {
    const question =
      "If I don't configure anything, why doesn't supervisor start it, whether or not it is enabled?";
    expect(questionWords(question)).toEqual(expect.arrayContaining(['don', 'doesn', 'anything']));
    for (const word of ['don', 'doesn', 'anything']) expect(shareOf(word, question)).toBeLessThanOrEqual(0.4);
    expect(shareOf('supervisor', question)).toBeGreaterThan(0.4);
  });

  it('so do contractions written without their apostrophe ("whats", "dont")', () => {
    for (const word of ['whats', 'dont', 'doesnt', 'isnt'])
      expect(shareOf(word, 'whats the iperf3 default port')).toBeLessThanOrEqual(0.4);
  });
});

// The twenty-second new user's trial (P13): MPD's user manual.
const MANUAL = doc(
  'mpd/html/user.html',
  [
    'Configuration',
    'MPD reads its configuration from a text file. Usually, that is /etc/mpd.conf, unless a different path is specified on the command line. If you run MPD as a user daemon (and not as a system daemon), the configuration is read from $XDG_CONFIG_HOME/mpd/mpd.conf.',
  ].join('\n'),
);

describe('a sentence whose subject, after an adverb, is the sentence before ("Usually, that is…")', () => {
  it('is shown after that sentence', async () => {
    const library = libraryOf([MANUAL], {
      mpd: 2.5,
      [stem('look')]: 2,
      [stem('configuration')]: 1.6,
      file: 1.2,
      [stem('command')]: 1.5,
      line: 1.6,
    });
    const reply = await answerOf(
      library,
      "Where does MPD look for its configuration file when I don't give one on the command line?",
    );
    expect(reply).toContain('MPD reads its configuration from a text file. Usually, that is /etc/mpd.conf');
  });
});

// The twenty-ninth new user's trial (q48): "long" was dropped as the word "how long" asks with,
// though the question names smartctl's long self-test with it twice.
describe('a word after "how" ("how long")', () => {
  it('only shapes the question there, and is its word where it says it again', () => {
    expect(questionWords('How long does the daemon wait before retrying?')).not.toContain('long');
    expect(
      questionWords('How long does a long self-test started with smartctl -t long take on an ATA disk?'),
    ).toContain('long');
  });
});
