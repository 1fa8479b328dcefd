import { describe, expect, it } from 'vitest';
import { answerOf, doc, libraryOf } from '../helpers/library.js';

// fail2ban-client(1) as a PDF (a seventeenth new user's trial): each command on a line, what it
// does on the next, in lower case.
const FAIL2BAN = doc(
  'man/fail2ban-client.1.pdf',
  [
    'unban --all',
    'unbans all IP addresses (in all jails and database)',
    'unban <IP> ... <IP>',
    'unbans <IP> (in all jails and database)',
    'banned',
    'return jails with banned IPs as dictionary',
  ].join('\n'),
);

describe('a definition list of commands, each described in lower case on the line under it', () => {
  it('is read a command at a time, not as one sentence the commands interrupt', async () => {
    const answer = await answerOf(
      libraryOf([FAIL2BAN], { unban: 3, ip: 1, fail2ban: 2 }),
      'How do I unban an IP with fail2ban-client?',
    );
    expect(answer).toContain('unbans <IP> (in all jails and database)');
    expect(answer).not.toContain('database) unban');
  });

  it("is not read into an example's lines: a line that goes on with the example above it heads nothing", async () => {
    // lighttpd's configuration.txt: the example's second line sits above a sentence in lower case.
    const LIGHTTPD = doc(
      'lighttpd/configuration.txt',
      [
        'index-file.names',
        'list of files to search for if a directory is requested e.g.:',
        'index-file.names = ( "index.php", "index.html",',
        '"index.htm", "default.htm" )',
        'if a name starts with slash this file will be used a index generator for all directories.',
      ].join('\n'),
    );
    const answer = await answerOf(
      libraryOf([LIGHTTPD]),
      'Which files does lighttpd search for if a directory is requested?',
    );
    expect(answer).toContain(
      'index-file.names = ( "index.php", "index.html",\n"index.htm", "default.htm" )\n```',
    );
  });
});
