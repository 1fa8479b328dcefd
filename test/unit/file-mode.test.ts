import { describe, expect, it } from 'vitest';
import { holdsAnswerType } from '../../src/server/answer/answer-type.js';

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
});
