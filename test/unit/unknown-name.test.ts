import { describe, expect, it } from 'vitest';
import { extractiveAnswer, retrieve } from '../../src/server/answer/assistant.js';
import { fileNamed, hyphenatedNames, writesWhole } from '../../src/server/answer/relevance.js';
import { FRESHCLAM_CONF_DIRECTIVES } from '../helpers/documents.js';
import { answerOf, doc, libraryOf } from '../helpers/library.js';

describe('a name the question gives that no document holds', () => {
  const currencies = doc(
    'iso_4217.json',
    'alpha_3: XTS; name: Codes specifically reserved for testing purposes; numeric: 963. alpha_3: XXX; name: The codes assigned for transactions where no currency is involved; numeric: 999.',
  );

  it('is refused, not answered from what holds the rest of the question (the new-user trial: Bitcoin)', async () => {
    const library = libraryOf([currencies], { iso: 6, '4217': 8, currenc: 6, code: 3.5, bitcoin: 10.7 }, [
      'bitcoin',
    ]);
    const reply = extractiveAnswer(
      await retrieve(library, 'ws', 'What is the ISO 4217 currency code for Bitcoin?', []),
    );
    expect(reply.sources).toEqual([]);
  });

  it('is answered when it is a word of the language (a paraphrase says it otherwise)', async () => {
    const library = libraryOf([currencies], { currenc: 3, code: 2, testing: 4 }, ['trial']);
    const reply = extractiveAnswer(
      await retrieve(library, 'ws', 'Which currency code is reserved for trial and testing purposes?', []),
    );
    expect(reply.content).toContain('XTS');
  });

  it('is a name the question writes as one, not any word WordNet does not know ("did")', async () => {
    const notes = doc(
      'release-notes-v2.md',
      'Version 2.0 "Aurora"\nAurora introduced auto-triage, which tags and prioritises incoming tickets.',
    );
    const library = libraryOf([notes], { aurora: 5, introduc: 3 }, ['did']);
    const reply = extractiveAnswer(await retrieve(library, 'ws', 'What did Aurora introduce?', []));
    expect(reply.content).toContain('auto-triage');
  });

  it("is a name the question writes in capitals too (a new user's trial 36: haveged and RDRAND)", async () => {
    const readme = doc(
      'haveged-README.gz',
      'The haveged daemon uses the CPU instruction cache and its timing to feed entropy to the kernel.',
    );
    const library = libraryOf([readme], { havege: 4, cpu: 3, instruct: 3, rdrand: 2 }, ['rdrand']);
    const reply = extractiveAnswer(
      await retrieve(library, 'ws', "Does haveged use the CPU's RDRAND instruction?", []),
    );
    expect(reply.sources).toEqual([]);
  });

  it("is refused when only its parts are in the documents (a new user's trial 26: unbound's serve-stale-ttl-max)", async () => {
    const options = doc(
      'unbound.conf.5.pdf',
      [
        'serve-expired-ttl: <seconds>',
        'Limit serving of expired responses to configured seconds after expiration. The default is 0.',
        'serve-original-ttl: <yes or no>',
        'If enabled, unbound attempts to serve the original TTL. Default is "no".',
      ].join('\n'),
    );
    const library = libraryOf([options], { serv: 2, stale: 4, ttl: 3, max: 2, unbound: 3 });
    const reply = extractiveAnswer(
      await retrieve(library, 'ws', "What is the default value of unbound's serve-stale-ttl-max option?", []),
    );
    expect(reply.sources).toEqual([]);
  });

  it('is answered when a document holds it as written', async () => {
    const options = doc(
      'unbound.conf.5.pdf',
      'cache-max-ttl: <seconds>\nTime to live maximum for RRsets and messages in the cache. Default is 86400 seconds (1 day).',
    );
    const library = libraryOf([options], { cache: 2, max: 2, ttl: 3, unbound: 3 });
    const reply = extractiveAnswer(
      await retrieve(library, 'ws', 'What is the default cache-max-ttl in unbound?', []),
    );
    expect(reply.content).toContain('86400');
  });

  it("is written in CamelCase too: a directive no document holds is refused (a new user's trial 29: MaxThreads)", async () => {
    const manual = doc(
      'freshclam.conf.5.pdf',
      [
        'DIRECTIVES',
        'When an option is not used (hashed or doesn’t exist in the configuration file) freshclam takes a default action.',
        ...FRESHCLAM_CONF_DIRECTIVES,
        'LogVerbose BOOL',
        'Enable verbose logging.',
        'Default: disabled',
      ].join('\n'),
    );
    const library = libraryOf(
      [manual],
      {
        default: 1.52,
        valu: 2,
        freshclam: 6.02,
        conf: 2.03,
        'freshclam.conf': 7.97,
        maxthread: 9.91,
        logfacil: 7,
      },
      ['maxthread'],
    );
    const absent = extractiveAnswer(
      await retrieve(library, 'ws', 'What is the default MaxThreads value in freshclam.conf?', []),
    );
    expect(absent.sources).toEqual([]);
    const present = extractiveAnswer(
      await retrieve(library, 'ws', 'What is the default LogFacility value in freshclam.conf?', []),
    );
    expect(present.content).toContain('LOG_LOCAL6');
  });

  it("is missed by a passage that holds only the document's name besides (a new user's trial 33, i07)", async () => {
    // nginx's proxy_params: "What does nginx's proxy_params set the X-Forwarded-For header to?"
    // was answered with its comment on the Host header, which says "forwarding" and "header".
    const proxyParams = doc(
      'web/nginx/proxy_params',
      [
        '# In stable/oldstable packages we use "$host" as a security workaround. It avoids forwarding an untrusted raw Host header to the backend.',
        '#',
        '# Note: this changes behaviour compared to previous versions, because "$host" does not preserve the client-supplied port.',
        'proxy_set_header Host $host;',
        'proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;',
      ].join('\n'),
    );
    const library = libraryOf([proxyParams], {
      nginx: 5,
      proxy_params: 8,
      x: 3,
      forward: 4,
      header: 3,
      set: 1.5,
    });
    const reply = await answerOf(
      library,
      "What does nginx's proxy_params set the X-Forwarded-For header to?",
    );
    expect(reply).not.toContain('untrusted raw Host header');
  });

  it("is a program's the question writes as one's own: sox's -G is not m4's (a new user's trial 43, a01)", async () => {
    const limits = doc(
      'm4/Limits-control.html',
      '-G\n--traditional\nSuppress all the extensions made in this implementation, compared to the System V version.',
    );
    const library = libraryOf([limits], { sox: 7.45, g: 0.9, option: 0.7, '-g': 6.9 }, ['sox']);
    const absent = extractiveAnswer(await retrieve(library, 'ws', "What does sox's -G option do?", []));
    expect(absent.sources).toEqual([]);
    // Nor when the documents name sox in passing (lame(1)'s SEE ALSO): m4's -G is not sox's.
    const seeAlso = doc('lame/lame.1.pdf', 'SEE ALSO\nmpg123(1), madplay(1), sox(1)', 0);
    const known = libraryOf([limits, seeAlso], { sox: 6, g: 0.9, option: 0.7, '-g': 6.9 });
    expect(
      extractiveAnswer(await retrieve(known, 'ws', "What does sox's -G option do?", [])).sources,
    ).toEqual([]);
    // Its own: m4 is in the documents.
    const present = await answerOf(
      libraryOf([limits], { m4: 5, g: 0.9, option: 0.7, '-g': 6.9 }),
      "What does m4's -G option do?",
    );
    expect(present).toContain('Suppress all the extensions');
  });

  it('is hyphenated when a part is no word of the language, a prefix or a stop word', () => {
    expect(
      hyphenatedNames('Is serve-stale-ttl-max or mod-userdir read-only, multi-threaded, end-of-file?'),
    ).toEqual(['serve-stale-ttl-max', 'mod-userdir']);
    // A prefix and one word after it, whatever that word (a new user's trial 32, q11: "How do I let
    // normal (non-admin) users view exim's mail queue?" was refused, "admin" unknown to WordNet).
    expect(hyphenatedNames('Can non-admin users or a re-indexer run gpg-agent?')).toEqual(['gpg-agent']);
    // Words each written with a capital inside a sentence name a thing (an HTTP header): a new
    // user's trial 33, i07, "What does nginx's proxy_params set the X-Forwarded-For header to?"
    // was answered with a comment on forwarding the Host header.
    expect(hyphenatedNames('What does it set the X-Forwarded-For or Content-Type header to?')).toEqual([
      'x-forwarded-for',
      'content-type',
    ]);
    // At the start of the question a capital says nothing.
    expect(hyphenatedNames('Read-Only files: what are they?')).toEqual([]);
    expect(writesWhole('--max-cache-ttl n', 'max-cache-ttl')).toBe(true);
    expect(writesWhole('max-cache-ttl-ssh n', 'max-cache-ttl')).toBe(false);
    expect(writesWhole('built for x86_64.', 'x86-64')).toBe(true);
    // A document's name holds it between any marks: ssh-agent(1) as man-ssh-agent.pdf.
    expect(fileNamed('man-ssh-agent.pdf', 'ssh-agent')).toBe(true);
    expect(fileNamed('ssh-agents.pdf', 'ssh-agent')).toBe(false);
  });
});

describe("a setting's name the question writes whole", () => {
  it("is the setting's, though the question's terms cut it (a new user's trial 28, I02)", async () => {
    // The question's terms say `server.document` for `server.document-root`; the document's name
    // (lighttpd.conf) is where it is asked, not a second name the setting's line misses.
    const conf = doc(
      'lighttpd/lighttpd.conf',
      ['server.modules = (', '\t"mod_indexes",', ')', 'server.document-root = "/var/www/html"'].join('\n'),
    );
    const manual = doc(
      'lighttpd/lighttpd.8.pdf',
      ['FILES', '/etc/lighttpd/lighttpd.conf', 'The standard location for the configuration file.'].join(
        '\n',
      ),
    );
    const library = libraryOf([conf, manual], { 'server.document': 9, 'lighttpd.conf': 7, lighttpd: 4 });
    const reply = await answerOf(library, 'What is server.document-root in lighttpd.conf?');
    expect(reply).toContain('server.document-root = "/var/www/html"');
  });

  it("is not the one asked when the question asks about another name inside it (a new user's trial 30, q59)", async () => {
    const screenrc = doc(
      'screen/screenrc',
      ['# use this for the hard status string', 'hardstatus string "%h%? users: %u%?"'].join('\n'),
    );
    const library = libraryOf([screenrc], { '%u': 9, hardstatus: 6, screen: 3, caption: 4, escape: 3 });
    const reply = await answerOf(
      library,
      'In a GNU screen caption or hardstatus string, what does the %u escape show?',
    );
    expect(reply).not.toContain('hardstatus string "%h');
  });
});
