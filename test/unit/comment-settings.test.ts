import { describe, expect, it } from 'vitest';
import { answerOf, doc, libraryOf, weightsOf } from '../helpers/library.js';

// Two configuration files of a seventeenth new user's trial.
const MSMTP = doc(
  'msmtp/msmtprc-system.example',
  [
    '# The SMTP smarthost',
    'host mail.oursite.example',
    '',
    '# Use TLS on port 465. On this port, TLS starts without STARTTLS.',
    'port 465',
    'tls on',
    'tls_starttls off',
  ].join('\n'),
);
const RSYSLOG = doc(
  'rsyslog/rsyslog.conf',
  [
    '###########################',
    '',
    '#',
    '# Set the default permissions for all log files.',
    '#',
    '$FileOwner root',
    '$FileGroup adm',
    '$FileCreateMode 0640',
    '$DirCreateMode 0755',
    '$Umask 0022',
    '',
    '#',
    '# Where to place spool and state files',
    '#',
    '$WorkDirectory /var/spool/rsyslog',
  ].join('\n'),
);

describe('the settings under the comment that says what they do', () => {
  it('an `…rc-system.example` file is a configuration file: its setting is shown under its comment', async () => {
    const answer = await answerOf(
      libraryOf([MSMTP], { msmtp: 3, port: 2, tls: 2, starttl: 3 }),
      'Which port does msmtp connect to when TLS is used without STARTTLS?',
    );
    expect(answer).toContain('port 465');
  });

  it('a sentence of a comment above a group of settings (`$FileCreateMode 0640`) is shown with all of them', async () => {
    const answer = await answerOf(
      libraryOf([RSYSLOG], { rsyslog: 3, permiss: 2, log: 1, file: 1, creat: 1 }),
      'What permissions does rsyslog give the log files it creates?',
    );
    expect(answer).toContain('Set the default permissions for all log files.');
    expect(answer).toContain(
      '$FileOwner root\n$FileGroup adm\n$FileCreateMode 0640\n$DirCreateMode 0755\n$Umask 0022',
    );
    expect(answer).not.toContain('WorkDirectory');
  });

  // A new user's trial (34): answered with rsyslog.conf(5)'s DESCRIPTION, which holds the question's
  // words and no mode; the mode is in the fifth line of the group the comment describes.
  it('a mode asked for is held by the group of settings under the comment', async () => {
    const MAN_PAGE = doc(
      'rsyslog.conf.5.txt',
      [
        'DESCRIPTION',
        'The rsyslog.conf file is the main configuration file for the rsyslogd(8) which logs system messages on *nix systems. This file specifies rules for logging. Typically messages are logged to real files.',
      ].join('\n'),
    );
    const answer = await answerOf(
      libraryOf(
        [MAN_PAGE, RSYSLOG],
        weightsOf({ debian: 4.4, rsyslog: 2, mode: 1.9, created: 2, log: 1.4, new: 0.8, file: 0.8 }),
      ),
      "In Debian's rsyslog.conf, with which file mode are new log files created?",
    );
    expect(answer).toContain('$FileCreateMode 0640');
    expect(answer).not.toContain('main configuration file');
  });
});
