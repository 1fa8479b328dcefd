import { describe, expect, it } from 'vitest';
import { unwrapText } from '../../src/server/ingest/extraction/plain-text.js';
import { passagesOf } from '../../src/server/answer/passages.js';
import { answerOf, doc, libraryOf, weightsOf } from '../helpers/library.js';

// A new user's trial 30 (q35, q37): FAQs mark their questions with `Q:` or `Q)` and their answers
// with `A:` or `A)`, and a question is often written as a statement (lftp's 'Q: lftp hangs in
// "Making data connection" state.'). Such a question was a passage of its own, the best match for
// a question that says the same, and answered with itself; vsftpd's answer, its `A)` read as the
// wrapped end of the question's long line, was no line of its own.
const LFTP_FAQ = doc(
  'ftp/lftp/FAQ',
  [
    "Q: ^Z doesn't work in Cygwin.",
    'A: Use "SET CYGWIN=TTY". This must be done before starting a shell, if any.',
    'Q: lftp hangs in "Making data connection" state.',
    'A: Try "set ftp:prefer-epsv no". Probably a router on the path to the server does not recognize the EPSV command.',
    'Q: ssl:key-file setting is not applied to sftp and fish connections.',
    'A: Use sftp:connect-program and fish:connect-program settings instead.',
  ].join('\n'),
);
const VSFTPD_FAQ_TEXT = [
  "Q) Help! I can't log in as a local user because vsftpd refuses my shell. What is wrong?",
  'A4) If you are not using PAM, then vsftpd will do its own check for a valid user',
  'shell in /etc/shells. Put check_shell=NO in your /etc/vsftpd.conf.',
  '',
  'Q) Help! Uploads or other write commands give me "500 Unknown command.".',
  'A) By default, write commands, including uploads and new directories, are',
  'disabled. This is a security measure. To enable writes, put write_enable=YES',
  'in your /etc/vsftpd.conf.',
  '',
].join('\n');

describe("a FAQ's question marked `Q:` or `Q)`", () => {
  it("is a line of its own, and so is its answer's `A)`", () => {
    expect(unwrapText(VSFTPD_FAQ_TEXT).split('\n')).toContain(
      'A) By default, write commands, including uploads and new directories, are disabled. This is a security measure. To enable writes, put write_enable=YES in your /etc/vsftpd.conf.',
    );
  });

  it('leads its answer, and is none itself, though it ends with a full stop', () => {
    const passages = passagesOf(LFTP_FAQ);
    expect(passages.map((p) => p.text)).not.toContain('Q: lftp hangs in "Making data connection" state.');
    expect(passages.find((p) => p.text.startsWith('A: Try "set ftp:prefer-epsv no"'))?.lead).toBe(
      'Q: lftp hangs in "Making data connection" state.',
    );
  });

  it('so that a question saying the same is answered with its answer', async () => {
    const lftp = await answerOf(
      libraryOf([LFTP_FAQ], weightsOf({ lftp: 4, hangs: 5, making: 3, data: 1.5, connection: 2, try: 1.5 })),
      "lftp hangs in 'Making data connection'. What should I try?",
    );
    expect(lftp).toContain('Try "set ftp:prefer-epsv no".');
    // Its question, shown before it, keeps its own end.
    expect(lftp).not.toContain('state.:');
    const vsftpd = await answerOf(
      libraryOf(
        [doc('ftp/vsftpd/FAQ.txt', unwrapText(VSFTPD_FAQ_TEXT))],
        weightsOf({ vsftpd: 4, uploads: 4, 500: 3, unknown: 3, command: 2, setting: 1.5, enables: 2 }),
      ),
      "Uploads to my vsftpd server fail with '500 Unknown command'. What setting enables them?",
    );
    expect(vsftpd).toContain('To enable writes, put write_enable=YES in your /etc/vsftpd.conf.');
  });

  // A new user's trial 36 (k07): rng-tools' README marks its questions `* Q:` and breaks them over
  // lines ('* Q: "I don't have a /dev/hwrng, and I am NOT using udev or devfs.' / 'How do I get
  // one?"'); the first line was a passage, the best match, and the answer.
  const RNG_FAQ = doc(
    'entropy/rng-tools-debian-README.gz',
    unwrapText(
      [
        'FAQ',
        '---',
        '',
        '* Q: "I don\'t have a /dev/hwrng, and I am NOT using udev or devfs.',
        '     How do I get one?"',
        '  A: mknod /dev/hwrng c 10 183',
        '',
        '* Q: "I don\'t have a /dev/hwrng, and I AM using devfs or udev.  How do I',
        '     get one?"',
        '  A: You should have a /dev/misc/hw_random device, IF the kernel driver has',
        '     loaded properly.  The initscript should notice this and use this alternate',
        '     location.',
        '',
      ].join('\n'),
    ),
  );

  it('is one after a bullet, and leads its answer with all its lines', async () => {
    const passages = passagesOf(RNG_FAQ);
    expect(passages.map((p) => p.text).filter((t) => /Q:|get one/.test(t))).toEqual([]);
    expect(passages.find((p) => p.text.startsWith('A: mknod'))?.lead).toMatch(/devfs\. How do I get one\?"$/);
    const answer = await answerOf(
      libraryOf([RNG_FAQ], weightsOf({ dev: 2, hwrng: 6, udev: 4, devfs: 5, using: 1, get: 1 })),
      'How do I get a /dev/hwrng device if I am not using udev or devfs?',
    );
    expect(answer).toContain('mknod /dev/hwrng c 10 183');
  });
});
