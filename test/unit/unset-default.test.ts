import { describe, expect, it } from 'vitest';
import { holdsAnswerType } from '../../src/server/answer/answer-type.js';
import { stem } from '../../src/server/answer/relevance.js';
import { answerOf, doc, libraryOf } from '../helpers/library.js';

// The twentieth new user's trial (pino's Markdown API reference): "when no censor is given" asks
// what "by default" asks, in other words.
const CENSOR = doc(
  'pino/api.md',
  [
    'redact (Array | Object):',
    'If an object is supplied, three options can be specified:',
    'paths (array): Required. An array of paths. See redaction - Path Syntax ⇗ for specifics.',
    "censor (String|Function|Undefined): Optional. When supplied as a String the censor option will overwrite keys that are to be redacted. When set to undefined the key will be removed entirely from the object. The censor option may also be a mapping function. The (synchronous) mapping function has the signature (value, path) => redactedValue and is called with the unredacted value and path to the key being redacted, as an array. For example given a redaction path of a.b.c the path argument would be ['a', 'b', 'c']. The value returned from the mapping function becomes the applied censor value.",
  ].join('\n'),
);
const REMOVE = doc(
  'pino/api.md',
  [
    'redact (Array | Object):',
    "For example given a redaction path of a.b.c the path argument would be ['a', 'b', 'c']. The value returned from the mapping function becomes the applied censor value. Default: '[Redacted]'",
    'remove (Boolean): Optional. Instead of censoring the value, remove both the key and the value. Default: false',
    'WARNING: Never allow user input to define redacted paths.',
  ].join('\n'),
  1,
);

describe('a question on what happens when a thing is not set', () => {
  it.each([
    'What value does pino put in place of redacted keys when no censor is given?',
    'What is the largest request body Fastify accepts out of the box?',
    'Which port does it use if the port option is omitted?',
  ])('asks for a default: %s', (question) => {
    // A figure each kind holds: a size is no port ("1MiB" held one before the measure was told apart).
    expect(holdsAnswerType(question, 'Default: 3000')).toBe(true);
    expect(
      holdsAnswerType(question, 'Instead of censoring the value, remove both the key and the value.'),
    ).toBe(false);
  });

  it('of what else is asked ("how long")', () => {
    const question = "If I don't set socket-timeout, how long until a socket times out?";
    expect(holdsAnswerType(question, 'The default is 300 seconds.')).toBe(true);
    expect(holdsAnswerType(question, 'Set it to 300 seconds.')).toBe(false);
  });

  it('not when the condition is another (a key that is not found, no match)', () => {
    expect(holdsAnswerType('What does dict.get return when the key is not found?', 'x')).toBeUndefined();
    expect(holdsAnswerType('What happens if no intercept matches?', 'x')).toBeUndefined();
  });

  it("is not answered by a variable a code example declares (`const logger = require('.')`)", () => {
    const question = 'What value does pino put in place of redacted keys when no censor is given?';
    expect(holdsAnswerType(question, "For instance, setting the censor: const logger = require('.')({")).toBe(
      false,
    );
    // A parameter's default in a signature, and a configuration file's setting, are defaults.
    expect(holdsAnswerType(question, 'ThreadPoolExecutor(max_workers=None, thread_name_prefix=…)')).toBe(
      true,
    );
    expect(holdsAnswerType(question, 'bantime = 10m')).toBe(true);
  });

  it('is held by "a default <thing> of <value>" (openssl-enc(1), a new user\'s trial 29)', () => {
    const question = 'What iteration count does openssl enc -pbkdf2 use by default?';
    expect(
      holdsAnswerType(
        question,
        'Use PBKDF2 algorithm with a default iteration count of 10000 unless otherwise specified by the -iter command line option.',
      ),
    ).toBe(true);
    expect(
      holdsAnswerType(question, 'This option enables the use of PBKDF2 algorithm to derive the key.'),
    ).toBe(false);
  });

  it("is not answered by a grammar's rule or a comparison (`FLAG := persistent | random`, `==`)", () => {
    // nft(8) as a PDF (a twenty-fifth new user's trial): a NAT statement's syntax line headed the
    // sentence that answered "What is the default policy of an nftables base chain?" instead of
    // "Supported policy values are accept (which is the default) or drop.".
    const question = 'What is the default policy of an nftables base chain?';
    expect(holdsAnswerType(question, 'FLAG := persistent | random | fully-random')).toBe(false);
    expect(holdsAnswerType(question, 'if (a == b) return')).toBe(false);
    expect(holdsAnswerType(question, 'meta mark != 0x10')).toBe(false);
    expect(
      holdsAnswerType(question, 'Supported policy values are accept (which is the default) or drop.'),
    ).toBe(true);
    expect(holdsAnswerType(question, 'policy = accept')).toBe(true);
  });

  it('is answered by the default', async () => {
    const library = libraryOf([CENSOR, REMOVE], {
      [stem('pino')]: 3,
      [stem('redacted')]: 4.3,
      [stem('censor')]: 4,
      [stem('keys')]: 1.5,
    });
    const reply = await answerOf(
      library,
      'What value does pino put in place of redacted keys when no censor is given?',
    );
    expect(reply).toContain("Default: '[Redacted]'");
    expect(reply).not.toContain('remove both the key');
  });
});

describe('a duration asked for ("how long")', () => {
  it("is held by a record's field named in a unit of time (`retention_days: 30`)", () => {
    // A README check as a new user: "How long are backups kept for ldap?" was refused, though the
    // CSV row that answers it ranked first.
    const question = 'How long are backups kept for ldap?';
    expect(holdsAnswerType(question, 'service: ldap; schedule: daily; retention_days: 30')).toBe(true);
    expect(holdsAnswerType(question, 'timeout-seconds = 90')).toBe(true);
    expect(holdsAnswerType(question, 'service: ldap; schedule: daily; owner: ops')).toBe(false);
    expect(holdsAnswerType(question, 'service: ldap; days_open: mon-fri')).toBe(false);
  });
});

// upsd.conf(5) as a PDF (a twenty-ninth new user's trial, q56): the port is said as what happens
// when nothing sets it, the bind address as "The default is…".
const LISTEN = doc(
  'nut/upsd.conf.5.pdf',
  [
    '"LISTEN interface port"',
    'Bind a listening port to the interface specified by its Internet address or name. This may be useful on hosts with multiple interfaces. You should not rely exclusively on this for security, as it can be subverted on many systems.',
    'Optionally listen on TCP port port instead of the default value which was compiled into the code. This overrides any value you may have set with configure --with-port. If you don’t change it with configure or this value, upsd will listen on port 3493 for this interface.',
    'Multiple LISTEN addresses may be specified. The default is to bind to 127.0.0.1 if no LISTEN addresses are specified (and ::1 if IPv6 support is compiled in).',
  ].join('\n'),
);

describe('what is so when a thing is not set, said in a passage', () => {
  it('states its default', async () => {
    expect(
      holdsAnswerType(
        'What TCP port does upsd listen on by default?',
        'If you don’t change it with configure or this value, upsd will listen on port 3493 for this interface.',
      ),
    ).toBe(true);
    const answer = await answerOf(
      libraryOf([LISTEN], { upsd: 5, tcp: 3, port: 2, listen: 2.5, default: 1 }),
      'What TCP port does upsd listen on by default?',
    );
    expect(answer).toContain('3493');
  });
});
