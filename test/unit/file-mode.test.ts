import { describe, expect, it } from 'vitest';
import { holdsAnswerType } from '../../src/server/answer/answer-type.js';
import { answerOf, docLines, libraryOf, weightsOf } from '../helpers/library.js';

// A new user's trial (34): 'In Debian's rsyslog.conf, with which file mode are new log files
// created?' was answered with rsyslog.conf(5)'s DESCRIPTION ("The rsyslog.conf file is the main
// configuration file…"), which holds the question's words and no mode; the shipped file's
// `$FileCreateMode 0640`, under "# Set the default permissions for all log files.", was not.
describe('a question that asks for a file mode', () => {
  it('is held by a mode, in digits or letters', () => {
    const question = 'With which file mode are new log files created?';
    expect(holdsAnswerType(question, '$FileCreateMode 0640')).toBe(true);
    expect(holdsAnswerType('What permissions does the socket get?', 'srw-rw---- 1 root')).toBe(true);
    expect(holdsAnswerType('What umask does it use?', 'umask 022')).toBe(true);
    expect(holdsAnswerType(question, 'The rsyslog.conf file is the main configuration file.')).toBe(false);
    // Not a year, a port or a version.
    expect(holdsAnswerType(question, 'Since 2021 it listens on port 514, version 8.2302.')).toBe(false);
    expect(holdsAnswerType('Which mode does the editor start in?', '')).toBeUndefined();
  });

  it('is answered by the setting that holds one', async () => {
    const library = libraryOf(
      [
        docLines('rsyslog.conf.5.txt', 0, [
          'DESCRIPTION',
          'The rsyslog.conf file is the main configuration file for the rsyslogd(8) which logs system messages on *nix systems. This file specifies rules for logging. Typically messages are logged to real files.',
        ]),
        docLines('rsyslog.conf', 0, [
          '#### GLOBAL DIRECTIVES ####',
          '#',
          '# Set the default permissions for all log files.',
          '#',
          '$FileOwner root',
          '$FileGroup adm',
          '$FileCreateMode 0640',
          '$DirCreateMode 0755',
          '$Umask 0022',
        ]),
      ],
      weightsOf({ debian: 4.4, rsyslog: 2, mode: 1.9, created: 2, log: 1.4, new: 0.8, file: 0.8 }),
    );
    const answer = await answerOf(
      library,
      "In Debian's rsyslog.conf, with which file mode are new log files created?",
    );
    expect(answer).toContain('$FileCreateMode 0640');
    expect(answer).not.toContain('main configuration file');
  });
});
