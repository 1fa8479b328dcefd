import { describe, expect, it } from 'vitest';
import { passagesOf } from '../../src/server/answer/passages.js';
import { stem } from '../../src/server/answer/relevance.js';
import { answerOf, doc, libraryOf } from '../helpers/library.js';

// A new user's trial 28 (K08): slapd.conf(5) as a PDF names each directive with the syntax of its
// value (`serverID <integer> [<URL>]`, `sizelimit {<integer>|unlimited}`). Dense with brackets,
// those lines were skipped as code, so "The default size limit is 500." was led by the example
// line above them (`serverID 2 ldap://ldap2.example.com`), and "What is the default sizelimit in
// slapd.conf?" was answered from another section that mentions sizelimit.
const SLAPD_CONF = doc(
  'ldap/slapd.conf.5.pdf',
  [
    'serverID <integer> [<URL>]',
    'The fully qualified hostname of each server should be used in the supplied URLs. The default value is zero, which is only valid for single provider replication. Example:',
    'serverID 1 ldap://ldap1.example.com',
    'serverID 2 ldap://ldap2.example.com',
    'sizelimit {<integer>|unlimited}',
    'sizelimit size[.{soft|hard}]=<integer> [...]',
    'Specify the maximum number of entries to return from a search operation. The default size limit is 500. Use unlimited to specify no limits.',
  ].join('\n'),
  9,
);
const SYNCREPL = doc(
  'ldap/slapd.conf.5.pdf',
  [
    'sync_use_subentry',
    'The sizelimit and timelimit only accept "unlimited" and positive integers, and both default to "unlimited".',
  ].join('\n'),
  14,
);

describe("a directive's line with its value's syntax in placeholders (`sizelimit {<integer>|unlimited}`)", () => {
  it('leads its definition', () => {
    const passages = passagesOf(SLAPD_CONF);
    expect(passages.find((p) => p.text === 'The default size limit is 500.')?.lead).toMatch(/^sizelimit /);
    expect(passages.find((p) => p.text.startsWith('The default value is zero'))?.lead).toBe(
      'serverID <integer> [<URL>]',
    );
  });

  it('so that its default is answered from its own definition', async () => {
    const answer = await answerOf(
      libraryOf([SYNCREPL, SLAPD_CONF], { [stem('sizelimit')]: 6, [stem('slapd.conf')]: 4 }),
      'What is the default sizelimit in slapd.conf?',
    );
    expect(answer).toContain('The default size limit is 500.');
    expect(answer).not.toContain('both default to "unlimited"');
  });
});

// A new user's trial 29 (f3a): ipsec.conf(5) as a PDF names each parameter with its default first
// among the values it may take, apart by bars (`ikelifetime = 3h | <time>`, `keyexchange = ike |
// ikev1 | ikev2`). Dense with marks, those lines were skipped as code: the definitions under them
// were led by the section's heading, and "What is the default ikelifetime?" was answered with
// sentences elsewhere that say "default".
const IPSEC_CONF = doc(
  'strongswan/ipsec.conf.5.pdf',
  [
    'CONN PARAMETERS',
    'The daemon adds its extensive default proposal to this default or the configured value.',
    'ikelifetime = 3h | <time>',
    'how long the keying channel of a connection (ISAKMP or IKE SA) should last before being renegotiated. Also see EXPIRY/REKEY below.',
    'keyexchange = ike | ikev1 | ikev2',
    'which key exchange protocol should be used to initiate the connection. Connections marked with ike use IKEv2 when initiating, but accept any protocol version when responding.',
  ].join('\n'),
  5,
);

describe('a parameter with its values apart by bars, the default first', () => {
  it('leads its definition, which answers for its default', async () => {
    expect(passagesOf(IPSEC_CONF).map((p) => p.lead)).toContain('ikelifetime = 3h | <time>');
    const answer = await answerOf(
      libraryOf([IPSEC_CONF], { [stem('ikelifetime')]: 8, strongswan: 4.6, ipsec: 2.3, default: 1.2 }),
      "What is the default ikelifetime in strongSwan's ipsec.conf?",
    );
    expect(answer).toMatch(/^ikelifetime = 3h \| <time>: how long the keying channel/);
  });
});
