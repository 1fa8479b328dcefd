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

// Trial 30's q34: the question says what happened first, then asks how ("vsftpd says 'refusing to
// run with writable root'. How do I fix it?"); vsftpd's FAQ answers it with "A way to fix this
// is:" / `chown root ~ftp; chmod -w ~ftp`, which the answer left out.
const VSFTPD_FAQ = docLines('ftp/vsftpd/FAQ.txt', 1, [
  'Q) Help! I\'m getting the error message "refusing to run with writable root".',
  'A) vsftpd is protecting against dangerous configurations. The cause of this message is usually dodgy ownership of the ftp home directory. The home directory should NOT be owned by the ftp user itself. Neither should it be writable by the ftp user. A way to fix this is:',
  'chown root ~ftp; chmod -w ~ftp',
  'Another cause might be an attempt to use chroot_local_user without setting up the directory ownership properly.',
  'Q) Help! I\'m getting the error message "str_getpwnam".',
]);

describe('a how-to question after a sentence that says what happened', () => {
  it('is answered with what to run', async () => {
    const answer = await answerOf(
      libraryOf(
        [VSFTPD_FAQ],
        weightsOf({ vsftpd: 5, refusing: 4, run: 1.5, writable: 4, root: 2, fix: 2.5 }),
      ),
      "vsftpd says 'refusing to run with writable root'. How do I fix it?",
    );
    expect(answer).toContain('chown root ~ftp; chmod -w ~ftp');
  });
});
