import { describe, expect, it } from 'vitest';
import { holdsAnswerType } from '../../src/server/answer/answer-type.js';
import { extractiveAnswer } from '../../src/server/answer/assistant.js';
import { groundedPassages, scorePassages } from '../../src/server/answer/ground.js';
import { passagesOf } from '../../src/server/answer/passages.js';
import { figureParts, type QuestionTerm, sayableOtherwise, stem } from '../../src/server/answer/relevance.js';
import type { Chunk } from '../../src/server/state/model.js';
import type { Hit } from '../../src/server/search/hit.js';

// Shapes met in bench:real's documents (#33): each case is the passage that answered wrongly, or
// was not chosen, in the run that measured the change.
const chunk = (text: string, filename = 'doc.txt'): Chunk => ({
  id: 'file_1:0',
  fileId: 'file_1',
  filename,
  text,
});
/** A chunk of a second file, beside `chunk`'s. */
const secondFile = (text: string, filename: string): Chunk => ({
  ...chunk(text, filename),
  id: 'file_2:0',
  fileId: 'file_2',
});
const hit = (c: Chunk): Hit => ({ chunk: c, score: 1, terms: [], queryTerms: [], expansions: [] });
const term = (word: string, weight = 1, required = false): QuestionTerm => ({
  term: word,
  stem: stem(word),
  weight,
  expansions: new Set(),
  ...(required && { required }),
});
/** A word of the language (see `QuestionTerm.word`). */
const word = (w: string, weight: number): QuestionTerm => ({ ...term(w, weight), word: true });
const answer = (question: string, c: Chunk, terms: QuestionTerm[]) => {
  const passages = groundedPassages({ question, hits: [hit(c)], terms });
  return extractiveAnswer({ hits: [hit(c)], terms, passages, grounded: [] }).content;
};

describe('a number the question names', () => {
  it('is not held as part of a date or a time', () => {
    expect([...figureParts('created: 1993-08-16; release 11:59:01; ISO 3166-1')].sort()).toEqual([
      '01',
      '08',
      '1',
      '11',
      '16',
      '59',
    ]);
    // Standing alone elsewhere in the text, it is held.
    expect(figureParts('Debian 16, created 1993-08-16').has('16')).toBe(false);
  });

  it("is not held as the day of a date with its month named (a changelog's signature, the new-user trial)", () => {
    expect([...figureParts('-- Romain Francoise <rfrancoise@debian.org> Sat, 16 Apr 2011')]).toEqual(['16']);
    expect([...figureParts('It was released on April 16, 2011.')]).toEqual(['16']);
    expect([...figureParts('Chapter 16. Apr. 16 was the day.')]).toEqual([]);
  });

  it('so "Debian 16" is not answered by a row created on 1993-08-16', () => {
    const rows = chunk(
      'version: 1.1; codename: Buzz; series: buzz; created: 1993-08-16; release: 1996-06-17.',
      'data-debian.csv',
    );
    const chosen = groundedPassages({
      question: 'What is the codename of Debian 16?',
      hits: [hit(rows)],
      terms: [term('codename', 6), term('debian', 3), term('16', 2, true)],
    });
    expect(chosen).toEqual([]);
  });
});

describe("a function's signature leading an answer", () => {
  it('shows the parameter the question names, as the signature gives it', () => {
    const c = chunk(
      'math.isclose(a, b, *, rel_tol=1e-09, abs_tol=0.0)\nThe default tolerance is 1e-09, which assures that the two values are the same within about 9 decimal digits.',
      'math.html',
    );
    const content = answer('What is the default rel_tol of math.isclose?', c, [
      term('default', 1.5),
      term('rel_tol', 8, true),
      term('math.isclose', 9, true),
    ]);
    expect(content).toMatch(/^math\.isclose\(…, rel_tol=1e-09, …\): The default tolerance is 1e-09/);
  });

  it('is shortened to its name when the question names none of its parameters', () => {
    const c = chunk(
      'math.isclose(a, b, *, rel_tol=1e-09, abs_tol=0.0)\nReturn True if the values a and b are close to each other and False otherwise.',
      'math.html',
    );
    const content = answer('When does math.isclose return True?', c, [
      term('return', 1),
      term('true', 1),
      term('math.isclose', 9, true),
    ]);
    expect(content).toMatch(/^math\.isclose\(\): Return True/);
  });
});

describe('the item of a list that answers', () => {
  it('is the one holding most of what the answer lacks, not the first holding any of it', () => {
    const c = chunk(
      [
        'The output of the ”systemctl status $unit” uses color of the dot (”●”) to summarize the unit state at a glance.',
        '• White ”●” indicates an ”inactive” or ”deactivating” state.',
        '• Red ”●” indicates a ”failed” or ”error” state.',
        '• Green ”●” indicates an ”active”, ”reloading” or ”activating” state.',
      ].join('\n'),
      'debian-reference.pdf',
    );
    const content = answer('In the output of systemctl status, what state does a red dot indicate?', c, [
      term('output', 2),
      term('systemctl', 6.8),
      term('status', 3),
      term('state', 3.2),
      term('red', 3.8),
      term('dot', 4.1),
      term('indicate', 2.7),
    ]);
    expect(content).toContain('Red ”●” indicates a ”failed” or ”error” state.');
    expect(content).not.toContain('White');
  });
});

describe('a definition list printed with its term on the line (a PDF, a man page)', () => {
  const bash = chunk(
    [
      'HISTIGNORE',
      'A pattern of ‘&’ is identical to ignoredups, and a pattern of ‘[ ]*’ is identical to ignorespace.',
      'HISTSIZE The maximum number of commands to remember on the history list. The shell sets the default value to 500 after reading any startup files.',
      'globstar If set, the pattern ‘**’ used in a filename expansion context will match all files and zero or more directories and subdirectories.',
    ].join('\n'),
    'bashref.pdf',
  );

  it('leads the sentences of its line with its term, the first as its definition', () => {
    const passages = passagesOf(bash).map((p) => [p.lead, p.text, !!p.defines]);
    expect(passages.slice(1)).toEqual([
      ['HISTSIZE', 'The maximum number of commands to remember on the history list.', true],
      ['HISTSIZE', 'The shell sets the default value to 500 after reading any startup files.', false],
      [
        'globstar',
        'If set, the pattern ‘**’ used in a filename expansion context will match all files and zero or more directories and subdirectories.',
        true,
      ],
    ]);
  });

  it('is not read into a line that starts with a word of a sentence', () => {
    const prose = chunk('and The GNU project wrote most of the tools in this list.');
    expect(passagesOf(prose)[0]?.lead).toBeUndefined();
  });

  it('answers "What does the globstar shell option do?" with the definition, though the question gives no identifier', () => {
    const usage = chunk(
      'Pattern Matching\nWhen the globstar shell option is enabled, two adjacent ‘*’s used as a single pattern will match all files.',
      'bashref.pdf',
    );
    const chosen = groundedPassages({
      question: 'What does the globstar shell option do?',
      hits: [hit(usage), hit({ ...bash, id: 'file_1:1' })],
      terms: [term('globstar', 9.1), term('shell', 2.4), term('option', 1.5)],
    });
    expect(chosen[0]?.text).toMatch(/^If set, the pattern ‘\*\*’/);
  });
});

describe('a how-to question about a program', () => {
  const gzip = chunk(
    [
      '1 Overview',
      'By default, ‘gzip’ keeps the original file name in the compressed file.',
      '‘--keep’',
      '‘-k’',
      'Keep (don’t delete) input files during compression or decompression.',
    ].join('\n'),
    'gzip.txt',
  );
  const terms = [
    term('compress', 3.6),
    term('file', 1.2),
    term('gzip', 5),
    term('without', 2.8),
    term('deleting', 3.1),
    term('original', 2.9),
  ];

  const question = 'How can I compress a file with gzip without it deleting the original?';

  it('is answered first by the option that does it', () => {
    const [best] = scorePassages({ question, hits: [hit(gzip)], terms });
    expect(best?.text).toBe('Keep (don’t delete) input files during compression or decompression.');
  });

  it('shows a definition with its term', () => {
    expect(answer(question, gzip, terms)).toContain(
      '‘--keep’, ‘-k’: Keep (don’t delete) input files during compression or decompression.',
    );
  });
});

describe("a man page's table of exit codes", () => {
  const tar = chunk(
    [
      'RETURN VALUE',
      'Tar exit code indicates whether it was able to successfully perform the requested operation.',
      '0 Successful termination.',
      '1 Some files differ.',
      '2 Fatal error. This means that some fatal, unrecoverable error occurred.',
    ].join('\n'),
    'man-tar.pdf',
  );

  it('reads each code as the term its few words define', () => {
    expect(passagesOf(tar).map((p) => [p.lead, p.text, !!p.defines])).toEqual([
      [
        'RETURN VALUE',
        'Tar exit code indicates whether it was able to successfully perform the requested operation.',
        false,
      ],
      ['0', 'Successful termination.', true],
      ['1', 'Some files differ.', true],
      ['2', 'Fatal error.', true],
      ['2', 'This means that some fatal, unrecoverable error occurred.', false],
    ]);
  });

  it('answers "What does exit code 1 mean?" with its line', () => {
    const chosen = groundedPassages({
      question: "What does tar's exit code 1 mean?",
      hits: [hit(tar)],
      terms: [term('tar', 4), term('exit', 2.7), term('code', 2), term('1', 1.1, true), term('mean', 0.9)],
    });
    expect(chosen[0]?.text).toBe('Some files differ.');
  });

  it('is not a verse or a numbered step that only starts with a number', () => {
    const verse = chunk('26 And as they were eating, Jesus took bread, and blessed it, and brake it.');
    expect(passagesOf(verse)[0]?.lead).toBeUndefined();
  });
});

describe('a sentence cut by the example it introduces', () => {
  const tutorial = chunk(
    [
      'The default values are evaluated at the point of function definition in the defining scope, so that',
      'i = 5',
      'def f(arg=i):',
      'print(arg)',
      'i = 6',
      'f()',
      'will print 5.',
      'Important warning: The default value is evaluated only once. This makes a difference when the default is a mutable object such as a list.',
    ].join('\n'),
    'python-tutorial-controlflow.html',
  );
  const terms = [
    term('times', 0.7),
    term('default', 1.5),
    term('value', 1.4),
    term('function', 1.6),
    term('argument', 1.6),
    term('evaluated', 3.7),
  ];

  it('is not an answer of its own ("…in the defining scope, so that.")', () => {
    const content = answer(
      'How many times is the default value of a function argument evaluated?',
      tutorial,
      terms,
    );
    expect(content).not.toContain('so that');
  });

  it('leaves "how many times" to the sentence that counts them ("only once")', () => {
    const content = answer(
      'How many times is the default value of a function argument evaluated?',
      tutorial,
      terms,
    );
    expect(content).toContain('The default value is evaluated only once.');
  });
});

describe('a sentence ending with a colon before its example', () => {
  const readme = chunk(
    [
      'Installation',
      'When LibYAML bindings are installed, you may use fast LibYAML-based parser and emitter as follows:',
      '>>> yaml.load(stream, Loader=yaml.CLoader)',
      "If you don't trust the input YAML stream, you should use:",
      '>>> yaml.safe_load(stream)',
      'Testing',
      'PyYAML includes a comprehensive test suite.',
    ].join('\n'),
    'readme-python3-yaml.md',
  );

  it('holds the names of the example it introduces', () => {
    const content = answer('When should I use yaml.safe_load in PyYAML?', readme, [
      term('should', 0.9),
      term('use', 0.3),
      term('yaml', 3.8),
      term('safe', 1.8),
      term('load', 1.6),
      term('pyyaml', 8.8),
      term('yaml.safe_load', 9.1, true),
    ]);
    expect(content).toContain("If you don't trust the input YAML stream, you should use");
    expect(content).toContain('yaml.safe_load(stream)');
  });
});

describe('a question on the difference between two names', () => {
  const fnmatch = chunk(
    [
      'fnmatch.fnmatch(filename, pattern)',
      'Test whether the filename string matches the pattern string, returning True or False. Both parameters are case-normalized using os.path.normcase(). fnmatchcase() can be used to perform a case-sensitive comparison, regardless of whether that’s standard for the operating system.',
      'fnmatch.fnmatchcase(filename, pattern)',
      'Test whether filename matches pattern, returning True or False; the comparison is case-sensitive and does not apply os.path.normcase().',
    ].join('\n'),
    'python-library-fnmatch.html',
  );

  it('is answered about each of them, though neither is an identifier', () => {
    const chosen = groundedPassages({
      question: 'What is the difference between fnmatch() and fnmatchcase() in the fnmatch module?',
      hits: [hit(fnmatch)],
      terms: [term('fnmatch', 6.9), term('fnmatchcase', 8.6), term('module', 1.9)],
    });
    const leads = new Set(chosen.map((p) => p.lead));
    expect(leads).toEqual(
      new Set(['fnmatch.fnmatch(filename, pattern)', 'fnmatch.fnmatchcase(filename, pattern)']),
    );
  });
});

describe('"how much" answered by a count of things', () => {
  it('holds the kind of answer asked for ("thirty pieces of silver")', () => {
    const verse = chunk(
      'Matthew 27\n3 Then Judas, which had betrayed him, when he saw that he was condemned, repented himself, and brought again the thirty pieces of silver to the chief priests and elders,',
      'large-unrelated.txt',
    );
    const content = answer('How much did the chief priests pay Judas to betray Jesus?', verse, [
      term('did', 1.2),
      term('chief', 3.5),
      term('priests', 2.8),
      term('pay', 4.9),
      term('judas', 6.3),
      term('betray', 5.2),
      term('jesus', 3.5),
    ]);
    expect(content).toContain('thirty pieces of silver');
  });
});

describe('a paraphrase that names what the documents name', () => {
  const readme = chunk(
    'Support\nFor debugging, run tmux with -v and -vv to generate server and client log files in the current directory.',
    'readme-tmux.docx',
  );

  it('is answered by the passage holding every name, though it says the rest otherwise', () => {
    const content = answer(
      'How can I get tmux to write diagnostic logs when troubleshooting a problem?',
      readme,
      [
        word('get', 0.9),
        term('tmux', 8.2),
        word('write', 2.3),
        word('diagnostic', 4.7),
        word('logs', 3.1),
        word('troubleshooting', 6.7),
        word('problem', 3.3),
      ],
    );
    expect(content).toContain('run tmux with -v and -vv');
  });

  it('is refused when the passage lacks a name it gives', () => {
    const content = answer(
      'How can I get screen to write diagnostic logs when troubleshooting a problem?',
      readme,
      [
        word('get', 0.9),
        term('screen', 8.2),
        word('write', 2.3),
        word('logs', 3.1),
        word('debugging', 6.7),
        word('problem', 3.3),
      ],
    );
    expect(content).toMatch(/^I couldn't find/);
  });

  it('is refused when the passage lacks the kind of answer asked for (a status code)', () => {
    const gzip = chunk(
      '--rsyncable\nWhen you synchronize a compressed file between two computers, this option allows rsync to transfer only files that were changed in the archive.',
      'man-gzip.pdf',
    );
    const content = answer('What exit code does rsync return after a partial transfer?', gzip, [
      word('exit', 2.7),
      word('code', 2),
      term('rsync', 7.4),
      word('return', 1.3),
      word('after', 0.7),
      word('partial', 4.3),
      word('transfer', 4.2),
    ]);
    expect(content).toMatch(/^I couldn't find/);
  });
});

describe("a term's `Default:` line after its description (the twelfth new-user trial on vsftpd.conf(5))", () => {
  const manual = chunk(
    [
      'max_clients',
      'If vsftpd is in standalone mode, this is the maximum number of clients which may be connected.',
      'Default: 0 (unlimited)',
      'max_login_fails',
      'After this many login failures, the session is killed.',
      'Default: 3',
      'max_per_ip',
      'If vsftpd is in standalone mode, this is the maximum number of clients which may be connected from the same source internet address.',
      'Default: 0 (unlimited)',
    ].join('\n'),
    'vsftpd.conf.5.pdf',
  );

  it('is a passage led by the term, however short', () => {
    expect(passagesOf(manual).map((p) => [p.lead, p.text])).toContainEqual(['max_login_fails', 'Default: 3']);
  });

  it("answers the term's default", () => {
    const content = answer('What is the default value of max_login_fails in vsftpd?', manual, [
      word('default', 1.6),
      word('value', 1.9),
      term('max_login_fails', 7.2, true),
      term('vsftpd', 3.4),
    ]);
    // Not the next term's text, taken for an item of a list the term's text announced; its own
    // description, which the default is of, before it.
    expect(content).toBe(
      'max_login_fails: After this many login failures, the session is killed. Default: 3.\n\nSources: [vsftpd.conf.5.pdf]',
    );
  });
});

describe("systemd's settings, each written with its = (journald.conf(5), a new user's trial 19)", () => {
  it('head their definitions, and a sentence that begins with one is a sentence, not a setting', () => {
    const manual = chunk(
      [
        'SystemMaxUse=, SystemKeepFree=, SystemMaxFileSize=, SystemMaxFiles=, RuntimeMaxUse=, RuntimeKeepFree=, RuntimeMaxFileSize=, RuntimeMaxFiles=',
        'SystemMaxUse= and RuntimeMaxUse= control how much disk space the journal may use up at most. SystemKeepFree= and RuntimeKeepFree= control how much disk space systemd-journald shall leave free for other uses.',
        'The first pair defaults to 10% and the second to 15% of the size of the respective file system, but each of the calculated default values is capped to 4G.',
      ].join('\n'),
      'systemd/journald.conf.5.pdf',
    );
    const passages = passagesOf(manual);
    expect(passages.map((p) => p.text)).toContain(
      'SystemMaxUse= and RuntimeMaxUse= control how much disk space the journal may use up at most.',
    );
    for (const p of passages)
      expect(p.lead).toBe(
        'SystemMaxUse=, SystemKeepFree=, SystemMaxFileSize=, SystemMaxFiles=, RuntimeMaxUse=, RuntimeKeepFree=, RuntimeMaxFileSize=, RuntimeMaxFiles=',
      );
    // In a configuration file, `Name=value` is a setting still.
    const conf = chunk('[Journal]\n#SystemMaxUse=\nSystemMaxUse=500M', 'journald.conf');
    expect(passagesOf(conf).some((p) => p.setting)).toBe(true);
  });
});

describe('an option written with its quoted value in a manual (authorized_keys(5)\'s `permitlisten="[host:]port"`, a new user\'s trial 18)', () => {
  it('heads its definition: the option above it does not go on over it', () => {
    const manual = chunk(
      [
        'no-X11-forwarding',
        'Forbids X11 forwarding when this key is used for authentication. Any X11 forward requests by the client will return an error.',
        'permitlisten="[host:]port"',
        'Limit remote port forwarding with the ssh(1) -R option such that it may only listen on the specified host (optional) and port.',
        'from="pattern-list"',
        'Specifies that in addition to public key authentication, the canonical name of the remote host must be present in the comma-separated list of patterns.',
      ].join('\n'),
      'authorized_keys.5.pdf',
    );
    const leads = new Map(passagesOf(manual).map((p) => [p.text.split(' ').slice(0, 3).join(' '), p.lead]));
    expect(leads.get('Forbids X11 forwarding')).toBe('no-X11-forwarding');
    expect(leads.get('Limit remote port')).toBe('permitlisten="[host:]port"');
    expect(leads.get('Specifies that in')).toBe('from="pattern-list"');
  });
});

describe("an option's syntax line in a manual (`sslVersionMin = SSL_VERSION`, the twelfth new-user trial on stunnel.html)", () => {
  const manual = chunk(
    [
      'sslVersionMax = SSL_VERSION',
      'maximum supported protocol versions',
      'Supported versions: all, SSLv3, TLSv1, TLSv1.1, TLSv1.2, TLSv1.3',
      'all enable protocol versions up to the highest version supported by the linked OpenSSL library.',
      'default: all',
      'sslVersionMin = SSL_VERSION',
      'minimum supported protocol versions',
      'Supported versions: all, SSLv3, TLSv1, TLSv1.1, TLSv1.2, TLSv1.3',
      'all enable protocol versions down to the lowest version supported by the linked OpenSSL library.',
      'default: TLSv1',
    ].join('\n'),
    'stunnel.html',
  );

  it('heads the text under it, which defines it', () => {
    const passages = passagesOf(manual);
    expect(passages.map((p) => [p.lead, p.text])).toContainEqual([
      'sslVersionMin = SSL_VERSION',
      'minimum supported protocol versions',
    ]);
    expect(passages.find((p) => p.text === 'default: TLSv1')?.lead).toBe('sslVersionMin = SSL_VERSION');
  });

  it('is no definition of the one above it (two options an example shows)', () => {
    const example = chunk(
      [
        'is equivalent to options',
        'sslVersionMax = SSL_VERSION',
        'sslVersionMin = SSL_VERSION',
        'when compiled with OpenSSL 1.1.0 and later.',
      ].join('\n'),
      'stunnel.html',
    );
    expect(passagesOf(example).map((p) => p.text)).not.toContain('sslVersionMin = SSL_VERSION');
  });

  it("answers the option's default", () => {
    const content = answer('What is the default value of sslVersionMin in stunnel?', manual, [
      word('default', 1.6),
      word('value', 1.9),
      term('sslversionmin', 6.5),
      term('stunnel', 2.4),
    ]);
    expect(content).toMatch(/default: TLSv1/);
    expect(content).not.toMatch(/default: all/);
    // Asked as the trial asked it: a default is a kind of answer, not what the option is.
    expect(
      answer('What is the default sslVersionMin in stunnel?', manual, [
        word('default', 1.6),
        term('sslversionmin', 6.5),
        term('stunnel', 2.4),
      ]),
    ).toMatch(/default: TLSv1/);
  });
});

describe("a program's rc file (wgetrc, monitrc: the twelfth new-user trial)", () => {
  it("holds the program's name, as redis.conf holds redis's", () => {
    const wgetrc = chunk(
      // As the text reader gives it: a comment's lines one paragraph.
      [
        '# You can lower (or raise) the default number of retries when downloading a file (default is 20).',
        '#tries = 20',
        '# The "wait" command below makes Wget wait between every connection. If, instead, you want Wget to wait only between retries of failed downloads, set waitretry to maximum number of seconds to wait (Wget will use "linear backoff", waiting 1 second after the first failure on a file, 2 seconds after the second failure, etc. up to this max).',
        '#waitretry = 10',
      ].join('\n'),
      'wgetrc',
    );
    const content = answer(
      'What is the default number of retries when downloading a file with wget?',
      wgetrc,
      [
        word('default', 1.6),
        word('number', 1.9),
        word('retries', 3.8),
        word('downloading', 3.7),
        word('file', 1.4),
        term('wget', 5.4),
      ],
    );
    expect(content).toMatch(
      /^You can lower \(or raise\) the default number of retries when downloading a file \(default is 20\)\./,
    );
  });
});

describe("a short option and its lower-case text on one line (ls(1) as a PDF: a fresh-eyes user's check)", () => {
  it('is the option and its definition, which answers what the option does', () => {
    const manual = chunk(
      [
        '-r, --reverse',
        'reverse order while sorting',
        '-R, --recursive',
        'list subdirectories recursively',
        '-s, --size',
        'print the allocated size of each file, in blocks',
        '-S sort by file size, largest first',
        '--sort=WORD',
        'sort by WORD instead of name: none (-U), size (-S), time (-t), version (-v), extension (-X), width',
      ].join('\n'),
      'ls.pdf',
    );
    expect(passagesOf(manual).map((p) => [p.lead, p.text])).toContainEqual([
      '-S',
      'sort by file size, largest first',
    ]);
    const tar = secondFile('-S, --sparse\nHandle sparse files efficiently.', 'tar.pdf');
    const terms = [term('ls', 2.1), term('-S', 5.6, true), word('option', 0.9)];
    const passages = groundedPassages({
      question: 'What does the ls -S option do?',
      hits: [hit(tar), hit(manual)],
      terms,
    });
    expect(passages[0]?.text).toBe('sort by file size, largest first');
  });
});

describe("a short option, its argument in capitals and its text on one line (ninja(1) as a PDF: a new user's trial 29)", () => {
  it('is the option and its definition, which answers for its default', async () => {
    const manual = chunk(
      [
        'options:',
        '-f FILE',
        'specify input build file [default=build.ninja]',
        '-j N run N jobs in parallel (0 means infinity) [default=#CPUs]',
        '-k N keep going until N jobs fail (0 means infinity) [default=1]',
        '-l N do not start new jobs if the load average is greater than N',
      ].join('\n'),
      'ninja/ninja.1.pdf',
    );
    expect(passagesOf(manual).map((p) => [p.lead, p.text])).toContainEqual([
      '-k N',
      'keep going until N jobs fail (0 means infinity) [default=1]',
    ]);
    const lvcreate = secondFile(
      '-k|--setactivationskip y|n\nPersistently sets (yes) or clears (no) the "activation skip" flag on an LV. This flag is set by default on new thin snapshot LVs.',
      'lvm2/lvcreate.8.pdf',
    );
    const passages = groundedPassages({
      question: "What is the default for ninja's -k option?",
      hits: [hit(lvcreate), hit(manual)],
      terms: [word('default', 1.2), word('ninja', 3.9), term('-k', 6, true), word('option', 1.1)],
    });
    expect(passages[0]?.text).toBe('keep going until N jobs fail (0 means infinity) [default=1]');
    // Without an end mark, a definition is no heading that the line under it answers.
    const content = answer("What is the default for ninja's -k option?", manual, [
      word('default', 1.2),
      word('ninja', 3.9),
      term('-k', 6, true),
      word('option', 1.1),
    ]);
    expect(content).toMatch(/^-k N: keep going until N jobs fail/);
    expect(content).not.toContain('load average');
  });
});

describe("a configuration comment's `Default:` line (adduser.conf: a fresh-eyes user's check)", () => {
  it('is shown with the comment it ends, the setting under it as its example', () => {
    const conf = chunk(
      [
        '# The login shell to be used for all new users.',
        '# Default: DSHELL=/bin/bash',
        '#DSHELL=/bin/bash',
        '# The directory in which new home directories should be created.',
        '# Default: DHOME=/home',
        '#DHOME=/home',
      ].join('\n'),
      'etc/adduser.conf',
    );
    const content = answer('What is the default login shell for new users created by adduser?', conf, [
      word('default', 1.6),
      word('login', 2.2),
      word('shell', 2.0),
      word('new', 1.1),
      word('users', 1.5),
      word('created', 1.3),
      term('adduser', 3.9),
    ]);
    expect(content).toContain('/bin/bash');
    expect(content).not.toContain('/home');
  });
});

describe('"Which Python version…?"', () => {
  it('asks for a version, as "which version" does (the eleventh new-user trial)', () => {
    expect(
      holdsAnswerType('Which Python version does PyYAML require?', 'It requires Python 3.8 or later.'),
    ).toBe(true);
    expect(holdsAnswerType('What OpenSSL versions are supported?', 'OpenSSL 1.1.1 and 3.0.')).toBe(true);
    expect(holdsAnswerType('Which version of Python is needed?', 'Python 3.9 is needed.')).toBe(true);
    expect(holdsAnswerType('Which Python version does PyYAML require?', 'A YAML framework for Python.')).toBe(
      false,
    );
    // A version named is no version asked for.
    expect(holdsAnswerType('What changed in version 2.1?', 'The parser was rewritten.')).toBeUndefined();
  });

  it('is refused by a passage that names the program and the language but no version', () => {
    const readme = chunk(
      'PyYAML\nPyYAML: A full-featured YAML processing framework for Python.',
      'pyyaml-README.md',
    );
    const content = answer('Which Python version does PyYAML require?', readme, [
      term('python', 1.2),
      word('version', 2.1),
      term('pyyaml', 4.5),
      word('require', 2.4),
    ]);
    expect(content).toMatch(/^I couldn't find/);
  });
});

describe('a word a paraphrase may say otherwise', () => {
  it('is a word of the language as the question writes it, not an abbreviation in capitals', () => {
    expect(sayableOtherwise('folders', 'How can I make ls show folders ahead of ordinary files?')).toBe(true);
    expect(sayableOtherwise('ceo', 'Who is the CEO of Kestrel Labs?')).toBe(false);
    expect(sayableOtherwise('kestrel', 'Who is the CEO of Kestrel Labs?')).toBe(false);
  });
});

describe('"What is X?"', () => {
  it('is answered by the sentence that says what X is, over one under a heading naming X', () => {
    const find = secondFile(
      '6.9 Seconds since the Epoch\nInternally, computer times are represented as a count of seconds since an Epoch--a well-defined point of time.',
      'gnu-find.txt',
    );
    const time = chunk(
      'time — Time access and conversions\nThe epoch is the point where the time starts, the return value of time.gmtime(0). It is January 1, 1970, 00:00:00 (UTC) on all platforms.',
      'python-library-time.html',
    );
    const chosen = groundedPassages({
      question: 'What is the epoch in the time module?',
      hits: [hit(find), hit(time)],
      terms: [term('epoch', 4.5), term('time', 0.7), term('module', 1.9)],
    });
    expect(chosen[0]?.text).toMatch(/^The epoch is the point where the time starts/);
    expect(
      extractiveAnswer({ hits: [hit(find), hit(time)], terms: [], passages: chosen, grounded: [] }).content,
    ).toContain('It is January 1, 1970, 00:00:00 (UTC) on all platforms.');
  });
});

describe("an option list's short rows (the new-user trial's undici RetryHandler.md)", () => {
  const options = chunk(
    [
      'RetryOptions',
      'maxRetries number (optional) - Maximum number of retries. Default: 5',
      'maxTimeout number (optional) - Maximum number of milliseconds to wait before retrying. Default: 30000 (30 seconds)',
      'timeoutFactor number (optional) - Factor to multiply the timeout by for each retry attempt. Default: 2',
      'retryAfter boolean (optional) - It enables automatic retry after the Retry-After header is received. Default: true',
    ].join('\n'),
    'RetryHandler.md',
  );

  it('keeps "Default: 5" after its line\'s first sentence, led by what that line names', () => {
    expect(passagesOf(options).filter((p) => p.text.startsWith('Default:'))).toMatchObject([
      { text: 'Default: 5', lead: 'maxRetries number (optional)' },
      { text: 'Default: 30000 (30 seconds)', lead: 'maxTimeout number (optional)' },
      { text: 'Default: 2', lead: 'timeoutFactor number (optional)' },
      { text: 'Default: true', lead: 'retryAfter boolean (optional)' },
    ]);
  });

  it("answers an option's default with its own, not the next option's", () => {
    const said = answer('What does maxRetries default to?', options, [
      term('maxretries', 3),
      term('default', 0.3),
    ]);
    expect(said).toContain('Default: 5');
    expect(said).not.toContain('30000');
    const factor = answer('What is the default timeoutFactor?', options, [
      term('timeoutfactor', 3),
      term('default', 0.3),
    ]);
    expect(factor).toContain('Default: 2');
    expect(factor).not.toContain('true');
  });
});

describe('a sentence whose subject is the one before it (the new-user trial on commander.md)', () => {
  it('is shown after that sentence', () => {
    const c = chunk(
      [
        'Required option',
        'Specify a required (mandatory) option using the Option method .makeOptionMandatory(). This matches the Command method .requiredOption().',
      ].join('\n'),
      'commander.md',
    );
    const said = answer('What does requiredOption do in commander?', c, [
      term('requiredoption', 3, true),
      term('commander', 0.3),
    ]);
    expect(said).toMatch(/^Specify a required \(mandatory\) option .*\. This matches the Command method/);
  });
});

// The new-user trial on SQLite's documentation (#33): limits.html.
describe('a sentence that names its subject as "this macro", "this option"', () => {
  const limits = chunk(
    [
      'Maximum length of a string or BLOB',
      'The maximum number of bytes in a string or BLOB in SQLite is defined by the preprocessor macro SQLITE_MAX_LENGTH. The default value of this macro is 1 billion (1 thousand million or 1,000,000,000). You can raise or lower this value at compile-time.',
      'During part of INSERT and SELECT processing, the complete content of each row is encoded as a single BLOB. So the SQLITE_MAX_LENGTH parameter also determines the maximum number of bytes in a row.',
    ].join('\n'),
    'limits.html',
  );

  it('holds the name the sentence before gives it, and is shown after that sentence', () => {
    const content = answer('What is the default value of SQLITE_MAX_LENGTH?', limits, [
      term('default', 2),
      term('value', 1),
      term('sqlite_max_length', 8, true),
    ]);
    expect(content).toMatch(
      /^The maximum number of bytes in a string or BLOB in SQLite is defined by the preprocessor macro SQLITE_MAX_LENGTH\. The default value of this macro is 1 billion/,
    );
  });

  it('not when the sentence before names another', () => {
    const other = chunk(
      [
        'Maximum number of columns',
        'The SQLITE_MAX_COLUMN compile-time parameter sets an upper bound on the number of columns. The default value of this macro is 2000.',
      ].join('\n'),
      'limits.html',
    );
    expect(
      groundedPassages({
        question: 'What is the default value of SQLITE_MAX_LENGTH?',
        hits: [hit(other)],
        terms: [term('default', 2), term('value', 1), term('sqlite_max_length', 8, true)],
      }),
    ).toEqual([]);
  });
});

describe('a line that a sentence shows "like this:"', () => {
  it('is that sentence’s example, not the heading of what follows', () => {
    const c = chunk(
      [
        'Maximum length of a string or BLOB',
        'You can raise or lower this value at compile-time using a command-line option like this:',
        '-DSQLITE_MAX_LENGTH=123456789',
        'The current implementation will only support a string or BLOB length up to 2147483647.',
      ].join('\n'),
      'limits.html',
    );
    const passages = passagesOf(c);
    expect(passages.map((p) => p.lead)).toEqual([
      'Maximum length of a string or BLOB',
      'Maximum length of a string or BLOB',
    ]);
    expect(passages[0]!.example).toBe('-DSQLITE_MAX_LENGTH=123456789');
  });
});

describe('a sentence that goes on after the answer', () => {
  it('keeps the example it shows ("…like this: -DSQLITE_MAX_LENGTH=123456789")', () => {
    const c = chunk(
      [
        'Maximum length of a string or BLOB',
        'The maximum length of a string or BLOB is set by the macro SQLITE_MAX_LENGTH. You can raise or lower it at compile-time using a command-line option like this:',
        '-DSQLITE_MAX_LENGTH=123456789',
      ].join('\n'),
      'limits.html',
    );
    const content = answer('Which macro sets the maximum length of a BLOB?', c, [
      term('macro', 2),
      term('maximum', 1),
      term('length', 1),
      term('blob', 3),
    ]);
    // Under it as written: a full stop after it would be pasted with it.
    expect(content).toContain(
      'using a command-line option like this:\n\n```\n-DSQLITE_MAX_LENGTH=123456789\n```',
    );
  });
});

// The new-user trial on SQLite's documentation (#33): whentouse.html.
describe('"What is the biggest…?"', () => {
  const c = chunk(
    [
      'Very large datasets',
      'An SQLite database is limited in size to 281 terabytes (2^48 bytes, 256 tibibytes). And even if it could handle larger databases, SQLite stores the entire database in a single disk file and many filesystems limit the maximum size of files to something less than this.',
    ].join('\n'),
    'whentouse.html',
  );

  it('asks for a magnitude, and the sentence an "And…" goes on from is shown before it', () => {
    const content = answer("What's the biggest database file SQLite can handle?", c, [
      term('biggest', 2),
      term('database', 1),
      term('file', 1),
      term('sqlite', 2),
      term('handle', 2),
    ]);
    expect(content).toMatch(
      /^(?:Very large datasets: )?An SQLite database is limited in size to 281 terabytes/,
    );
  });
});

describe('the kind of answer asked for', () => {
  it('is what the question asks ("How many times…"), not a default it is about', () => {
    const q = 'How many times is the default value of a function argument evaluated?';
    expect(
      holdsAnswerType(
        q,
        'The arguments can be used to customize the default behaviors of the decorated class:',
      ),
    ).toBe(false);
    expect(holdsAnswerType(q, 'Important warning: The default value is evaluated only once.')).toBe(true);
    // Asked alone, a default is what is asked for.
    expect(holdsAnswerType('What is the default value of HISTSIZE?', 'The default value is 500.')).toBe(true);
  });
});

describe('a heading shown before the sentence it leads', () => {
  it('loses the punctuation it ends with ("PRAGMA foreign_keys = boolean;")', () => {
    const c = chunk(
      [
        'PRAGMA foreign_keys;',
        'PRAGMA foreign_keys = boolean;',
        'Query, set, or clear the enforcement of foreign key constraints. The default setting for foreign key enforcement is OFF.',
      ].join('\n'),
      'pragma.html',
    );
    const content = answer(
      'Is the enforcement of foreign key constraints on by default with PRAGMA foreign_keys?',
      c,
      [
        term('enforcement', 3),
        term('foreign', 2),
        term('key', 1),
        term('constraints', 2),
        term('default', 2),
        term('foreign_keys', 6, true),
      ],
    );
    expect(content).toMatch(/^PRAGMA foreign_keys = boolean: Query, set, or clear/);
  });
});

describe('a man page section heading and the option under it', () => {
  it('are not one term: the option alone leads its definition', () => {
    const c = chunk(
      [
        'OPTIONS',
        '-0, --null',
        'Input items are terminated by a null character instead of by whitespace, and the quotes and backslash are not special.',
      ].join('\n'),
      'man-xargs.pdf',
    );
    expect(passagesOf(c).map((p) => p.lead)).toEqual(['-0, --null']);
  });
});

describe("a table's row (a CSV or JSON record: `version: 3.0; codename: Woody; …`)", () => {
  const faq = secondFile(
    '6.2.1 Which other codenames have been used in the past?\nAside bullseye and bookworm, other codenames that have been already used are: buzz for release 1.1, rex for release 1.2, woody for release 3.0, sarge for release 3.1.',
    'debian-faq.pdf',
  );
  const rows = chunk(
    'version: 3.0; codename: Woody; series: woody; created: 2000-08-15; release: 2002-07-19.\nversion: 3.1; codename: Sarge; series: sarge; created: 2002-07-19; release: 2005-06-06.',
    'data-debian.csv',
  );
  const best = (question: string, terms: QuestionTerm[]) =>
    scorePassages({ question, hits: [hit(faq), hit(rows)], terms })[0]!;

  it('is about what its values name, as a sentence is about its heading', () => {
    const passage = best('Which Debian version number had the codename Woody?', [
      term('debian', 2.8),
      term('version', 1.4),
      term('number', 1.7),
      term('had', 2.6),
      term('codename', 6.2),
      term('woody', 8.4),
    ]);
    expect(passage.text).toMatch(/^version: 3\.0; codename: Woody/);
  });

  it('not about what only its columns name, which every row says alike', () => {
    const passage = best('Where do the codenames of Debian releases come from?', [
      term('codenames', 6.2),
      term('debian', 2.8),
      term('releases', 3.2),
    ]);
    expect(passage.chunk.filename).toBe('debian-faq.pdf');
  });
});

describe("a table's row that lacks the kind of answer asked for", () => {
  it('is not about the value it names ("How much is Growth?" and an add-on\'s row)', () => {
    const prose = secondFile(
      'The Growth plan costs 29 dollars per agent per month and adds live chat.',
      'pricing.md',
    );
    const rows = chunk('name: Slack bridge; plan: Growth; status: available.', 'integrations.json');
    const [best] = scorePassages({
      question: 'How much is Growth?',
      hits: [hit(rows), hit(prose)],
      terms: [term('growth', 3)],
    });
    expect(best!.chunk.filename).toBe('pricing.md');
  });
});

describe("a table's row holding a number the question names", () => {
  it('is not about it: "rule 3 of the handbook" is not a row resolved in 3 business days', () => {
    const handbook = secondFile(
      'Section 3: security rule 3. Staff who deal with security follow rule 3 of the handbook.',
      'handbook.txt',
    );
    const rows = chunk(
      'priority: Normal; first response: 8 hours; resolution: 3 business days.',
      'sla-policies.csv',
    );
    const [best] = scorePassages({
      question: 'rule 3 of the handbook',
      hits: [hit(rows), hit(handbook)],
      terms: [term('rule', 0.2), term('3', 8, true), term('handbook', 0.2)],
    });
    expect(best!.chunk.filename).toBe('handbook.txt');
  });
});

describe('"Which option…?" (the new-user trial on jq\'s and tmux\'s manuals)', () => {
  it('is answered with the option, which the sentence under it does not name', () => {
    const c = chunk(
      [
        'FILTERS',
        'This is useful for processing very large inputs.',
        '--slurp/-s:',
        'Instead of running the filter for each JSON object in the input, read the entire input stream into a large array and run the filter just once.',
        '--raw-input/-R:',
        'Don’t parse the input as JSON. Instead, each line of text is passed to the filter as a string.',
      ].join('\n'),
      'jq.1.pdf',
    );
    const content = answer('Which jq option reads the entire input stream into a large array?', c, [
      term('jq', 3),
      term('option', 1),
      term('reads', 1),
      term('entire', 2),
      term('input', 1),
      term('stream', 2),
      term('large', 1),
      term('array', 2),
    ]);
    expect(content).toMatch(/^--slurp\/-s: Instead of running the filter/);
  });

  it('asks for an option, flag or directive, which a name of one holds', () => {
    const q = 'Which tmux option closes the gaps in window numbers?';
    expect(holdsAnswerType(q, 'renumber-windows [on | off]')).toBe(true);
    expect(holdsAnswerType(q, '-L socket-name')).toBe(true);
    expect(
      holdsAnswerType(q, 'If on, when a window is closed in a session, renumber the other windows.'),
    ).toBe(false);
    expect(holdsAnswerType('What does the ip_hash directive do?', 'ip_hash;')).toBe(undefined);
  });
});

describe('a how-to question answered under a setting’s name (the new-user trial on tmux’s manual)', () => {
  it('is shown with the setting, which the sentence does not name', () => {
    const c = chunk(
      [
        'remain-on-exit [on | off]',
        'A pane with this flag set is not destroyed when the program running in it exits.',
        'renumber-windows [on | off]',
        'If on, when a window is closed in a session, automatically renumber the other windows in numerical order. This respects the base-index option if it has been set.',
      ].join('\n'),
      'tmux.1.pdf',
    );
    const content = answer(
      'How can I make tmux close the gaps in window numbers automatically when I close a window?',
      c,
      [
        term('tmux', 2),
        term('close', 1),
        term('gaps', 3),
        term('window', 1),
        term('numbers', 1),
        term('automatically', 2),
      ],
    );
    expect(content).toMatch(/^renumber-windows \[on \| off\]: If on, when a window is closed/);
  });
});

describe("a configuration file's comments (the new-user trial on nginx's examples)", () => {
  it('are sentences that can answer, a shell prompt is not', () => {
    const c = chunk(
      [
        'upstream php {',
        '# ip_hash ensures the same backend is used for client reconnects.',
        'ip_hash;',
        '# apt-get install php-fpm',
        '}',
      ].join('\n'),
      'upstream',
    );
    expect(passagesOf(c).map((p) => [p.lead, p.text])).toEqual([
      [undefined, 'ip_hash ensures the same backend is used for client reconnects.'],
    ]);
  });
});

describe('two chunks of a file that overlap (the README trial on tmux’s manual)', () => {
  it('say a sentence they share once', () => {
    const shared = [
      'A window may be split into panes using the split-window command.',
      'Windows may be split horizontally (with the -h flag) or vertically.',
    ].join(' ');
    const first: Chunk = {
      ...chunk(`Each window displayed by tmux may be split into one or more panes. ${shared}`, 'tmux.1.pdf'),
      id: 'file_1:0',
    };
    const second: Chunk = { ...chunk(`${shared} Panes are numbered.`, 'tmux.1.pdf'), id: 'file_1:1' };
    const passage = (c: Chunk, at: number) => ({
      ...passagesOf(c)[at]!,
      relevance: 1,
      rank: 1,
      needsLead: false,
      subject: 0,
      exactSubject: 0,
    });
    const content = extractiveAnswer({
      hits: [hit(first), hit(second)],
      terms: [term('split', 2), term('window', 1), term('panes', 2)],
      passages: [passage(first, 0), passage(second, 0)],
      grounded: [],
    }).content;
    expect(content.split('A window may be split into panes').length - 1).toBe(1);
    expect(content).toContain('Each window displayed by tmux');
  });
});

describe("a configuration file's commented-out default (the fourth new-user trial on redis.conf)", () => {
  const redis = chunk(
    [
      '# volatile-ttl -> Remove the key with the nearest expire time (minor TTL)',
      "# noeviction -> Don't evict anything, just return an error on write operations.",
      '#',
      '# The default is:',
      '#',
      '# maxmemory-policy noeviction',
      '#',
      '# LRU, LFU and minimal TTL algorithms are not precise algorithms but approximated algorithms.',
    ].join('\n'),
    'redis.conf',
  );

  it('is the example of the comment that introduces it, across a blank comment line', () => {
    expect(passagesOf(redis).find((p) => p.text === 'The default is:')?.example).toBe(
      'maxmemory-policy noeviction',
    );
    // A comment mark alone on its line leads nothing.
    expect(passagesOf(redis).map((p) => p.lead)).not.toContain('#');
  });
});

describe("a record whose value holds a sentence's end (the sixth new-user trial on ieee-data's CSV)", () => {
  const row =
    'Registry: MA-M; Assignment: 8C1F64A; Organization Name: Star ID Inc.; Organization Address: 12758 W. Deep Canyon Dr. Star ID US 83669.';

  it('is one passage, not cut at "Dr. Star"', () => {
    const c = chunk(
      `${row}\nRegistry: MA-M; Assignment: 8C1F64B; Organization Name: Who? Corp; Organization Address: 1 Main St.`,
      'mam.csv',
    );
    expect(passagesOf(c).map((p) => p.text)).toEqual([
      row,
      'Registry: MA-M; Assignment: 8C1F64B; Organization Name: Who? Corp; Organization Address: 1 Main St.',
    ]);
  });
});

describe("a man page's sections (the fifth new-user trial on chrony.conf.5)", () => {
  it('are headings of their own, not names of one term with the lines beside them', () => {
    const c = chunk(
      'NAME\nchrony.conf - chronyd configuration file\nSYNOPSIS\nchrony.conf\nDESCRIPTION\nThis file configures the chronyd daemon.',
      'chrony.conf.5.pdf',
    );
    expect(passagesOf(c).map((p) => [p.lead, p.text])).toEqual([
      ['NAME', 'chrony.conf - chronyd configuration file'],
      ['DESCRIPTION', 'This file configures the chronyd daemon.'],
    ]);
  });
});

describe('a data file of names and their lists of values (the fifth new-user trial on SPDX licenses)', () => {
  it('is no navigation: each line is a name and what it is', () => {
    const lines = ['0BSD', 'AAL', 'AFL-2.1', 'AFL-3.0', 'AGPL-1.0', 'Zlib'].map(
      (id) => `${id}: The ${id} License, true, false`,
    );
    const c = chunk(lines.join('\n'), 'spdx-licenses.json');
    expect(passagesOf(c).map((p) => p.text)).toEqual(lines);
  });
});

describe("a command a sentence introduces with a colon (the seventh new-user trial: csvkit's examples)", () => {
  const text = [
    'Examples',
    'Print the indices and names of all columns:',
    'csvcut -n examples/realdata/FY09_EDU_Recipients_by_State.csv',
    '1: State Name',
    '2: State Abbreviate',
  ].join('\n');

  it('is what the sentence shows, and heads nothing: its output is not about it', () => {
    const passages = passagesOf(chunk(text, 'csvcut.html'));
    expect(passages[0]).toMatchObject({
      text: 'Print the indices and names of all columns:',
      example: 'csvcut -n examples/realdata/FY09_EDU_Recipients_by_State.csv',
    });
    for (const row of passages.slice(1)) expect(row.lead).toBe('Examples');
  });
});

describe("a command's continuation lines (the seventh new-user trial: Postfix's postsuper(1))", () => {
  it('head nothing: a line that begins with a pipe or a lone quote is code', () => {
    const text = [
      'To delete multiple files, specify the -d option multiple times. For example:',
      "postqueue -j | jq -r '",
      '| .queue_id',
      "' | postsuper -d -",
      'Specify "-d ALL" to remove all messages.',
    ].join('\n');
    const passages = passagesOf(chunk(text, 'postsuper.1.html'));
    const leads = passages.map((p) => p.lead);
    expect(passages.at(-1)!.text).toBe('Specify "-d ALL" to remove all messages.');
    expect(leads).not.toContain("' | postsuper -d -");
    expect(leads).not.toContain('| .queue_id');
  });
});

describe("a paragraph wholly in parentheses (the seventh new-user trial: lighttpd's compress.txt)", () => {
  it('is read as its sentences, without the parenthesis each would show alone', () => {
    const text =
      "(You will need to create the cache directory if it doesn't already exist. The web server will not do this for you. For Debian/Ubuntu the user and group ids should both be www-data.)";
    expect(passagesOf(chunk(text, 'compress.txt')).map((p) => p.text)).toEqual([
      "You will need to create the cache directory if it doesn't already exist.",
      'The web server will not do this for you.',
      'For Debian/Ubuntu the user and group ids should both be www-data.',
    ]);
  });
});

describe("a configuration file's setting alone on its line (the eighth new-user trial: postgresql.conf.sample)", () => {
  it('is a passage about nothing but its own words: its name is no heading that ranks it', () => {
    const conf = chunk(
      '#compute_query_id = auto\n#work_mem = 4MB\t\t\t\t# min 64kB',
      'postgresql.conf.sample',
    );
    const [setting] = passagesOf(conf);
    expect(setting).toMatchObject({ text: 'compute_query_id = auto', setting: true });
    expect(setting!.lead).toBeUndefined();
    const option = secondFile(
      '-C\nThis flag is only allowed in combination with -B (bcrypt hashing). It sets the computing time used for the bcrypt algorithm (higher is more secure but slower, default: 5, valid: 4 to 17).',
      'htpasswd.html',
    );
    const scored = scorePassages({
      question: 'And what is the default computing time (cost) for it?',
      hits: [hit(conf), hit(option)],
      terms: [term('default', 1), term('computing', 2), term('time', 1), term('cost', 2)],
    });
    expect(scored[0]!.chunk.filename).toBe('htpasswd.html');
  });
});

describe('"What default value…?"', () => {
  it('is answered by what a thing has as its defaults ("they create default values of False and True")', () => {
    const question = 'What default value does it create?';
    expect(
      holdsAnswerType(question, 'In addition, they create default values of False and True respectively.'),
    ).toBe(true);
    expect(holdsAnswerType(question, 'They create values of False and True respectively.')).toBe(false);
  });
});
