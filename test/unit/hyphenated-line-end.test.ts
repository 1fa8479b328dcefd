import { describe, expect, it } from 'vitest';
import { unwrapText } from '../../src/server/ingest/extraction/plain-text.js';
import { pdfPageText } from '../../src/server/ingest/extraction/pdf-text.js';

// A new user's trial (34): man pages saved as text (`groff -man -Tutf8 | col -bx`) break words
// with groff's U+2010 hyphen; sudoers(5)'s "The de‐" / "fault is 3." never said "default", and
// unbound.conf(5)'s cache-max-ttl was answered with its neighbour's "Default is 3600".
describe('a word hyphenated at a line end', () => {
  const page = [
    'PASSWD_TRIES',
    '       passwd_tries',
    '              The number of tries a user gets to enter his/her password before',
    '              sudo  logs  the  failure  and  exits  with  an  error.   The  de\u2010',
    '              fault is 3.  This setting is only used by the sudoers policy and',
    '              is ignored by other plugins in the configuration file anyway.',
    '       cache-max-ttl: <seconds>',
    '              Time to live maximum for RRsets and messages in the cache.  De\u00AD',
    '              fault is 86400 seconds (1 day).  When the TTL expires, the cache',
    '              item has expired.  Can be set lower to force the resolver to',
    '              query for data often, and not trust (very large) TTL values.',
  ].join('\n');

  it('is whole again in plain text, whichever hyphen groff wrote', () => {
    const text = unwrapText(page);
    expect(text).toMatch(/The +default is 3\./);
    expect(text).toContain('Default is 86400 seconds');
    expect(text).not.toMatch(/de\u2010|De\u00AD/);
  });

  it('and on a PDF page', () => {
    const line = (str: string, y: number) => ({
      str,
      transform: [10, 0, 0, 10, 72, y],
      width: str.length * 5,
      height: 10,
      hasEOL: true,
    });
    const text = pdfPageText([
      line(
        'The number of tries a user gets to enter a password before sudo logs the failure. The de\u2010',
        700,
      ),
      line('fault is 3. This setting is only used by the sudoers policy and is ignored by the others.', 688),
    ]);
    expect(text).toContain('The default is 3.');
  });

  // A new user's trial 36: irqbalance(1) rendered to PDF cut an identifier in capitals,
  // `IRQBALANCE_BANNED_CPUS`, as "IRQBAL-" / "ANCE_BANNED_CPUS=fc0", and kept both parts.
  it('is whole again when it is a name in capitals with underscores', () => {
    const line = (str: string, y: number) => ({
      str,
      transform: [10, 0, 0, 10, 72, y],
      width: str.length * 5,
      height: 10,
      hasEOL: true,
    });
    const text = pdfPageText([
      line('Do not balance the interrupts of these CPUs; for example, export IRQBAL-', 700),
      line('ANCE_BANNED_CPUS=fc0 to leave CPUs 4 to 7 alone. Both the SSH- and the HTTP-based', 688),
      line('checks run first.', 676),
    ]);
    expect(text).toContain('export IRQBALANCE_BANNED_CPUS=fc0 to leave');
    expect(
      unwrapText(
        [
          'IRQBALANCE_BANNED_CPUS',
          '       Provides a mask of CPUs which irqbalance should ignore and never assign',
          '       interrupts to. For example, to leave CPUs 4 to 7 alone, export IRQBAL\u2010',
          '       ANCE_BANNED_CPUS=fc0 before starting it, as the text goes on to say over',
          '       more than two lines of text, filled to the same width as the others are.',
        ].join('\n'),
      ),
    ).toContain('export IRQBALANCE_BANNED_CPUS=fc0 before starting it');
  });

  // A new user's trial 39: ufw(8) saved as text cut "DIRECTION" as "DI‐" / "RECTION is one of…",
  // and the answer quoted "where DI‐ RECTION is one of incoming, outgoing or routed".
  it('is whole again when it is a word in capitals the text writes whole nearby', () => {
    const text = unwrapText(
      [
        '       default allow|deny|reject DIRECTION',
        '              change the default policy for traffic going DIRECTION, where DI\u2010',
        '              RECTION is one of incoming, outgoing or routed. Note that exist\u2010',
        '              ing rules will have to be migrated manually when changing the',
        '              default policy. See RULE SYNTAX for more on deny and reject.',
      ].join('\n'),
    );
    expect(text).toContain(
      'where DIRECTION is one of incoming, outgoing or routed. Note that existing rules',
    );
    // "SSH‐" / "HTTP-based": no word written whole beside it.
    expect(
      unwrapText('Both the SSH\u2010\nHTTP tunnels and the others, as the text goes on to say.'),
    ).not.toContain('SSHHTTP');
  });
});
