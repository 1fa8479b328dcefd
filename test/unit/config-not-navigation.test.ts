import { describe, expect, it } from 'vitest';
import { extractiveAnswer, retrieve } from '../../src/server/answer/assistant.js';
import { doc, libraryOf } from '../helpers/library.js';

// A new user's trial (#33): login.defs's settings are lines of a name and a number
// (`PASS_WARN_AGE 7`, `UMASK 022`), the shape of a table of contents' entries ("Title 12"), so
// its chunks were read as navigation, answering nothing: "How many days before a password
// expires are users warned?" was refused.
const LOGIN_DEFS = [
  'ERASECHAR\t0177',
  'KILLCHAR\t025',
  'UMASK\t\t022',
  'HOME_MODE\t0700',
  '#',
  '# Password aging controls:',
  '#',
  '#\tPASS_MAX_DAYS\tMaximum number of days a password may be used.',
  '#\tPASS_MIN_DAYS\tMinimum number of days allowed between password changes.',
  '#\tPASS_WARN_AGE\tNumber of days warning given before a password expires.',
  '#',
  'PASS_MAX_DAYS\t99999',
  'PASS_MIN_DAYS\t0',
  'PASS_WARN_AGE\t7',
  'UID_MIN\t\t\t 1000',
  'UID_MAX\t\t\t60000',
  'GID_MIN\t\t\t 1000',
  'GID_MAX\t\t\t60000',
  'LOGIN_RETRIES\t\t5',
  'LOGIN_TIMEOUT\t\t60',
].join('\n');

describe('a configuration file of names and numbers', () => {
  it('is no table of contents: its comments answer', async () => {
    const r = await retrieve(
      libraryOf([doc('login.defs', LOGIN_DEFS)]),
      'ws',
      'How many days before a password expires are users warned?',
      [],
    );
    // With the value the file sets further down, under the name its comment described.
    expect(extractiveAnswer(r).content).toMatch(
      /^PASS_WARN_AGE: Number of days warning given before a password expires\.\n\n```\nPASS_WARN_AGE\t7\n```\n/,
    );
  });
});
