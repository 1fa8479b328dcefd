import { describe, expect, it } from 'vitest';
import { answerOf, doc, libraryOf } from '../helpers/library.js';

// vsftpd.conf(5) as a PDF (a seventeenth new user's trial): each setting's description, then its
// default on a line of its own.
const VSFTPD = doc(
  'man/vsftpd.conf.5.pdf',
  [
    'Default: 20',
    'idle_session_timeout',
    'The timeout, in seconds, which is the maximum time a remote client may spend between FTP commands. If the timeout triggers, the remote client is kicked off.',
    'Default: 300',
    'listen_port',
    'If vsftpd is in standalone mode, this is the port it will listen on for incoming FTP connections.',
    'Default: 21',
  ].join('\n'),
);

describe("a setting's default on a line of its own under its description", () => {
  it('is the figure a "How long…?" question asks for, shown with the description that gives its unit', async () => {
    const answer = await answerOf(
      libraryOf([VSFTPD], { vsftpd: 3, idl: 2, ftp: 2, client: 1.5, command: 1.5, kick: 2 }),
      'How long can an FTP client sit idle between commands before vsftpd kicks it off?',
    );
    expect(answer).toContain('The timeout, in seconds');
    expect(answer).toContain('Default: 300');
    expect(answer).not.toContain('Default: 21');
  });
});

// hostapd_cli(1) as a PDF (a twenty-ninth new user's trial, q27): each option's default on a line
// of its own under its one-line description. `-i`'s default says "socket" itself; `-p`'s is the
// value of what its description names, the control sockets' path.
const HOSTAPD_CLI = doc(
  'hostapd/hostapd_cli.1.pdf',
  [
    'OPTIONS',
    'A summary of options is included below. For a complete description, run hostapd_cli from the command line.',
    '-p<path>',
    'Path to find control sockets.',
    'Default: /var/run/hostapd',
    '-i<ifname>',
    'Interface to listen on.',
    'Default: first interface found in socket path.',
    '-a<path>',
    'Run in daemon mode executing the action file based on events from hostapd.',
  ].join('\n'),
);

describe("an option's default on a line of its own", () => {
  it("is read with the option's description, as one with it", async () => {
    const answer = await answerOf(
      libraryOf([HOSTAPD_CLI], { hostapd_cli: 6, look: 2, control: 3, socket: 3, default: 1 }),
      'Where does hostapd_cli look for control sockets by default?',
    );
    expect(answer).toMatch(/^-p<path>: .*Default: \/var\/run\/hostapd/s);
    expect(answer).not.toContain('first interface');
  });
});

// mutt's reference as HTML (the seventh new user's trial): a variable's attributes, each on a line
// of its own; the default is shown with the variable, not after the attribute above it.
const MUTT = doc(
  'mutt/reference.html',
  [
    '3.163. mail_check',
    'Type: number',
    'Default: 5',
    'This variable configures how often (in seconds) mutt should look for new mail.',
  ].join('\n'),
);

describe("a term's default under another of its attributes", () => {
  it('is shown with the term alone', async () => {
    const answer = await answerOf(
      libraryOf([MUTT], { mail_check: 7, mutt: 3, default: 1 }),
      'What is the default value of mail_check in mutt?',
    );
    expect(answer).toMatch(/^3\.163\. mail_check: Default: 5\./);
  });
});
