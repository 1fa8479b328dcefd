import { describe, expect, it } from 'vitest';
import { isNavigation } from '../../src/server/answer/passages.js';

// chrony's FAQ.txt (a seventeenth new user's trial): its table of contents, rendered from HTML with
// a bullet before each numbered section (`o` for a chapter, `?` for a question).
const CONTENTS = [
  '? 3.4. Is chronyd allowed to step the system clock?',
  '? 3.5. Using NTS?',
  '? 3.6. Using a Windows NTP server?',
  'o 4. Issues with chronyc',
  '? 4.1. I keep getting the error 506 Cannot talk to daemon ? 4.2. I keep getting the error 501 Not authorised',
  '? 4.3. What is the reference ID reported by the tracking command? ? 4.4. Is the chronyc / chronyd protocol documented anywhere?',
  'o 5. Real-time clock issues',
  '? 5.1. What is the real-time clock (RTC)?',
].join('\n');

describe('a table of contents whose entries are a bullet and a numbered section', () => {
  it('is navigation', () => {
    expect(isNavigation(CONTENTS)).toBe(true);
  });

  it('but the sections themselves, a numbered heading and its text, are not', () => {
    const body = [
      '4. Issues with chronyc',
      '4.1. I keep getting the error 506 Cannot talk to daemon',
      'When accessing chronyd remotely, make sure that the chrony.conf file (on the computer where chronyd is running) has a cmdallow entry for the computer you are running chronyc on and an appropriate bindcmdaddress directive. This is not necessary for localhost.',
      'Perhaps chronyd is not running. Try using the ps command (e.g. on Linux, ps -auxw) to see if it is running.',
      '4.2. I keep getting the error 501 Not authorised',
      'This error indicates that chronyc sent the command to chronyd using a UDP socket instead of the Unix domain socket.',
    ].join('\n');
    expect(isNavigation(body)).toBe(false);
  });
});
