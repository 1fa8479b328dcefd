import { describe, expect, it } from 'vitest';
import { passagesOf } from '../../src/server/answer/passages.js';
import { answerOf, doc, libraryOf } from '../helpers/library.js';

// hostapd.conf as Debian ships it (a twenty-ninth new user's trial, q25): a setting's comment says
// what it is in sentences, then its default alone in parentheses on the comment's last line. That
// line was lost (too short for a sentence), so the comment was no longer the setting's, and a
// comment written without full stops, its default in the same run-on sentence, answered instead.
const HOSTAPD_CONF = doc(
  'hostapd/hostapd.conf',
  [
    '# DTIM (delivery traffic information message) period (range 1..255):',
    '# number of beacons between DTIMs (1 = every beacon includes DTIM element)',
    '# (default: 2)',
    'dtim_period=2',
    '',
    '# Maximum number of stations allowed in station table. New stations will be',
    '# rejected after the station table is full. IEEE 802.11 has a limit of 2007',
    '# different association IDs, so this number should not be larger than that.',
    '# (default: 2007)',
    'max_num_sta=255',
    '',
    '# Maximum number of stations to track on the operating channel',
    '# This can be used to detect dualband capable stations before they have',
    '# associated, e.g., to provide guidance on which colocated BSS to use.',
    '# Default: 0 (disabled)',
    '#track_sta_max_num=100',
  ].join('\n'),
);

describe("a comment's default alone in parentheses on its last line", () => {
  it("is the last sentence's, and the comment is the setting's", () => {
    const passages = passagesOf(HOSTAPD_CONF).filter((p) => p.line >= 5 && p.line < 10);
    expect(passages.map((p) => p.text)).toContain(
      'IEEE 802.11 has a limit of 2007 different association IDs, so this number should not be larger than that. (default: 2007)',
    );
    expect(passages.map((p) => p.example)).toEqual(Array(3).fill('max_num_sta=255'));
  });

  it("answers for the default of what the comment's other sentences say", async () => {
    const answer = await answerOf(
      libraryOf([HOSTAPD_CONF], { maximum: 2, number: 1.2, station: 3.5, tabl: 3, hostapd: 3, default: 1 }),
      "What is the default maximum number of stations in hostapd's station table?",
    );
    expect(answer).toContain('(default: 2007)');
    expect(answer).not.toContain('Default: 0');
    // The setting shown once, under the first sentence, not again after each.
    expect(answer.match(/max_num_sta=255/g)).toHaveLength(1);
  });
});
