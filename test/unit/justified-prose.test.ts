import { describe, expect, it } from 'vitest';
import { unwrapText } from '../../src/server/ingest/extraction/plain-text.js';

// rsyslog.conf(5) as `man` saves it (80 columns, justified, tabs): a new user's trial 38 (#33).
// The list of modules puts its descriptions at column 14; so, by chance, does a justified line of
// the prose after it ("which  is  extremely…"), which was cut in two there as if it were a term.
const RSYSLOG_CONF = `       imudp  Input plugin for UDP syslog. Replaces the deprecated -r  option.
\t      Can be used like this:

\t      $ModLoad imudp

\t      $UDPServerRun 514

       imtcp  Input  plugin  for  plain TCP syslog. Replaces the deprecated -t
\t      option. Can be used like this:

\t      $ModLoad imtcp

\t      $InputTCPServerRun 514

   Remote machine
       There are three ways to forward message: the traditional UDP transport,
       which  is  extremely  lossy but standard, the plain TCP based transport
       which loses messages only  during  certain  situations  but  is\twidely
       available  and  the  RELP transport which does not lose messages but is
       currently available only as part of rsyslogd 3.15.0 and above.

       To forward messages to another host via UDP, prepend the hostname  with
       the  at\tsign ("@").  To forward it via plain tcp, prepend two at signs
       ("@@"). To forward via RELP, prepend the string ":omrelp:" in front  of
       the hostname.
`;

const lines = unwrapText(RSYSLOG_CONF)
  .split('\n')
  .map((line) => line.trim().replace(/ +/g, ' '));

describe('a justified paragraph after a list of terms', () => {
  it("is one paragraph, though a line of it lines up with the terms' descriptions", () => {
    expect(lines).toContain(
      'There are three ways to forward message: the traditional UDP transport, which is extremely lossy but standard, the plain TCP based transport which loses messages only during certain situations but is widely available and the RELP transport which does not lose messages but is currently available only as part of rsyslogd 3.15.0 and above.',
    );
  });

  it('leaves the list of terms apart, each term over its description', () => {
    expect(lines).toContain('imudp');
    const tcp = lines.indexOf('imtcp');
    expect(lines[tcp + 1]).toBe(
      'Input plugin for plain TCP syslog. Replaces the deprecated -t option. Can be used like this:',
    );
  });
});
