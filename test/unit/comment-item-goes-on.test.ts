import { describe, expect, it } from 'vitest';
import { passagesOf } from '../../src/server/answer/passages.js';
import { answerOf, doc, libraryOf, weightsOf } from '../helpers/library.js';

// snmpd.conf as Debian ships it, as kb reads it (a new user's trial 40): a comment's item names
// its setting, and the comment's indented lines under it go on saying what it does. Those lines
// were under no setting, so asked where snmpd listens without agentaddress, kb answered with the
// item's first sentence ("The IP address and port number that the agent will listen on.").
const SNMPD = doc(
  'snmpd.conf',
  [
    '# master: Should the agent operate as a master agent or not.',
    '# Currently, the only supported master agent type for this token is "agentx".',
    '#',
    '# arguments: (on|yes|agentx|all|off|no)',
    'master agentx',
    '# agentaddress: The IP address and port number that the agent will listen on.',
    '# By default the agent listens to any and all traffic from any interface on the default SNMP port (161). This allows you to specify which address, interface, transport type and port(s) that you want the agent to listen on.',
    'agentaddress 127.0.0.1,[::1]',
    '# Nothing here names a setting.',
  ].join('\n'),
);

describe("the lines under a configuration comment's item", () => {
  it('go on with it, up to a blank comment line or the next setting', () => {
    const passages = passagesOf(SNMPD);
    const lead = (start: string) => passages.find((p) => p.text.startsWith(start))?.lead;
    expect(lead('By default the agent listens')).toBe('agentaddress');
    expect(lead('This allows you to specify')).toBe('agentaddress');
    expect(lead('Currently, the only supported')).toBe('master');
    expect(lead('Nothing here')).toBeUndefined();
  });

  it('answer for the setting they go on about', async () => {
    const answer = await answerOf(
      libraryOf(
        [SNMPD],
        weightsOf({ port: 1.5, address: 1.5, snmpd: 2, listen: 2, agentaddress: 5, configured: 1 }),
      ),
      'On which port and addresses does snmpd listen when agentaddress is not configured?',
    );
    expect(answer).toContain('on the default SNMP port (161)');
  });
});
