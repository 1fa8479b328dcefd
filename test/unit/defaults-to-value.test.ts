import { describe, expect, it } from 'vitest';
import { holdsAnswerType } from '../../src/server/answer/answer-type.js';
import { doc, libraryOf, replyOf } from '../helpers/library.js';

// A new user's trial 32 (q21): procmailrc(5) as a PDF. TIMEOUT's definition gives its unit
// ("Number of seconds that have to have passed…") and, three sentences on, its figure ("…if not
// specified, it defaults to 960 seconds."). The answer to "how long" ended with the unit: a
// default said as "defaults to" was not taken for one.
describe('a default said as "defaults to"', () => {
  const procmailrc = doc(
    'mail/procmail/procmailrc.5.pdf',
    [
      'Environment',
      'TIMEOUT Number of seconds that have to have passed before procmail decides that some child it started must be hanging. The offending program will receive a TERMINATE signal from procmail, and processing of the rcfile will continue. If zero, then no timeout will be used and procmail will wait forever until the child has terminated; if not specified, it defaults to 960 seconds.',
      'MSGPREFIX Filename prefix that is used when delivering to a directory (not used when delivering to a maildir or an MH directory).',
    ].join('\n'),
  );

  it('is the figure a definition by its unit leaves to a later sentence', async () => {
    const library = libraryOf([procmailrc], {
      procmail: 4,
      filter: 3,
      program: 2,
      hang: 4,
      long: 1.5,
      wait: 3,
      kill: 3.5,
    });
    const reply = await replyOf(
      library,
      'procmail hands my mail to a filter program that sometimes hangs. How long does procmail wait before it kills that program?',
    );
    expect(reply.content).toMatch(/^TIMEOUT: Number of seconds .*it defaults to 960 seconds\./s);
  });
});

// The same trial (q45): "What file name does powertop use for its CSV report if I don't give one?"
// asks for a default; powertop(8)'s `-C, --csv[=filename]` states none (its `=` is the option's
// argument), so that every option with an optional argument had seemed to hold one.
describe('a default asked and stated in other words', () => {
  it('is asked by "if I don\'t give one", "if none is supplied"', () => {
    const question = "What file name does powertop use for its CSV report if I don't give one?";
    expect(
      holdsAnswerType(question, 'If a filename is not specified then the default name powertop.csv is used.'),
    ).toBe(true);
    expect(holdsAnswerType('Which port is used if none is supplied?', 'Listens on a port.')).toBe(false);
  });

  // bench:heldout's ho-scp-1 (#33): "a port other than the default" asks how, not what the default is.
  it('is not asked by a question that sets the default aside ("other than the default", "non-default")', () => {
    const passage = 'Specifies the port to connect to on the remote host.';
    for (const question of [
      'And how do I connect to a port other than the default?',
      'How do I use a port different from the default?',
      'How do I listen on a non-default port?',
      'Can I log somewhere instead of the default file?',
    ])
      expect(holdsAnswerType(question, passage), question).toBeUndefined();
    expect(holdsAnswerType('What is the default port, other than 22?', passage)).toBe(false);
  });

  it("is not stated by an option's argument (`--csv[=filename]`, `--delay=N`)", () => {
    const question = 'What is the default CSV file name?';
    expect(holdsAnswerType(question, '-C, --csv[=filename]: Generate a CSV report.')).toBe(false);
    expect(holdsAnswerType(question, '--delay=N greylist for N seconds')).toBe(false);
    expect(holdsAnswerType(question, 'csv_file = report.csv')).toBe(true);
  });

  // bench:real's gnu-fu-2 (timeout's default signal), once `--signal=SIGNAL` stated no default; and
  // a new user's trial 31 (q12): atd(8)'s -l and -b.
  it('is stated by what is used rather than it, or a figure noted as it', () => {
    expect(
      holdsAnswerType(
        'Which signal does the timeout command send by default?',
        '‘--signal=SIGNAL’: Send this SIGNAL to COMMAND on timeout, rather than the default ‘TERM’ signal.',
      ),
    ).toBe(true);
    const atd = 'What load average does atd use by default?';
    expect(
      holdsAnswerType(
        atd,
        '-l: Specifies a limiting load factor, over which batch jobs should not be run, instead of the compiletime choice of 1.5.',
      ),
    ).toBe(true);
    expect(
      holdsAnswerType(
        atd,
        '-b: Specify the minimum interval in seconds between the start of two batch jobs (60 default).',
      ),
    ).toBe(true);
    expect(holdsAnswerType(atd, '-d: Debug; print error messages to standard error.')).toBe(false);
    expect(
      holdsAnswerType(
        'How many seconds does tail sleep between iterations by default?',
        '-s, --sleep-interval=N: with -f, sleep for approximately N seconds (default 1.0) between iterations.',
      ),
    ).toBe(true);
  });
});

// A new user's trial 32 (q15): chrony's FAQ, "I keep getting the error 506 Cannot talk to daemon",
// and two sentences on "…see if the UDP port 323 is listening". The question asked for a port, so
// the sentence that names one, with its number, answers it.
describe('a port asked for', () => {
  it('is held by a number, or an address and its port', () => {
    const question =
      "chronyc keeps saying '506 Cannot talk to daemon'. Which UDP port should I check is open?";
    expect(holdsAnswerType(question, 'Or try netstat -a and see if the UDP port 323 is listening.')).toBe(
      true,
    );
    expect(
      holdsAnswerType(
        question,
        'When accessing chronyd remotely, make sure that the chrony.conf file has a cmdallow entry.',
      ),
    ).toBe(false);
    expect(
      holdsAnswerType('What port does Privoxy listen on by default?', 'Default value: 127.0.0.1:8118'),
    ).toBe(true);
    // Not by a version's figures: a new user's trial 33, f1a, "What port does the sample OpenVPN
    // server configuration listen on?" was answered with the file's title, "Sample OpenVPN 2.6
    // config file for multi-client server.".
    const openvpn = 'What port does the sample OpenVPN server configuration listen on?';
    expect(holdsAnswerType(openvpn, 'Sample OpenVPN 2.6 config file for multi-client server.')).toBe(false);
    expect(holdsAnswerType(openvpn, 'Which TCP/UDP port should OpenVPN listen on? port 1194')).toBe(true);
    expect(holdsAnswerType(openvpn, 'It listens on port 1194.')).toBe(true);
    // Not by the figure the question gives: the error's number.
    expect(
      holdsAnswerType(question, 'Issues with chronyc: I keep getting the error 506 Cannot talk to daemon'),
    ).toBe(false);
    expect(
      holdsAnswerType('Which port forwarding rules does ufw add?', 'Rules are added in order.'),
    ).toBeUndefined();
  });
});
