import { describe, expect, it } from 'vitest';
import { groundedPassages, type ScoredPassage } from '../../src/server/answer/ground.js';
import { extractiveAnswer } from '../../src/server/answer/assistant.js';
import { holdsAnswerType } from '../../src/server/answer/answer-type.js';
import { isNavigation, passagesOf } from '../../src/server/answer/passages.js';
import {
  coverage,
  passageStems,
  type QuestionTerm,
  questionWords,
  stem,
} from '../../src/server/answer/relevance.js';
import { chunkText } from '../../src/server/ingest/extraction/chunk.js';
import type { Chunk } from '../../src/server/state/model.js';
import type { Hit } from '../../src/server/search/hit.js';

const chunk = (text: string, filename = 'doc.md', n = 0): Chunk => ({
  id: `file_1:${n}`,
  fileId: 'file_1',
  filename,
  text,
});
/** The passages of a chunk of `filename` made of these lines. */
const passagesOfLines = (filename: string, lines: string[]) => passagesOf(chunk(lines.join('\n'), filename));
const hit = (c: Chunk): Hit => ({ chunk: c, score: 1, terms: [], queryTerms: [], expansions: [] });
const term = (word: string, weight = 1): QuestionTerm => ({
  term: word,
  stem: stem(word),
  weight,
  expansions: new Set(),
});

describe('stem', () => {
  it('brings the forms of a word together, alike on both sides', () => {
    expect(stem('tickets')).toBe(stem('ticket'));
    expect(stem('switched')).toBe(stem('switch'));
    expect(stem('prices')).toBe(stem('priced'));
    expect(stem('policies')).toBe(stem('policy'));
    expect(stem('stopped')).toBe(stem('stop'));
    expect(stem('status')).toBe('status');
    expect(stem('v0')).toBe('v0');
  });
});

describe('questionWords', () => {
  it('drops the words that only make a request ("Explain the SLA policy", "Tell me about")', () => {
    expect(questionWords('Explain the SLA policy')).toEqual(['sla', 'policy']);
    expect(questionWords('Please tell me about refunds')).toEqual(['refunds']);
    expect(questionWords('Why does the test explain nothing?')).toContain('explain');
  });

  it('drops the words that only make a question ("how long", "how much")', () => {
    expect(questionWords('How long is parental leave?')).toEqual(['parental', 'leave']);
    expect(questionWords('How much is the Growth plan?')).toEqual(['growth', 'plan']);
    expect(questionWords('Is the ticket too long?')).toEqual(['ticket', 'too', 'long']);
  });
});

describe('coverage', () => {
  it("is the share of the question's weight a passage holds; rare words weigh more", () => {
    const terms = [term('urgent', 2), term('time', 1)];
    expect(coverage(passageStems('Urgent tickets get an answer.'), terms)).toBeCloseTo(2 / 3);
    expect(coverage(passageStems('Response times vary.'), terms)).toBeCloseTo(1 / 3);
    expect(coverage(passageStems('Nothing here.'), terms)).toBe(0);
  });

  it('counts a correction of a typo for most of its weight', () => {
    const typo = { ...term('pricng'), expansions: new Set([stem('pricing')]) };
    expect(coverage(passageStems('Pricing is per agent.'), [typo])).toBeCloseTo(0.8);
  });
});

describe('passagesOf', () => {
  it('leads a definition with its option line, arguments and all (ssh-keygen.1: `-t dsa | ecdsa | … | rsa`)', () => {
    const t = '-t dsa | ecdsa | ecdsa-sk | ed25519 | ed25519-sk | rsa';
    const leads = (text: string) => passagesOf(chunk(text, 'ssh-keygen.1.pdf')).map((p) => [p.lead, p.text]);
    expect(
      leads(
        `-s ca_key\nCertify (sign) a public key using the specified CA key.\n${t}\nSpecifies the type of key to create. The possible values are “dsa”, “ecdsa”, “ecdsa-sk”, “ed25519”, “ed25519-sk”, or “rsa”.`,
      ),
    ).toEqual([
      ['-s ca_key', 'Certify (sign) a public key using the specified CA key.'],
      [t, 'Specifies the type of key to create.'],
      [t, 'The possible values are “dsa”, “ecdsa”, “ecdsa-sk”, “ed25519”, “ed25519-sk”, or “rsa”.'],
    ]);
    // Under a term, an option line is the next term, not its definition.
    expect(leads(`verify-time=timestamp\n${t}\nSpecifies the type of key to create.`)).toEqual([
      [t, 'Specifies the type of key to create.'],
    ]);
  });

  it("takes a FAQ's question of several sentences whole as the lead, none of them an answer (the new-user trial: nano's FAQ)", () => {
    const passages = passagesOf(
      chunk(
        '4.6. When I paste text into a document, each line gets indented further than the last. Why? And how can I stop this?\nYou have the autoindent feature turned on. Hit Meta-I to turn it off.',
      ),
    );
    const question =
      '4.6. When I paste text into a document, each line gets indented further than the last. Why? And how can I stop this?';
    expect(passages.map((p) => [p.text, p.lead])).toEqual([
      ['You have the autoindent feature turned on.', question],
      ['Hit Meta-I to turn it off.', question],
    ]);
  });

  it('keeps sentences and rows; a FAQ question or a heading leads what follows it', () => {
    const passages = passagesOf(
      chunk(
        'Security FAQ\nHow do I report a vulnerability?\nWrite to security@example.com today.\npriority: Urgent; first response: 30 minutes.',
      ),
    );
    expect(passages.map((p) => [p.text, p.lead])).toEqual([
      ['Write to security@example.com today.', 'How do I report a vulnerability?'],
      ['priority: Urgent; first response: 30 minutes.', 'How do I report a vulnerability?'],
    ]);
  });
});

describe('sentences', () => {
  it('do not end at an abbreviation\'s full stop: "i.e. 1/10 second", "e.g. 2" (the tenth new user\'s htop(1): --delay lost its figures)', () => {
    const passages = passagesOfLines('htop.txt', [
      'Delay between updates, in tenths of a second. If the delay value is less than 1, it is increased to 1, i.e. 1/10 second. If the delay value is greater than 100, it is decreased to 100, i.e. 10 seconds. Small values, e.g. 2 or 3, cost more CPU.',
    ]);
    expect(passages.map((p) => p.text)).toEqual([
      'Delay between updates, in tenths of a second.',
      'If the delay value is less than 1, it is increased to 1, i.e. 1/10 second.',
      'If the delay value is greater than 100, it is decreased to 100, i.e. 10 seconds.',
      'Small values, e.g. 2 or 3, cost more CPU.',
    ]);
  });
});

describe('examples', () => {
  it("are what a sentence ending with a colon introduces, and a program's output after `Output:` heads nothing (the tenth new user's GNU parallel tutorial)", () => {
    const passages = passagesOfLines('parallel_tutorial.html', [
      'Termination',
      'Unconditional termination',
      'By default GNU parallel will wait for all jobs to finish before exiting.',
      'If you send GNU parallel the TERM signal, GNU parallel will stop spawning new jobs and wait for the remaining jobs to finish. If you send GNU parallel the TERM signal again, GNU parallel will kill all running jobs and exit.',
      'Termination dependent on job status',
      'For certain jobs there is no need to continue if one of the jobs fails and has an exit code different from 0. GNU parallel will stop spawning new jobs with --halt soon,fail=1:',
      'parallel -j2 --halt soon,fail=1 echo {}\\; exit {} ::: 0 0 1 2 3',
      'Output:',
      '0',
      '0',
      '1',
      'parallel: This job failed:',
      'echo 1; exit 1',
    ]);
    const halt = passages.find((p) => p.text.endsWith('--halt soon,fail=1:'));
    expect(halt?.example).toBe('parallel -j2 --halt soon,fail=1 echo {}\\; exit {} ::: 0 0 1 2 3');
    expect(passages.filter((p) => /^[\d, ]+$/.test(p.lead ?? ''))).toEqual([]);
  });
});

describe('configuration files', () => {
  it("are known by their name, not a page about one (the eleventh new user's cupsd.conf.html: its directives headed nothing)", () => {
    const lines = [
      'MaxJobs number',
      'Specifies the maximum number of simultaneous jobs that are allowed. Set to "0" to allow an unlimited number of jobs. The default is "500".',
      'MaxJobTime seconds',
      'Specifies the maximum time a job may take to print before it is canceled. Set to "0" to disable cancellation of "stuck" jobs. The default is "10800" (3 hours).',
    ];
    const leads = (filename: string) => passagesOfLines(filename, lines).map((p) => p.lead);
    // A directive and its argument (`MaxJobTime seconds`) is a term its first sentence defines,
    // so an answer names the directive it is about.
    expect(
      passagesOfLines('cupsd.conf.html', lines)
        .filter((p) => p.defines)
        .map((p) => p.lead),
    ).toEqual(['MaxJobs number', 'MaxJobTime seconds']);
    expect(leads('cupsd.conf.html')).toEqual([
      ...Array(3).fill('MaxJobs number'),
      ...Array(3).fill('MaxJobTime seconds'),
    ]);
  });
});

describe("an option's syntax line", () => {
  it("heads the option's text (the eleventh new user's unbound.conf(5): `cache-max-ttl: <seconds>`)", () => {
    const passages = passagesOfLines('unbound.conf.pdf', [
      'cache-max-ttl: <seconds>',
      'Time to live maximum for RRsets and messages in the cache. Default is 86400 seconds (1 day). If the maximum kicks in, responses to clients still get decrementing TTLs based on the original (larger) values.',
      'cache-min-ttl: <seconds>',
      'Time to live minimum for RRsets and messages in the cache. Default is 0. If the minimum kicks in, the data is cached for longer than the domain owner intended.',
    ]);
    expect(passages.find((p) => p.text === 'Default is 86400 seconds (1 day).')?.lead).toBe(
      'cache-max-ttl: <seconds>',
    );
    expect(passages.find((p) => p.text === 'Default is 0.')?.lead).toBe('cache-min-ttl: <seconds>');
  });
});

describe('an option line with a parenthesis inside a parenthesis', () => {
  it("heads its text, no code (the eleventh new user's nmap(1): `-F (Fast (limited port) scan)`)", () => {
    const passages = passagesOfLines('nmap.pdf', [
      'PORT SPECIFICATION AND SCAN ORDER',
      '-F (Fast (limited port) scan)',
      'Specifies that you wish to scan fewer ports than the default. Normally Nmap scans the most common 1,000 ports for each scanned protocol. With -F, this is reduced to 100.',
      "-r (Don't randomize ports)",
      'By default, Nmap randomizes the scanned port order (except that certain commonly accessible ports are moved near the beginning for efficiency reasons).',
    ]);
    expect(passages.find((p) => p.text === 'With -F, this is reduced to 100.')?.lead).toBe(
      '-F (Fast (limited port) scan)',
    );
  });
});

describe('holdsAnswerType', () => {
  it('knows a duration, an amount and a date when the question asks for one', () => {
    expect(holdsAnswerType('How long is the trial?', 'A free 21-day trial.')).toBe(true);
    // "By default" asks for the default of what is asked (a new user's trial 19: smartd's example
    // "-i 30 … checking the disk status every 30 seconds" answered "How often does smartd check the
    // disks by default?" over "The default is 1800 seconds.").
    const often = 'How often does smartd check the disks by default?';
    expect(
      holdsAnswerType(often, 'Run in foreground (debug) mode, checking the disk status every 30 seconds.'),
    ).toBe(false);
    expect(
      holdsAnswerType(
        often,
        'Sets the interval between disk checks to N seconds. The default is 1800 seconds.',
      ),
    ).toBe(true);
    expect(holdsAnswerType('How many checks per day by default?', 'Default: 12')).toBe(true);
    // Not a default that is what the question is about.
    expect(
      holdsAnswerType('How many times is the default value evaluated?', 'It is evaluated only once.'),
    ).toBe(true);
    // "How often" asks for an interval (a new user's trial 18: monitrc's `set daemon 120 # check
    // services at 120 seconds intervals`, not "Monit will restart it by default.").
    expect(
      holdsAnswerType(
        'How often does monit check services?',
        'set daemon 120 # check services at 120 seconds intervals',
      ),
    ).toBe(true);
    expect(holdsAnswerType('How often does monit check services?', 'Monit will restart it by default.')).toBe(
      false,
    );
    // A manual page's section is no figure (a new user's trial 18: cupsd.conf(5)'s FilterNice,
    // "…priority ( nice(8) value)…", held "how many copies" over MaxCopies).
    expect(
      holdsAnswerType(
        'Is there a limit on how many copies a user can print?',
        'Specifies the scheduling priority ( nice(8) value) of filters that are run to print a job.',
      ),
    ).toBe(false);
    expect(holdsAnswerType('How many retries does wget make?', 'See wget(1): 20 tries by default.')).toBe(
      true,
    );
    // A count is no measure of time or size: a new user's trial 33, k07, "How many times does wget
    // retry a download by default?" was answered with --waitretry's "a value of 10 seconds".
    const times = 'How many times does wget retry a download by default?';
    expect(holdsAnswerType(times, 'By default, Wget will assume a value of 10 seconds.')).toBe(false);
    expect(holdsAnswerType(times, 'The default is to retry 20 times.')).toBe(true);
    expect(holdsAnswerType(times, 'By default it retries twice, 2.5 seconds apart.')).toBe(true);
    // Unless it is what the question counts.
    expect(
      holdsAnswerType('How many seconds does wget wait between retries?', 'A value of 10 seconds.'),
    ).toBe(true);
    expect(holdsAnswerType('How long must passwords be?', 'App passwords are allowed.')).toBe(false);
    expect(holdsAnswerType('How much is Growth?', 'It costs 29 dollars.')).toBe(true);
    // A share: "10%" before a space (journald.conf(5): "The first pair defaults to 10% …").
    expect(
      holdsAnswerType('How much disk space may the journal use?', 'The first pair defaults to 10% of it.'),
    ).toBe(true);
    // A size is an amount too (tc-fq_codel(8): "Default is 32 MB.").
    expect(holdsAnswerType('How much memory can a queue use?', 'Default is 32 MB.')).toBe(true);
    expect(holdsAnswerType('How much memory can a queue use?', 'Default is 1024 packets.')).toBe(false);
    expect(holdsAnswerType('When is v0 switched off?', 'On 30 June.')).toBe(true);
    // "How long can … be?" asks for a length (hostapd.conf: "an ASCII passphrase (8..63 characters)").
    expect(
      holdsAnswerType(
        'How long can a WPA passphrase be in hostapd?',
        'an ASCII passphrase (8..63 characters)',
      ),
    ).toBe(true);
    expect(holdsAnswerType('How long can a WPA passphrase be in hostapd?', 'rekeyed every 600 seconds')).toBe(
      false,
    );
    expect(holdsAnswerType('How long will the disk idle before it spins down?', 'after 20 minutes')).toBe(
      true,
    );
    // "What time" asks for a time of day, not a duration (at(1): "teatime (4pm)").
    expect(holdsAnswerType("What time is 'teatime'?", 'noon, or teatime (4pm)')).toBe(true);
    expect(holdsAnswerType("What time is 'teatime'?", 'periods of 3 days')).toBe(false);
    expect(holdsAnswerType('Who wrote it?', 'On 30 June.')).toBeUndefined();
  });

  it("knows a setting's duration by its unit (the seventh new-user trial on sudoers(5))", () => {
    const question = 'How long does sudo wait before asking for my password again?';
    expect(
      holdsAnswerType(
        question,
        'Number of minutes that can elapse before sudo will ask for a password again.',
      ),
    ).toBe(true);
    expect(
      holdsAnswerType('How long is KEYTIMEOUT?', 'The time the shell waits, in hundredths of seconds.'),
    ).toBe(true);
    expect(holdsAnswerType(question, 'Minutes are no unit here: the password is asked again.')).toBe(false);
  });
});

describe('groundedPassages', () => {
  const doc = chunk(
    'The Growth plan costs 29 dollars per agent.\nThe Starter plan includes e-mail.\nEvery new workspace starts with a trial of the Growth plan.',
  );

  it('answers with the passages that hold enough of the question, in document order', () => {
    const chosen = groundedPassages({
      question: 'How much is the Growth plan?',
      hits: [hit(doc)],
      terms: [term('growth', 2), term('plan', 1)],
    });
    expect(chosen.map((p) => p.text)).toEqual(['The Growth plan costs 29 dollars per agent.']);
  });

  it('answers nothing when no passage reaches the threshold', () => {
    const chosen = groundedPassages({
      question: 'How long is parental leave?',
      hits: [hit(doc)],
      terms: [term('parental', 3), term('leave', 3), term('plan', 1)],
    });
    expect(chosen).toEqual([]);
  });

  it('drops a passage met again inside a longer one (chunks overlap)', () => {
    const tail = chunk('The Growth plan costs 29 dollars per agent.', 'doc.md', 1);
    const chosen = groundedPassages({
      question: 'What does Growth cost?',
      hits: [hit(doc), hit(tail)],
      terms: [term('growth', 2), term('cost', 1)],
    });
    expect(chosen.map((p) => p.text)).toEqual(['The Growth plan costs 29 dollars per agent.']);
  });
});

describe('definitions answer what a name is (#33)', () => {
  const manual = chunk(
    [
      '‘%j’',
      'day of year (001..366)',
      '‘%k’',
      'hour, space padded ( 0..23)',
      'To print the day of the year in a date format, give date the format %j, as in the example.',
    ].join('\n'),
    'coreutils.txt',
  );
  const required = (word: string, weight: number) => ({ ...term(word, weight), required: true });
  const terms = [required('%j', 4), term('print', 1), term('date', 1), term('format', 1)];

  it("answers 'What does %j print?' with %j's definition, not a sentence that only uses it", () => {
    const chosen = groundedPassages({
      question: 'What does %j print in a date format?',
      hits: [hit(manual)],
      terms,
    });
    expect(chosen[0]?.text).toBe('day of year (001..366)');
  });

  it('prefers the definition of the name to a line on several names at once', () => {
    const find = chunk(
      [
        '%f, %h, %l, %p, %P',
        'The output of these directives is quoted if the output is going to a terminal.',
        '‘%P’',
        'File’s name with the starting-point under which it was found removed.',
      ].join('\n'),
      'find.txt',
    );
    const chosen = groundedPassages({
      question: 'What does the %P directive of find -printf output?',
      hits: [hit(find)],
      // As weighed in a manual's workspace (bench:real): %P is rare, printf is in neither line.
      terms: [
        { ...term('%P', 5.6), required: true },
        term('directive', 3.4),
        term('printf', 3.2),
        term('output', 1.2),
        term('find', 0.5),
      ],
    });
    expect(chosen[0]?.text).toMatch(/^File’s name with the starting-point/);
  });

  it("reads a docstring's parameter (`update_to : bool, optional`) as a term, and a --flag by its name", () => {
    const readme = chunk(
      [
        'Programs already printing progress will benefit from the --update and --update_to flags.',
        'update_to : bool, optional',
        'If true, will treat input as total elapsed iterations.',
      ].join('\n'),
      'tqdm.md',
    );
    const chosen = groundedPassages({
      question: "What does tqdm's --update_to flag do?",
      hits: [hit(readme)],
      terms: [
        term('tqdm', 3.4),
        term('update', 1.6),
        term('flag', 3.2),
        { ...term('--update_to', 7), required: true },
      ],
    });
    expect(chosen[0]?.text).toBe('If true, will treat input as total elapsed iterations.');
  });

  it('reads the terms of one definition on lines of their own as one lead (an info manual)', () => {
    const info = chunk(
      "'--null'\n'-0'\nInput file names are terminated by a null character instead of by whitespace.",
      'find.txt',
    );
    const [passage] = passagesOf(info);
    expect(passage).toMatchObject({ lead: "'--null', '-0'", defines: true });
  });

  it('leaves other questions that name it to the words they share', () => {
    const chosen = groundedPassages({
      question: 'How do I print %j in a date format?',
      hits: [hit(manual)],
      terms,
    });
    expect(chosen[0]?.text).toMatch(/^To print the day/);
  });
});

describe('extractiveAnswer', () => {
  it('leads with a heading that ends with its own colon once ("as follows: -A …", not "follows::")', () => {
    const c = chunk('The options are as follows:\n-A, --almost-all do not list implied . and ..', 'ls.txt');
    const passage: ScoredPassage = {
      text: '-A, --almost-all do not list implied . and ..',
      chunk: c,
      position: 2,
      line: 1,
      lead: 'The options are as follows:',
      relevance: 1,
      rank: 1,
      needsLead: true,
      subject: 0.5,
      exactSubject: 0.5,
    };
    const reply = extractiveAnswer({ hits: [hit(c)], terms: [], passages: [passage], grounded: [hit(c)] });
    expect(reply.content).toMatch(/^The options are as follows: -A, --almost-all do not list/);
  });
});

describe('the kind of answer in a heading (#33)', () => {
  it('shows the heading that holds the number or version asked for', () => {
    const codes = chunk(
      '(5) SQLITE_BUSY\nThe SQLITE_BUSY result code means the database file could not be written.',
      'rescode.html',
    );
    const busy = groundedPassages({
      question: 'What is the numeric result code of SQLITE_BUSY?',
      hits: [hit(codes)],
      terms: [
        term('numeric', 2),
        term('result', 1),
        term('code', 1),
        { ...term('sqlite_busy', 3), required: true },
      ],
    });
    expect(busy[0]?.needsLead).toBe(true);
    const news = chunk(
      'NEWS for rsync 3.2.3\nAdded the --mkpath option to rsync, which creates a missing path.',
      'NEWS.md',
    );
    const mkpath = groundedPassages({
      question: 'Which rsync version added --mkpath?',
      hits: [hit(news)],
      terms: [
        term('rsync', 1),
        term('version', 1),
        term('added', 1),
        { ...term('--mkpath', 3), required: true },
      ],
    });
    expect(
      extractiveAnswer({ hits: [hit(news)], terms: [], passages: mkpath, grounded: [] }).content,
    ).toMatch(/^NEWS for rsync 3\.2\.3: Added the --mkpath option/);
  });
});

describe('a sentence that introduces a list (#33)', () => {
  it('is followed by the list', () => {
    const c = chunk(
      'Each value has one of the following storage classes:\nNULL. The value is a NULL value.\nINTEGER. The value is a signed integer.\nTEXT. The value is a text string.\n\nAnother paragraph.',
      'datatype3.html',
    );
    const passages = groundedPassages({
      question: 'What storage classes are there?',
      hits: [hit(c)],
      terms: [term('storage', 2), term('classes', 2)],
    });
    expect(extractiveAnswer({ hits: [hit(c)], terms: [], passages, grounded: [] }).content).toMatch(
      /^Each value has one of the following storage classes\. NULL\. The value is a NULL value\. INTEGER\. .* TEXT\. The value is a text string\.\n/,
    );
  });
});

describe('questions comparing two names (#33)', () => {
  it('answers "the difference between X and Y" from a passage on each', () => {
    const c = chunk(
      'random.choices(population, k=1)\nReturn a list of k elements chosen with replacement.\nrandom.sample(population, k)\nUsed for random sampling without replacement.',
      'random.html',
    );
    const question = 'What is the difference between random.choices() and random.sample()?';
    const required = (word: string) => ({ ...term(word, 3), required: true });
    const terms = [term('random', 0.5), required('random.choices'), required('random.sample')];
    expect(questionWords(question)).not.toContain('difference');
    const chosen = groundedPassages({ question, hits: [hit(c)], terms });
    expect(chosen.map((p) => p.text)).toEqual([
      'Return a list of k elements chosen with replacement.',
      'Used for random sampling without replacement.',
    ]);
  });
});

describe('chunks', () => {
  it('never start mid-sentence: the overlap is whole sentences', () => {
    const sentences = Array.from(
      { length: 60 },
      (_, i) => `Sentence number ${i} says something about topic ${i}.`,
    );
    const chunks = chunkText(sentences.join(' '));
    expect(chunks.length).toBeGreaterThan(3);
    for (const c of chunks) expect(c).toMatch(/^Sentence number \d+ /);
    // Overlapping: each chunk after the first starts with a sentence the one before ended with.
    for (let i = 1; i < chunks.length; i++) expect(chunks[i - 1]).toContain(chunks[i]!.split(/(?<=\.) /)[0]);
  });
});

describe('isNavigation (#33 cause 6)', () => {
  it('knows a table of contents, a back-of-book index and a menu by their shape', () => {
    const toc = [
      'Contents',
      '1 Introduction .......... 1',
      '2 Invoking grep .......... 3',
      '2.1 Command-line Options .......... 3',
      '2.2 Environment Variables .......... 12',
      '3 Regular Expressions .......... 15',
    ].join('\n');
    const index = [
      'Index',
      'upper, String Functions and Operators, Range/Multirange Functions and Operators',
      'lower, String Functions and Operators, Range/Multirange Functions and Operators',
      'work_mem, Resource Consumption, Sorting and hashing, Memory',
      'VACUUM, Routine Vacuuming, SQL Commands, Maintenance',
      'timeout, Client Connection Defaults, Statement Behavior, Locks',
    ].join('\n');
    const menu = [
      '* Menu:',
      '* Introduction:: Introduction.',
      '* Invoking:: Command-line options, environment, exit status.',
      '* Regular Expressions:: Regular Expressions.',
      '* Usage:: Examples.',
      '* Performance:: Performance tuning.',
    ].join('\n');
    for (const text of [toc, index, menu]) {
      expect(isNavigation(text), text).toBe(true);
      expect(passagesOf(chunk(text))).toEqual([]);
    }
  });

  it('leaves prose, option lists and tables alone', () => {
    const options = [
      'DESCRIPTION',
      'List information about the FILEs (the current directory by default).',
      '-a, --all',
      'do not ignore entries starting with .',
      '-A, --almost-all',
      'do not list implied . and ..',
      '--author',
      'with -l, print the author of each file',
    ].join('\n');
    const table = [
      'Plan; Price; Seats',
      'Plan: Starter; Price: 9 dollars; Seats: 1.',
      'Plan: Growth; Price: 29 dollars; Seats: 10.',
      'Plan: Scale; Price: 99 dollars; Seats: 50.',
      'Plan: Enterprise; Price: custom pricing; Seats: unlimited.',
    ].join('\n');
    const prose = chunkText(
      'The quick brown fox jumps over the lazy dog. It was a sunny day, and the fox was happy. '.repeat(5),
    )[0]!;
    for (const text of [options, table, prose]) expect(isNavigation(text), text).toBe(false);
  });
});

describe('passagesOf in API references (#33)', () => {
  it('takes a signature as the subject of what follows it, and never quotes an example', () => {
    const text = [
      'json.dumps(obj, *, skipkeys=False, ensure_ascii=True, indent=None, sort_keys=False, **kw)',
      'Serialize obj to a JSON formatted str using this conversion table.',
      '>>> print(json.dumps({"c": 0, "b": 0, "a": 0}, sort_keys=True))',
      '$ echo \'{"json": "obj"}\' | python -m json.tool --sort-keys',
      'If sort_keys is true (default: False), the output of dictionaries will be sorted by key.',
    ].join('\n');
    const passages = passagesOf(chunk(text));
    expect(passages.map((p) => p.text)).toEqual([
      'Serialize obj to a JSON formatted str using this conversion table.',
      'If sort_keys is true (default: False), the output of dictionaries will be sorted by key.',
    ]);
    expect(passages[0]!.lead).toMatch(/^json\.dumps\(/);
  });
});

describe('chunks keep their heading (#33)', () => {
  it('starts each chunk of a section with its heading, so its sentences keep their subject', () => {
    const body = Array.from(
      { length: 30 },
      (_, i) => `Sentence ${i} of the copytree section says one more thing.`,
    );
    const text = [
      'shutil.copytree(src, dst, dirs_exist_ok=False)',
      body.join(' '),
      'shutil.rmtree(path)',
      'Delete a tree.',
    ].join('\n');
    const chunks = chunkText(text);
    expect(chunks.length).toBeGreaterThan(2);
    for (const c of chunks.slice(0, -1))
      expect(c.split('\n')[0]).toBe('shutil.copytree(src, dst, dirs_exist_ok=False)');
    expect(passagesOf(chunk(chunks[1]!))[0]!.lead).toBe('shutil.copytree(src, dst, dirs_exist_ok=False)');
  });
});

describe('long signatures (#33)', () => {
  it('starts the later chunks of a long signature’s section with its name', () => {
    const params = Array.from({ length: 24 }, (_, i) => `param${i}=None`).join(', ');
    const signature = `subprocess.run(args, *, ${params})`;
    const body = Array.from({ length: 30 }, (_, i) => `Parameter ${i} of run says one more thing.`);
    const chunks = chunkText(
      [signature, body.join(' '), 'If check is true, CalledProcessError is raised.'].join('\n'),
    );
    expect(signature.length).toBeGreaterThan(200);
    expect(chunks.length).toBeGreaterThan(2);
    expect(chunks[0]!.split('\n')[0]).toBe(signature);
    for (const c of chunks.slice(1)) expect(c.split('\n')[0]).toBe('subprocess.run()');
    const last = passagesOf(chunk(chunks.at(-1)!)).find((p) => p.text.startsWith('If check'));
    expect(last?.lead).toBe('subprocess.run()');
  });
});

describe('sentence ends (#33)', () => {
  it('does not end a sentence at a full stop before a lowercase word (a URL a line end cut)', () => {
    const text =
      'The decision (https://lists.debian.org/debian-user/1997/04/msg00011. html) was made by Bruce Perens. Later ones followed.';
    expect(passagesOf(chunk(text)).map((p) => p.text)).toEqual([
      'The decision (https://lists.debian.org/debian-user/1997/04/msg00011. html) was made by Bruce Perens.',
      'Later ones followed.',
    ]);
  });
});

describe('definition lists (#33)', () => {
  it('reads a short line under a term as its definition, not as a heading', () => {
    const text = [
      '‘%j’',
      'day of year (001..366)',
      '‘%k’',
      'hour, space padded ( 0..23)',
      'Conversion specifiers',
      'Notes follow here.',
    ].join('\n');
    const passages = passagesOf(chunk(text));
    expect(passages.map((p) => [p.lead, p.text])).toEqual([
      ['‘%j’', 'day of year (001..366)'],
      ['‘%k’', 'hour, space padded ( 0..23)'],
      ['Conversion specifiers', 'Notes follow here.'],
    ]);
  });
});

describe('isNavigation and prose that looks like entries (#33)', () => {
  it('does not take numbered verses or an example with its output for navigation', () => {
    const verses = [
      'Genesis 36',
      '41 Duke Aholibamah, duke Elah, duke Pinon,',
      '42 Duke Kenaz, duke Teman, duke Mibzar,',
      '43 Duke Magdiel, duke Iram: these be the dukes of Edom, according to their habitations.',
      'Genesis 37',
      '1 And Jacob dwelt in the land wherein his father was a stranger, in the land of Canaan.',
    ].join('\n');
    const example = [
      '>>> median([1, 3, 5])',
      '3',
      'When the number of data points is even, the median is interpolated by taking the average of the two middle values:',
      '>>> median([1, 3, 5, 7])',
      '4.0',
      'This is suited for when your data is discrete.',
      '2.5',
    ].join('\n');
    for (const text of [verses, example]) expect(isNavigation(text), text).toBe(false);
  });
});

describe('examples in prose (#33)', () => {
  it('neither quotes a line shaped as code nor lets an example’s output head the sentences after it', () => {
    const text = [
      'statistics.median(data)',
      'When the number of data points is odd, the middle data point is returned:',
      '>>> median([1, 3, 5])',
      '3',
      'When the number of data points is even, the median is interpolated by taking the average of the two middle values:',
      'toml_dict = tomli.loads(toml_str)',
      'assert toml_dict == {"gretzky": 99, "kurri": {"jari": 17}}',
    ].join('\n');
    const passages = passagesOf(chunk(text));
    expect(passages.map((p) => [p.lead, p.text])).toEqual([
      [
        'statistics.median(data)',
        'When the number of data points is odd, the middle data point is returned:',
      ],
      [
        'statistics.median(data)',
        'When the number of data points is even, the median is interpolated by taking the average of the two middle values:',
      ],
    ]);
  });
});

describe('numbered terms (#33)', () => {
  it('reads a number alone as the term of the definition under it, unless it is an example’s output', () => {
    const text = [
      'GNU sed returns the following exit status error values:',
      '0',
      'Successful completion.',
      '4',
      'An I/O error, or a serious processing problem during runtime.',
    ].join('\n');
    expect(passagesOf(chunk(text)).map((p) => [p.lead, p.text])).toEqual([
      [undefined, 'GNU sed returns the following exit status error values:'],
      ['0', 'Successful completion.'],
      ['4', 'An I/O error, or a serious processing problem during runtime.'],
    ]);
  });
});

describe('a sentence that names its subject by its kind ("This option…") (#33)', () => {
  it('is shown with the heading it stands for', () => {
    const timeout = chunk(
      '‘-k DURATION’\n‘--kill-after=DURATION’\nEnsure the monitored COMMAND is killed by also sending a ‘KILL’ signal.\nThis option may be useful if the selected signal did not kill the COMMAND, because the signal was blocked or ignored.',
      'coreutils.txt',
    );
    const passages = groundedPassages({
      question: 'What if the signal is ignored and does not kill the command?',
      hits: [hit(timeout)],
      terms: [term('signal', 2), term('ignored', 3), term('kill', 2), term('command', 1)],
    });
    expect(passages[0]?.text).toMatch(/^This option may be useful/);
    expect(extractiveAnswer({ hits: [hit(timeout)], terms: [], passages, grounded: [] }).content).toMatch(
      // and after the sentence it goes on from
      /^‘--kill-after=DURATION’: Ensure the monitored COMMAND is killed .*\. This option may be useful/,
    );
  });
});

describe('a follow-up in what the previous answer quoted (#33, cause 7)', () => {
  // A function's section cut into two chunks, as a long one is; the previous answer quoted its first.
  const signature = 'spool.NamedTempFile(mode, buffering, encoding, prefix, dir, delete=True)';
  const first = {
    ...chunk(
      `${signature}\nThis function operates exactly as spool.TempFile() does, except that the file is guaranteed to have a visible name in the file system.`,
      'spool.html',
      4,
    ),
    id: 'file_1:4',
  };
  const rest = {
    ...chunk(
      `${signature}\nIf delete is true (the default), the file is deleted as soon as it is closed.\nThe returned object is always a file-like object.`,
      'spool.html',
      5,
    ),
    id: 'file_1:5',
  };
  const other = {
    ...chunk(
      'spool.TempFile(mode, buffering)\nReturn a file-like object that can be used as a temporary storage area.',
      'spool.html',
      3,
    ),
    id: 'file_1:3',
  };
  const said =
    'spool.NamedTempFile(): This function operates exactly as spool.TempFile() does, except that the file is guaranteed to have a visible name in the file system.';
  // "Is it deleted when I close it?": its own words, and the question before's at 0.7.
  const own = [term('deleted', 3.9), term('close', 3.5)];
  const before = [
    term('spool', 2.2),
    term('namedtempfile', 2.7),
    term('different', 2),
    term('tempfile', 5.5),
  ];
  const input = {
    question: 'Is it deleted when I close it?',
    hits: [hit(first), hit(rest), hit(other)],
    terms: [...own, ...before],
    continuing: new Set(['spool.html']),
    drawnOn: new Set([first.id]),
    said,
  };

  it("answers by the follow-up's own words, under the heading the previous answer quoted from", () => {
    const passages = groundedPassages({ ...input, followUpTerms: own });
    expect(passages.map((p) => p.text)).toEqual([
      'If delete is true (the default), the file is deleted as soon as it is closed.',
    ]);
  });

  it("not elsewhere: another section's sentence with the follow-up's words is not about its subject", () => {
    const elsewhere = {
      ...chunk(
        'spool.mkdtemp(prefix, dir)\nThe directory is deleted when you close the program.',
        'spool.html',
        9,
      ),
      id: 'file_1:9',
    };
    const passages = groundedPassages({ ...input, hits: [hit(first), hit(elsewhere)], followUpTerms: own });
    expect(passages.map((p) => p.text)).not.toContain('The directory is deleted when you close the program.');
  });

  it('nor in the other rows of a table the previous answer quoted one row of', () => {
    const sla = chunk(
      'priority: Urgent; first response: 30 minutes; resolution: 4 hours.\npriority: High; first response: 2 hours; resolution: 1 business day.',
      'sla.csv',
    );
    const passages = groundedPassages({
      question: 'And the resolution time?',
      hits: [hit(sla)],
      terms: [
        term('resolution', 2),
        term('time', 0.5),
        term('urgent', 2),
        term('first', 0.5),
        term('response', 1),
      ],
      continuing: new Set(['sla.csv']),
      drawnOn: new Set([sla.id]),
      said: 'priority: Urgent; first response: 30 minutes; resolution: 4 hours.',
      followUpTerms: [term('resolution', 2), term('time', 0.5)],
    });
    expect(passages.map((p) => p.text)).toEqual([
      'priority: Urgent; first response: 30 minutes; resolution: 4 hours.',
    ]);
  });
});
