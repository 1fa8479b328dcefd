import { describe, expect, it } from 'vitest';
import { unwrapText } from '../../src/server/ingest/extraction/plain-text.js';

// cron's README.Debian (a new user's trial 39): four labels and their values lined up in a column
// were read as wrapped text, and "log file:" ran on into "allow file:": `log file: Check your
// syslog settings, facility "cron" allow file: /etc/cron.allow`.
const README = `File locations that are different than that indicated in
the cron distributions README:

user crontabs: /var/spool/cron/crontabs/*
log file:      Check your syslog settings, facility "cron"
allow file:    /etc/cron.allow
deny file:     /etc/cron.deny
`;

describe('labels and their values lined up in a column', () => {
  it('are each a line of their own', () => {
    expect(unwrapText(README).split('\n').slice(2, 6)).toEqual([
      'user crontabs: /var/spool/cron/crontabs/*',
      'log file:      Check your syslog settings, facility "cron"',
      'allow file:    /etc/cron.allow',
      'deny file:     /etc/cron.deny',
    ]);
  });
});
