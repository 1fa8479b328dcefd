import { describe, expect, it } from 'vitest';
import { answerOf, docLines, libraryOf, weightsOf } from '../helpers/library.js';

// A new user's trial 30 (q62): tinc's README.Debian says how under its "Systemd" heading ("To
// enable and start a net, call:" / `systemctl enable tinc@<netname>` / `systemctl start
// tinc@<netname>`). "How do I start a tinc network with systemd on Debian?" was answered with a
// note that says as many of its words and shows nothing to do ("Note that when you have systemd
// installed on your system, the file /etc/tinc/nets.boot will not be used anymore…").
const README = docLines('vpn/tinc/README.Debian', 0, [
  'tinc for Debian',
  'There are several ways in which tinc may be automatically started at boot:',
  'Systemd',
  'Since 1.0.27-1, the tinc package comes with native systemd service files.',
  'To enable and start a net, call:',
  'systemctl enable tinc@<netname>',
  'systemctl start tinc@<netname>',
  'This will cause a tincd to be started which uses the configuration from /etc/tinc/<netname>, and also makes sure that it will be started next time your system boots.',
  'Note that when you have systemd installed on your system, the file /etc/tinc/nets.boot will not be used anymore to automatically start tinc daemons.',
]);

describe('a how-to question', () => {
  it('is answered by the sentence that introduces what to run, over one that only says its words', async () => {
    const answer = await answerOf(
      libraryOf([README], weightsOf({ start: 2, tinc: 5, network: 2.5, systemd: 4, debian: 2 })),
      'How do I start a tinc network with systemd on Debian?',
    );
    expect(answer).toMatch(/^(?:Systemd: )?To enable and start a net, call:/);
    expect(answer).toContain('systemctl enable tinc@<netname>');
  });
});
