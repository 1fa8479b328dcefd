import { describe, expect, it } from 'vitest';
import { unwrapText } from '../../src/server/ingest/extraction/plain-text.js';

// A new user's trial 38, chrony's FAQ (asciidoc saved as text, filled to 80 columns).
const CHRONY_FAQ = `4.1. I keep getting the error 506 Cannot talk to daemon

When accessing chronyd remotely, make sure that the chrony.conf file (on the
computer where chronyd is running) has a cmdallow entry for the computer you
are running chronyc on and an appropriate bindcmdaddress directive. This isn't
necessary for localhost.

Perhaps chronyd is not running. Try using the ps command (e.g. on Linux, ps
-auxw) to see if it's running. Or try netstat -a and see if the UDP port 323 is
listening. If chronyd is not running, you might have a problem with the way you
are trying to start it (e.g. at boot time).

Perhaps you have a firewall set up in a way that blocks packets on the UDP port
323. You need to amend the firewall configuration in this case.

2.3. Should all computers on a LAN be clients of an external server?

The best configuration is usually to make one computer the server, with the
others as clients of it. Add a local directive to the server's chrony.conf file.
This configuration will be better because

  o the load on the external NTP server(s) is less

  o if your external connection goes down, the computers on the LAN will
    maintain a common time with each other.
`;

describe('wrapped plain text', () => {
  const lines = unwrapText(CHRONY_FAQ).split('\n');

  it('goes on with a number a sentence wrapped before, not an item it starts', () => {
    expect(lines).toContain(
      'Perhaps you have a firewall set up in a way that blocks packets on the UDP port 323. You need to amend the firewall configuration in this case.',
    );
  });

  it("keeps a numbered list's items apart, a wrapped one's number next after the last", () => {
    const steps = unwrapText(
      `Then, to move the journal to the new disk, do what follows, in this order, without
any other process writing to it meanwhile, as the service's own user:
1. Stop the service, and wait until it is not running any more; this takes a
minute on a busy system, longer on
2. Copy the folder to the new disk.
`,
    ).split('\n');
    expect(steps.slice(1)).toEqual([
      '1. Stop the service, and wait until it is not running any more; this takes a minute on a busy system, longer on',
      '2. Copy the folder to the new disk.',
      '',
    ]);
  });

  it("takes nroff's and asciidoc's 'o' for a bullet, its wrapped lines indented to its text", () => {
    expect(lines).toContain(
      '  o if your external connection goes down, the computers on the LAN will maintain a common time with each other.',
    );
  });
});
