import { describe, expect, it } from 'vitest';
import { extractiveAnswer, retrieve } from '../../src/server/answer/assistant.js';
import { exchange, libraryOf } from '../helpers/library.js';
import type { Chunk } from '../../src/server/state/model.js';

const page = (n: number, text: string): Chunk => ({
  id: `file_1:${n}`,
  fileId: 'file_1',
  filename: 'logrotate.8.pdf',
  text,
  pages: [n, n],
});

// A new user's trial (#33): after "What is the default state file of logrotate?", the follow-up
// "And which command does it use to mail logs by default?" was answered with the state file's
// passage again; asked alone, it was answered right.
const STATE = page(
  1,
  [
    'OPTIONS',
    '-s, --state statefile',
    'Tells logrotate to use an alternate state file. This is useful if logrotate is being run as a different user for various sets of log files. To prevent parallel execution logrotate by default acquires a lock on the state file, if it cannot be acquired logrotate will exit with value 3. The default state file is /var/lib/logrotate/status. If /dev/null is given as the state file, then logrotate will not try to lock or write the state file.',
  ].join('\n'),
);
const MAIL = page(
  2,
  [
    '-l, --log file',
    'Tells logrotate to log verbose output into the log_file.',
    '-m, --mail command',
    'Tells logrotate which command to use when mailing logs. This command should accept the following arguments: the subject of the message and the recipient.',
    'The command must then read a message on standard input and mail it to the recipient. The default mail command is /usr/bin/mail.',
  ].join('\n'),
);

describe('a follow-up with words of its own', () => {
  it('is answered by the passage that holds them, not by the previous answer again', async () => {
    const library = libraryOf([STATE, MAIL]);
    const first = await retrieve(library, 'ws', 'What is the default state file of logrotate?', []);
    const answer = extractiveAnswer(first);
    expect(answer.content).toContain('/var/lib/logrotate/status');
    const history = exchange('What is the default state file of logrotate?', answer);
    const next = await retrieve(
      library,
      'ws',
      'And which command does it use to mail logs by default?',
      history,
    );
    const content = extractiveAnswer(next).content;
    expect(content).toContain('The default mail command is /usr/bin/mail.');
    expect(content).not.toContain('/var/lib/logrotate/status');
  });

  it('without a word any answer holds, is answered by the passage the previous answer drew on', async () => {
    // The demo's first follow-up (a fourteenth new user's trial): "And how do I fix it?" repeated
    // what E-4102 means; the fix is the next sentence, though it says no "fix".
    const page: Chunk = {
      id: 'file_2:0',
      fileId: 'file_2',
      filename: 'troubleshooting.html',
      text: [
        'Troubleshooting',
        'E-mail sync',
        "Error E-4102 means the IMAP server refused Orbitdesk's login. Reconnect the mailbox under Settings > Channels > E-mail and check that app passwords are allowed.",
        "Error E-4310 means the mailbox is over its provider's quota; Orbitdesk retries every 15 minutes until space is freed.",
        'Single sign-on',
        'If agents are sent back to the login page after SSO, check that the identity provider sends the e-mail attribute and that the clock skew is under 5 minutes.',
      ].join('\n'),
    };
    const library = libraryOf([page]);
    const first = await retrieve(library, 'ws', 'What does error E-4102 mean?', []);
    const answer = extractiveAnswer(first);
    expect(answer.content).toMatch(/^Error E-4102 means the IMAP server refused Orbitdesk's login\./);
    const history = exchange('What does error E-4102 mean?', answer);
    const next = await retrieve(library, 'ws', 'And how do I fix it?', history);
    const content = extractiveAnswer(next).content;
    expect(content).toMatch(
      /^Reconnect the mailbox under Settings > Channels > E-mail and check that app passwords are allowed\.\n\nSources/,
    );
  });
});
