import { describe, expect, it } from 'vitest';
import { answerOf, docLines, libraryOf, weightsOf } from '../helpers/library.js';

// A new user's trial 39 (#33): "Which haproxy balance algorithm is recommended for very long
// sessions such as LDAP or SQL?" was answered "Use of this algorithm is recommended where very
// long sessions are expected…", without the algorithm: `leastconn`, the term it is under.
// HAProxy's configuration.txt as kb serve reads it: each algorithm, then its description.
const BALANCE = docLines('haproxy-configuration.txt', 140, [
  'roundrobin',
  "Each server is used in turns, according to their weights. This is the smoothest and fairest algorithm when the server's processing time remains equally distributed.",
  'leastconn',
  'The server with the lowest number of connections receives the connection. Round-robin is performed within groups of servers of the same load to ensure that all servers will be used. Use of this algorithm is recommended where very long sessions are expected, such as LDAP, SQL, TSE, etc... but is not very well suited for protocols using short sessions such as HTTP. This algorithm is dynamic, which means that server weights may be adjusted on the fly for slow starts for instance.',
  'first',
  'The first server with available connection slots receives the connection.',
]);
const WEIGHTS = weightsOf({
  ldap: 4,
  sql: 3.5,
  sessions: 2.5,
  long: 1.5,
  algorithm: 2,
  balance: 2,
  recommended: 2.2,
  haproxy: 1,
});

describe('a sentence that names its subject by its kind inside it ("Use of this algorithm…")', () => {
  it('is shown with the term it is under', async () => {
    const answer = await answerOf(
      libraryOf([BALANCE], WEIGHTS),
      'Which haproxy balance algorithm is recommended for very long sessions such as LDAP or SQL?',
    );
    expect(answer).toMatch(/^leastconn: .*Use of this algorithm is recommended where very long sessions/);
  });
});

// A new user's trial 42 (P08): "…you will want to set this to no." was shown without the setting
// it is under (ldirectord(8)'s `cleanstop = yes | no`): a reader cannot act on it.
const LDIRECTORD = docLines('ldirectord/ldirectord.8.pdf', 3, [
  'cleanstop = yes | no',
  "If yes, then when ldirectord exits it will remove all of the virtual server pools that it is managing from the kernel's LVS table. If no, then the virtual server pools it is managing and any real or failback servers listed in them at the time ldirectord exits will be left as-is. If you want to be able to stop ldirectord without having traffic to your realservers interrupted you will want to set this to no.",
]);

describe('a sentence that says "set this to"', () => {
  it('is shown with the setting it is under', async () => {
    const answer = await answerOf(
      libraryOf(
        [LDIRECTORD],
        weightsOf({ ldirectord: 3, traffic: 3, interrupt: 3, stop: 1.5, real: 1, servers: 1 }),
      ),
      'How do I stop ldirectord without interrupting traffic to the real servers?',
    );
    expect(answer).toMatch(/^cleanstop = yes \| no: .*set this to no\./);
  });
});
