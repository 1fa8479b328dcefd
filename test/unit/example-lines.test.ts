import { describe, expect, it } from 'vitest';
import { answerOf, doc, libraryOf, weightsOf } from '../helpers/library.js';

// wg(8) as a PDF and lighttpd's dirlisting.txt (a seventeenth new user's trial): an example the
// sentence above introduces runs over several lines.
const WG = doc(
  'man/wg.8.pdf',
  [
    'pubkey',
    'Calculates a public key and prints it in base64 to standard output from a corresponding private key (generated with genkey) given in base64 on standard input.',
    'A private key and a corresponding public key may be generated at once by calling:',
    '$ umask 077',
    '$ wg genkey | tee private.key | wg pubkey > public.key',
    'help Shows usage message.',
  ].join('\n'),
);
const DIRLISTING = doc(
  'lighttpd/dirlisting.txt',
  [
    'If you need it only for a directory, use conditionals:',
    '$HTTP["url"] =~ "^/download($|/)" {',
    '  dir-listing.activate = "enable"',
    '}',
    'You can also use a external generator for directory listings with mod_indexfile.',
  ].join('\n'),
);

// postsuper(1) as Postfix's HTML manual has it (a twenty-fifth new user's trial): the example's
// jq program is a quoted string over several lines, a comment line among them.
const POSTSUPER = doc(
  'postfix/postsuper.1.html',
  [
    'Options:',
    '-d queue_id',
    'Delete one message with the named queue ID from the named mail queue(s) (default: hold, incoming, active and deferred).',
    'To delete multiple files, specify the -d option multiple times, or specify a queue_id of - to read queue IDs from standard input. For example, to delete all mail with exactly one recipient user@example.com:',
    "postqueue -j | jq -r '",
    '# See JSON OBJECT FORMAT section in the postqueue(1) manpage',
    'select(.recipients[0].address == "user@example.com") | select(.recipients[1].address == null)',
    '| .queue_id',
    "' | postsuper -d -",
    '(note the "jq -r" option), or the historical form:',
  ].join('\n'),
);

// morgan's README (a twenty-fifth new user's trial): each predefined format's heading, its
// definition in a sentence, then the format itself as code.
const MORGAN = doc(
  'npm/morgan-README.md',
  [
    'short',
    'Shorter than default, also including response time.',
    ':remote-addr :remote-user :method :url HTTP/:http-version :status :res[content-length] - :response-time ms',
    '# will output',
    '::1 - GET /short HTTP/1.1 200 2 - 0.283 ms',
    'tiny',
    'The minimal output.',
    ':method :url :status :res[content-length] - :response-time ms',
    '# will output',
    'GET /tiny 200 2 - 0.188 ms',
    'Tokens',
  ].join('\n'),
);

describe('an example over several lines is shown whole', () => {
  it('every line of a command example at its prompt', async () => {
    const answer = await answerOf(
      libraryOf([WG]),
      'How do I generate a WireGuard private key and its public key at once?',
    );
    expect(answer).toContain('```\numask 077\nwg genkey | tee private.key | wg pubkey > public.key\n```');
  });

  it('a block to its closing brace', async () => {
    const answer = await answerOf(
      libraryOf([DIRLISTING]),
      'What do I use if I need the listing only for a directory?',
    );
    expect(answer).toContain('$HTTP["url"] =~ "^/download($|/)" {\ndir-listing.activate = "enable"\n}');
  });

  it('a quoted string it opens to the line that closes it, whatever those lines are', async () => {
    const answer = await answerOf(
      libraryOf([POSTSUPER]),
      'How do I delete all mail with exactly one recipient with postsuper -d?',
    );
    expect(answer).toContain(
      [
        "postqueue -j | jq -r '",
        '# See JSON OBJECT FORMAT section in the postqueue(1) manpage',
        'select(.recipients[0].address == "user@example.com") | select(.recipients[1].address == null)',
        '| .queue_id',
        "' | postsuper -d -",
      ].join('\n'),
    );
  });

  it("a term's code right under its definition's only sentence, as its example", async () => {
    const library = libraryOf([MORGAN], weightsOf({ morgan: 3, tiny: 4, format: 0.5, log: 0.5 }));
    const answer = await answerOf(library, 'What does the morgan tiny format log?');
    expect(answer).toContain(
      'The minimal output.\n\n```\n:method :url :status :res[content-length] - :response-time ms\n```',
    );
    expect(answer).not.toContain(':remote-addr');
  });
});
