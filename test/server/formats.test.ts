import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { chunkSections, chunkText } from '../../src/server/ingest/extraction/chunk.js';
import { extractDocument, type Extraction } from '../../src/server/ingest/extraction/formats.js';
import { htmlToText } from '../../src/server/ingest/extraction/html-text.js';
import { citation, citedFilename } from '../../src/util/citation.js';
import { makeDocx, makeDocxBomb, makePdf, REDIS_APPENDFSYNC_MODES } from '../helpers/documents.js';

const text = (extraction: Extraction) => {
  if (!extraction.ok) throw new Error(`${extraction.error.code}: ${extraction.error.message}`);
  return extraction.sections.map((s) => s.text).join('\n');
};

describe('HTML', () => {
  it('reads as a person does: entities decoded, the title kept, hidden content dropped, words not split at inline tags', () => {
    const html = `<!doctype html><html><head><title>Caf&eacute; &amp; Co</title><style>p { color: red }</style>
      <script>var secret = 1;</script></head><body><!-- an internal comment -->
      <template><p>template text</p></template><noscript>enable JS</noscript><svg><text>svg text</text></svg>
      <h1>Opening&nbsp;hours</h1><p>Un<b>believ</b>able prices &rsquo;til late&hellip; &#8364;5 &#x263A;</p>
      <ul><li>Monday</li><li>Tuesday</li></ul></body></html>`;
    expect(htmlToText(html)).toBe(
      'Café & Co\nOpening hours\nUnbelievable prices ’til late… €5 ☺\nMonday\nTuesday',
    );
  });

  it("leaves out a list inside a sentence's inline element: haproxy's keyword dropdowns (a new user's trial 18)", () => {
    // configuration.html, as haproxy-doc ships it: each keyword named in the text opens a menu of
    // the sections that describe it, which a reader sees only on a click.
    const html =
      '<p>a turn-around timer of min(&quot;<span class="dropdown"><a class="dropdown-toggle" data-toggle="dropdown" href="#">timeout connect<span class="caret"></span></a>' +
      '<ul class="dropdown-menu"><li class="dropdown-header">This keyword is available in sections :</li><li><a href="#timeout%20connect%20%28Rings%29">Rings</a></li>' +
      '<li><a href="#tc">Alphabetically sorted keywords reference</a></li></ul></span>&quot;, one second) is applied before a retry.</p>' +
      '<ul><li>A list of its own stays.</li></ul>';
    expect(htmlToText(html)).toBe(
      'a turn-around timer of min("timeout connect", one second) is applied before a retry.\nA list of its own stays.',
    );
  });

  it('leaves out what is hidden from readers (aria-hidden): texinfo\'s "#" and "TOC" links in each heading', () => {
    // ffmpeg's FAQ, as texinfo 7 writes it; its answers began "TOC: …" (a new user's trial).
    const html =
      '<h3 class="section">1.3 Why was the -sameq option removed?<span class="pull-right">' +
      '<a class="anchor" href="#sameq" aria-hidden="true">#</a> ' +
      '<a class="anchor" href="#toc-sameq" aria-hidden="TRUE"><b>TOC</b></a></span></h3>' +
      '<p>Because it meant <span aria-hidden="false">same quantizer</span>.</p>';
    expect(htmlToText(html)).toBe('1.3 Why was the -sameq option removed?\nBecause it meant same quantizer.');
  });

  it('reads a block hidden from readers all the same: a page saved while a dialog hid the rest of it', () => {
    const html =
      '<body><div id="app" aria-hidden="true"><h1>Refunds</h1><p>Refunds take five days.</p></div>' +
      '<div role="dialog"><p>Accept cookies?</p></div></body>';
    expect(htmlToText(html)).toBe('Refunds\nRefunds take five days.\nAccept cookies?');
  });

  it('reads a named anchor (<a name>, no href) as text, not as a link', () => {
    // Lua's reference manual names each function's heading so; read as a link, the heading was
    // left out as navigation and the chunks under it were headed "by Roberto Ierusalimschy…".
    const html =
      '<hr><h3><a name="pdf-collectgarbage"><code>collectgarbage ([opt [, arg]])</code></a></h3>' +
      '<p>This function is a generic interface to the <a href="#gc">garbage collector</a>.</p>' +
      '<p><a href="contents.html">contents</a> &middot; <a href="index.html">index</a></p>';
    expect(htmlToText(html)).toBe(
      'collectgarbage ([opt [, arg]])\nThis function is a generic interface to the garbage collector.',
    );
  });

  it("reads a heading whose text links to its own anchor (haproxy's keywords), while a contents list's links stay navigation", () => {
    // haproxy's configuration.html, as its Debian package ships it (the new-user trial: tune.bufsize).
    const html =
      '<ul><li><a href="#tune.bufsize">tune.bufsize</a></li><li><a href="#tune.maxrewrite">tune.maxrewrite</a></li></ul>' +
      '<pre class="text">advised to do so by an HAProxy core developer.\n</pre>' +
      '<a class="anchor" name="tune.bufsize"></a><a class="anchor" name="3.2-tune.bufsize"></a>' +
      '<div class="keyword"><b><a class="anchor" name="tune.bufsize"></a><a href="#3.2-tune.bufsize">tune.bufsize</a></b> ' +
      '<span style="color: #080">&lt;number&gt;</span></div>' +
      '<pre class="text">Sets the buffer size to this size (in bytes). The default value is 16384.\n</pre>' +
      '<p>See <a href="#tune.maxrewrite">tune.maxrewrite</a>.</p>';
    expect(htmlToText(html)).toBe(
      'advised to do so by an HAProxy core developer.\ntune.bufsize <number>\nSets the buffer size to this size (in bytes). The default value is 16384.',
    );
  });

  it("joins the lines of prose that <pre> keeps as filled to a width (haproxy's manual), not those of code", () => {
    const prose = [
      'If the system supports it, it can be useful on big sites to raise this limit',
      'very high so that HAProxy manages connection queues, instead of leaving the',
      'clients with unanswered connection attempts. This value should not exceed the',
      'global maxconn. Also, keep in mind that a connection contains two buffers',
      'of tune.bufsize (16kB by default) each, as well as some other data resulting',
      'in about 33 kB of RAM being consumed per established connection.',
    ];
    const code = [
      'global',
      '    maxconn 20000',
      '    log 127.0.0.1:514 local0 info  # send everything to the local syslog server here',
      '    tune.bufsize 32768',
    ];
    const html = `<pre class="text">${prose.join('\n')}\n</pre><pre>${code.join('\n')}</pre>`;
    expect(htmlToText(html).split('\n')).toEqual([
      prose.join(' '),
      ...code.map((l) => l.trim().replace(/\s+/g, ' ')),
    ]);
  });

  it("reads a table of labelled rows (Apache's directive boxes: `<th>Default:</th><td>…`) as `Label: value`", () => {
    const html =
      '<table class="directive"><tr><th><a href="directive-dict.html#Description">Description:</a></th><td>Set timeout values for receiving the request headers.\n</td></tr>' +
      '<tr><th><a href="directive-dict.html#Default">Default:</a></th><td><code>RequestReadTimeout header=20-40,MinRate=500</code></td></tr></table>';
    expect(htmlToText(html)).toBe(
      'Description: Set timeout values for receiving the request headers.\nDefault: RequestReadTimeout header=20-40,MinRate=500.',
    );
  });

  it('reads a <pre> of prose items too long to spread into one call, and many <pre> blocks, in one pass', () => {
    const item = '- This item of the list is a sentence long enough to be prose, as it ends.';
    const long = htmlToText(`<pre>${Array(200_000).fill(item).join('\n')}</pre>`).split('\n');
    expect(long).toHaveLength(200_000);
    const block = 'This sentence is prose filled to a width that a pre block keeps line by line.';
    const many = htmlToText(Array(20_000).fill(`<pre>${block}\n${block}\n${block}</pre>`).join('')).split(
      '\n',
    );
    expect(many).toHaveLength(20_000);
    expect(many[0]).toBe(`${block} ${block} ${block}`);
  }, 60_000);

  it("reads a heading whose text is a link (texi2html's headings link to the contents), while a contents list stays navigation", () => {
    // gettext's manual, as Debian ships it (a fourth new-user trial: its headings were left out).
    const html =
      '<p><a href="gettext_2.html#SEC8">2.1 Operating System Installation</a></p>' +
      '<h1 class="chapter"> <a href="gettext_toc.html#TOC7">2. The User\'s View</a> </h1>' +
      '<p>How does this work?</p>' +
      '<h2 class="section"> <a href="gettext_toc.html#TOC8">2.1 Operating System Installation</a> </h2>' +
      '<p>The default language is often already specified during operating system installation.</p>';
    expect(htmlToText(html)).toBe(
      "2. The User's View\nHow does this work?\n2.1 Operating System Installation\nThe default language is often already specified during operating system installation.",
    );
  });

  it("leaves out a table row most of whose cells are links (DocBook's Prev / Up / Home / Next), not one with a link in a cell", () => {
    // PostgreSQL's manual, as Debian ships it (a fourth new-user trial: its answers began "… Prev; Up; …").
    const html =
      '<div class="navheader"><table width="100%" summary="Navigation header"><tr><th colspan="5" align="center">8.6. Boolean Type</th></tr>' +
      '<tr><td><a accesskey="p" href="datatype-datetime.html">Prev</a> </td><td><a accesskey="u" href="datatype.html">Up</a></td>' +
      '<th width="60%" align="center">Chapter 8. Data Types</th><td><a accesskey="h" href="index.html">Home</a></td>' +
      '<td> <a accesskey="n" href="datatype-enum.html">Next</a></td></tr></table></div>' +
      '<table><tr><th>Function</th><th>Description</th></tr><tr><td><a href="#run">run()</a></td><td>Create event loop, run a coroutine, close the loop.</td></tr></table>';
    expect(htmlToText(html)).toBe(
      '8.6. Boolean Type\nFunction: run(); Description: Create event loop, run a coroutine, close the loop.',
    );
  });

  it("reads a row of one cell as its text, not a record ended as a sentence (docutils' option lists: openvpn.8.html, a new user's trial 19)", () => {
    const html =
      '<table class="docutils option-list"><tbody>' +
      '<tr><td class="option-group"><kbd><span class="option">--help</span></kbd></td><td>Show options.</td></tr>' +
      '<tr><td class="option-group" colspan="2"><kbd><span class="option">--keepalive <var>args</var></span></kbd></td></tr>' +
      '<tr><td>&nbsp;</td><td><p>A helper directive designed to simplify the expression of --ping and --ping-restart.</p></td></tr>' +
      '</tbody></table>';
    expect(htmlToText(html).split('\n')).toEqual([
      '--help; Show options.',
      '--keepalive args',
      'A helper directive designed to simplify the expression of --ping and --ping-restart.',
    ]);
  });

  it('reads each table row as `Header: value`', () => {
    const html =
      '<table><tr><th>Plan</th><th>Price</th></tr><tr><td>Growth</td><td>29 dollars</td></tr><tr><td>Scale</td><td><p>99</p><p>dollars</p></td></tr></table>';
    expect(htmlToText(html)).toBe('Plan: Growth; Price: 29 dollars.\nPlan: Scale; Price: 99 dollars.');
    // A header with no rows under it is still read.
    expect(htmlToText('<table><tr><th>Plan</th><th>Price</th></tr></table>')).toBe('Plan; Price');
    // A first row of data cells is a header when it names, as a Word table's does; not when it
    // holds figures (less(1) by man2html: its LESSCHARDEF table has no header row).
    expect(
      htmlToText(
        '<table><tr><td>Plan</td><td>Price</td></tr><tr><td>Growth</td><td>29 dollars</td></tr></table>',
      ),
    ).toBe('Plan: Growth; Price: 29 dollars.');
    expect(
      htmlToText(
        '<table><tr><td>ascii</td><td>8bcccbcc18b95.b</td></tr><tr><td>dos</td><td>8bcccbcc12bc5b95.b.</td></tr></table>',
      ),
    ).toBe('ascii; 8bcccbcc18b95.b.\ndos; 8bcccbcc12bc5b95.b.');
    // Not on a page that marks its tables' headers (Graphviz's attrs.html, a fifteenth new user's
    // trial: imagepos's values `tl` / Top Left became the header of the rows under them, and
    // "tl: br; Top Left: Bottom Right." answered how to make a graph flow left to right).
    expect(
      htmlToText(
        '<table><tr><th>Name</th><th>Default</th></tr><tr><td>imagepos</td><td>"mc"</td></tr></table>' +
          '<p>Valid values:</p><table><tr><td>tl</td><td>Top Left</td></tr><tr><td>br</td><td>Bottom Right</td></tr></table>',
      ).split('\n'),
    ).toEqual(['Name: imagepos; Default: "mc".', 'Valid values:', 'tl; Top Left.', 'br; Bottom Right.']);
  });

  it("reads a parameter table as rows alone, a label row as a record, a label beside links as one (rsyslog's module pages)", () => {
    // The fifth new user's trial: the header line came 396 times, and was quoted as an answer.
    const html =
      '<table><tbody><tr><td><p><strong>Module Name:</strong></p></td><td><p><strong>imfile</strong></p></td></tr>' +
      '<tr><td><p><strong>Author:</strong></p></td><td><p><a href="https://rainer.gerhards.net/">Rainer Gerhards</a> &lt;<a href="mailto:rg">rgerhards@adiscon.com</a>&gt;</p></td></tr></tbody></table>' +
      '<h2>PollingInterval</h2>' +
      '<table><thead><tr><th>type</th><th>default</th><th>mandatory</th><th>obsolete legacy directive</th></tr></thead>' +
      '<tbody><tr><td>integer</td><td>10</td><td>no</td><td>$InputFilePollInterval</td></tr></tbody></table>';
    expect(htmlToText(html).split('\n')).toEqual([
      'Module Name: imfile.',
      'Author: Rainer Gerhards <rgerhards@adiscon.com>.',
      'PollingInterval',
      'type: integer; default: 10; mandatory: no; obsolete legacy directive: $InputFilePollInterval.',
    ]);
  });
});

describe('definition lists in HTML (#33)', () => {
  it('reads the terms of one definition, each in its own <dt>, as one line: `-u, --include-untracked`', () => {
    const html =
      '<dl><dt>-a</dt><dt>--all</dt><dd><p>Stash ignored files too.</p></dd>' +
      '<dt>-u</dt>\n<dt>--include-untracked</dt><dt>--no-include-untracked</dt><dd><p>Stash untracked files too.</p></dd>' +
      '<dt>-q</dt><dd>Quiet.</dd></dl>';
    expect(htmlToText(html)).toBe(
      '-a, --all\nStash ignored files too.\n-u, --include-untracked, --no-include-untracked\nStash untracked files too.\n-q\nQuiet.',
    );
  });
});

describe("a Sphinx method's signature (bench:real: python-library-collections.html)", () => {
  it("heads its definition, not the class's text after the method's list", async () => {
    const html =
      '<h2>OrderedDict objects</h2><dl class="py class"><dt>class collections.OrderedDict([items])</dt><dd>' +
      '<p>Return an instance of a dict subclass that has methods specialized for rearranging dictionary order.</p>' +
      '<dl class="py method"><dt>move_to_end(key, last=True)</dt><dd>' +
      `<p>Move an existing key to either end of an ordered dictionary. ${'The item is moved to the right end if last is true. '.repeat(8)}</p>` +
      '</dd></dl>' +
      `<p>${'In addition to the usual mapping methods, ordered dictionaries also support reverse iteration. '.repeat(3)}</p>` +
      '<p>Changed in version 3.5: The items, keys, and values views of OrderedDict now support reverse iteration.</p>' +
      '</dd></dl>';
    const extraction = await extractDocument('collections.html', Buffer.from(html));
    if (!extraction.ok) throw new Error(extraction.error.message);
    const chunks = chunkSections(extraction.sections, 300, 0).map((c) => c.text);
    const notes = chunks.find((c) => c.includes('Changed in version 3.5'))!;
    expect(notes.split('\n')[0]).toBe('class collections.OrderedDict([items])');
    // The method's own definition, cut over chunks, is still under its signature.
    const moved = chunks.filter((c) => c.includes('The item is moved'));
    expect(moved.length).toBeGreaterThan(1);
    for (const c of moved) expect(c.split('\n')[0]).toMatch(/^move_to_end/);
  });
});

describe('HTML headings (the new-user trial: sqlite-doc)', () => {
  const fixture = (name: string) => readFileSync(new URL(`../fixtures/reading/${name}`, import.meta.url));
  const chunksOf = async (name: string, size: number) => {
    const extraction = await extractDocument(name, fixture(name));
    if (!extraction.ok) throw new Error(extraction.error.message);
    return chunkSections(extraction.sections, size).map((c) => c.text);
  };

  it("reads pragma.html's hidden <h> of each pragma as its heading, never run into the paragraph before or after", async () => {
    const text = htmlToText(fixture('sqlite-pragma.html').toString());
    expect(text).toContain(
      'possibly overwriting any previously set busy handler.\nPRAGMA cache_size\nPRAGMA schema.cache_size;',
    );
    const chunks = await chunksOf('sqlite-pragma.html', 400);
    const cacheSize = chunks.filter((c) => c.includes('cache size') || c.includes('page cache'));
    expect(cacheSize.length).toBeGreaterThan(2);
    for (const chunk of cacheSize) expect(chunk).toMatch(/^PRAGMA cache_size\n/);
  });

  it("takes faq.html's bold questions as headings, and a short paragraph before an example, or the example, never", async () => {
    const chunks = await chunksOf('sqlite-faq.html', 500);
    for (const chunk of chunks.slice(1)) expect(chunk).toMatch(/^\(\d\) [^\n]+\?\n/);
    const locks = chunks.filter((c) => /reader\/writer locks|NFS|concurrency/.test(c));
    expect(locks.length).toBeGreaterThan(2);
    for (const chunk of locks)
      expect(chunk).toMatch(
        /^\(5\) Can multiple applications or multiple instances of the same application access a single database file at the same time\?\n/,
      );
  });
});

describe("man pages' definition lists (the new-user trial: groff PDFs)", () => {
  it("takes no option's short definition for a heading (gpg-agent(1)'s --debug-all: 'Same as --debug=0xffffffff')", () => {
    const chunks = chunkText(
      [
        'OPTIONS',
        '--debug-all',
        'Same as --debug=0xffffffff',
        '--allow-preset-passphrase',
        'This option allows the use of gpg-preset-passphrase to seed the internal cache of gpg-agent with passphrases.',
        '--no-allow-external-cache',
        'Tell Pinentry not to enable features which use an external cache for passphrases. Some desktop environments prefer to unlock all credentials with one master password and may have installed a Pinentry which employs an additional external cache to implement such a policy.',
        '--ignore-cache-for-signing',
        'This option will let gpg-agent bypass the passphrase cache for all signing operation. Note that there is also a per-session option to control this behavior but this command line option takes precedence.',
      ].join('\n'),
      300,
      100,
    );
    expect(chunks.length).toBeGreaterThan(2);
    for (const chunk of chunks.slice(1)) expect(chunk).not.toMatch(/^Same as/);
    expect(chunks.slice(1).some((c) => c.startsWith('OPTIONS\n'))).toBe(true);
  });

  it('leads each chunk of a definition with its option, on the next page too; an option with arguments heads only its definition', () => {
    // curl.1 pp. 36-37 and ssh-keygen.1 p. 5, as kb reads their pages.
    const curl = chunkSections(
      [
        {
          text: '--location-trusted\n(HTTP) Like -L, --location, but will allow sending the name + password to all hosts that the site may redirect to.\nExample:\ncurl --location-trusted -u user:password https://example.com\nSee also -u, --user.\n-L, --location\n(HTTP) If the server reports that the requested page has moved to a different location (indicated with a Location: header and a 3XX response code), this option will make curl redo the request on',
          page: 36,
        },
        {
          text: 'the new place. If used together with -i, --include or -I, --head, headers from all requested pages will be shown. When authentication is used, curl only sends its credentials to the initial host.\nWhen curl follows a redirect and if the request is a POST, it will send the following request with a GET if the HTTP response was 301, 302, or 303. If the response code was any other 3xx code, curl will re-send the following request using the same unmodified method.\nProviding -L, --location multiple times has no extra effect. Disable it again with --no-location.\nExample:\ncurl -L https://example.com\nSee also --resolve and --alt-svc.\n--login-options <options>\n(IMAP LDAP POP3 SMTP) Specify the login options to use during server authentication.',
          page: 37,
        },
      ],
      300,
      100,
    );
    const onLocation = curl.filter((c) => c.pages![0] === 37 && /redirect|--no-location/.test(c.text));
    expect(onLocation.length).toBeGreaterThan(1);
    for (const chunk of onLocation) expect(chunk.text).toMatch(/^-L, --location\n/);
    expect(curl.at(-1)!.text).toMatch(/\n--login-options <options>\n\(IMAP LDAP POP3 SMTP\) Specify/);

    const keygen = chunkText(
      '-r hostname\nPrint the SSHFP fingerprint resource record named hostname for the specified public key file.\n-s ca_key\nCertify (sign) a public key using the specified CA key. See the CERTIFICATES section for details.\nWhen generating a KRL, -s specifies a path to a CA public key file used to revoke certificates directly by key ID or serial number. See the KEY REVOCATION LISTS section for details.\n-t dsa | ecdsa | ecdsa-sk | ed25519 | ed25519-sk | rsa\nSpecifies the type of key to create. The possible values are “dsa”, “ecdsa”, “ecdsa-sk”, “ed25519”, “ed25519-sk”, or “rsa”.\nThis flag may also be used to specify the desired signature type when signing certificates using an RSA CA key. The available RSA signature variants are “ssh-rsa” (SHA1 signatures, not recommended), “rsa-sha2-256”, and “rsa-sha2-512” (the default).',
      300,
      100,
    );
    const onType = keygen.filter((c) => c.includes('signature variants'));
    expect(onType).toHaveLength(1);
    expect(onType[0]).toMatch(/^-t dsa \| ecdsa \| ecdsa-sk \| ed25519 \| ed25519-sk \| rsa\n/);
  });
  it("ends an option's definition at an option written with its own on one line (hdparm(8)'s --repair-sector, then -S: a new user's trial 41)", () => {
    const chunks = chunkText(
      [
        'OPTIONS',
        '--repair-sector',
        'This is an alias for the --write-sector option. VERY DANGEROUS.',
        '-S Put the drive into idle (low-power) mode, and also set the standby (spindown) timeout for the drive. This timeout value is used by the drive to determine how long to wait (with no disk activity) before turning off the spindle motor to save power.',
        'Under such circumstances, the drive may take as long as 30 seconds to respond to a subsequent disk access, though most drives are much quicker. The encoding of the timeout value is somewhat peculiar. A value of zero means "timeouts are disabled": the device will not automatically enter standby mode.',
        'A value of 252 signifies a timeout of 21 minutes. A value of 253 sets a vendor-defined timeout period between 8 and 12 hours, and the value 254 is reserved.',
        'E.g., create a 10 kibibyte file: hdparm --fallocate 10 temp_file',
        'Values from 1 to 240 specify multiples of 5 seconds, yielding timeouts from 5 seconds to 20 minutes.',
      ].join('\n'),
      300,
      100,
    );
    const on252 = chunks.filter((c) => c.includes('A value of 252'));
    expect(on252.length).toBeGreaterThan(0);
    for (const chunk of on252) expect(chunk).not.toContain('--repair-sector');
    // Led by its option where the chunk starts inside its definition.
    for (const chunk of on252.filter((c) => !c.includes('-S Put the drive')))
      expect(chunk).toMatch(/^OPTIONS\n-S\n/);
    for (const chunk of chunks.filter((c) => c.includes('Values from 1 to 240')))
      expect(chunk).not.toMatch(/^E\.g\./);
  });

  it("does not carry an option to a page that starts with the next (mdadm.8's --homehost= and --prefer=, pp. 4-5)", () => {
    const mdadm = chunkSections(
      [
        {
          text: 'OPTIONS\n--homehost=\nThis will override any HOMEHOST setting in the config file and provides the identity of the host which should be considered the home for any arrays.\nThe special name "any" can be used as a wild card.',
          page: 4,
        },
        {
          text: '--prefer=\nWhen mdadm needs to print the name for a device it normally finds the name in /dev which refers to the device and is shortest.\nThis functionality is currently only provided by --detail and --monitor.',
          page: 5,
        },
      ],
      300,
      100,
    );
    expect(mdadm.map((c) => c.text.split('\n').slice(0, 2))).toEqual([
      ['OPTIONS', '--homehost='],
      ['OPTIONS', '--prefer='],
    ]);
  });
});

describe("an assignment in an example (cron's FEATURES: `FOOBAR = this is a long blanky example`)", () => {
  it("heads no chunk after it (a new user's README check: every later chunk began with it)", () => {
    const features = [
      'Environment variables can be set in the crontab:',
      'PATH=.:/bin:/usr/bin',
      'SHELL=/bin/sh',
      'FOOBAR = this is a long blanky example',
      'Above, FOOBAR would get "this is a long blanky example" as its value.',
      'SHELL and HOME will be used when it is time to run a command; if you do not set them, HOME defaults to your /etc/passwd entry and SHELL defaults to /bin/sh.',
      'MAILTO, if set, is the user who will receive mail from the commands run by cron.',
    ].join('\n');
    const chunks = chunkText(features, 200, 60);
    expect(chunks.length).toBeGreaterThan(2);
    for (const chunk of chunks.slice(1)) expect(chunk).not.toMatch(/^FOOBAR = /);
  });
});

describe("a configuration file's comments (a new user's trial 18: monitrc)", () => {
  it('starts a chunk inside a line of a comment with the comment marks of its line', () => {
    const monitrc = [
      '## Check that a process is running, in this case Apache, and that it respond',
      '## to HTTP and HTTPS requests. Check its resource usage such as cpu and memory,',
      '## and number of children. If the process is not running, Monit will restart',
      '## it by default. In case the service is restarted very often and the',
      '## problem remains, it is possible to disable monitoring using the TIMEOUT',
      '## statement. This service depends on another service (apache_bin) which',
      '## is defined above.',
      '#',
      '#  check process apache with pidfile /usr/local/apache/logs/httpd.pid',
    ].join('\n');
    const chunks = chunkText(monitrc, 300, 200);
    expect(chunks.length).toBeGreaterThan(1);
    for (const chunk of chunks) expect(chunk).toMatch(/^#/);
    expect(chunks).toContain(
      '## Check its resource usage such as cpu and memory,\n## and number of children. If the process is not running, Monit will restart\n## it by default. In case the service is restarted very often and the\n## problem remains, it is possible to disable monitoring using the TIMEOUT\n## statement.',
    );
  });
});

describe("a configuration file's settings, each a line of its own (trial 20: rsyncd.conf, gpg-agent.service)", () => {
  it("reads an INI file's ';' comments as comments: wrapped ones joined without their marks, a setting commented out and a list's items each on a line of its own", async () => {
    // pgbouncer.ini (the twenty-fourth new user's trial): its ';;' comments were read as prose, a
    // setting commented out joined to the comment above it, marks and all ("…does not reuse ;;
    // connections where transaction is left open. ;server_reset_query = DISCARD ALL").
    const ini = [
      ';; When server connection is released back to pool:',
      ';;   session      - after client disconnects (default)',
      ';;   transaction  - after transaction finishes',
      ';;   statement    - after statement finishes',
      ';pool_mode = session',
      '',
      ';; Query for cleaning connection immediately after releasing from',
      ';; client.  No need to put ROLLBACK here, pgbouncer does not reuse',
      ';; connections where transaction is left open.',
      ';server_reset_query = DISCARD ALL',
    ].join('\n');
    const read = text(await extractDocument('config/pgbouncer.ini', Buffer.from(ini)));
    const lines = chunkText(read, 2000, 0)[0]!.split('\n');
    expect(lines).toContain(
      ';; Query for cleaning connection immediately after releasing from client. No need to put ROLLBACK here, pgbouncer does not reuse connections where transaction is left open.',
    );
    expect(lines).toContain(';server_reset_query = DISCARD ALL');
    expect(lines).toContain(';pool_mode = session');
    expect(lines.filter((l) => / - after /.test(l))).toHaveLength(3);
  });

  it("keeps a comment's items written as a term and a colon each on a line of its own, after a sentence's end", async () => {
    // redis.conf (a twenty-fifth new user's trial): appendfsync's modes were joined into one line,
    // so "Slow, Safest." was read as the start of everysec's item, not the end of always'.
    const conf = [
      '# The fsync() call tells the Operating System to actually write data on disk',
      '# instead of waiting for more data in the output buffer. Some OS will really flush',
      '# data on disk, some other OS will just try to do it ASAP.',
      '#',
      ...REDIS_APPENDFSYNC_MODES,
      '# The default is "everysec", as that\'s usually the right compromise between',
      "# speed and data safety. It's up to you to understand if you can relax this to",
      '',
      'appendfsync everysec',
    ].join('\n');
    const read = text(await extractDocument('redis/redis.conf', Buffer.from(conf)));
    const lines = chunkText(read, 2000, 0)[0]!.split('\n');
    expect(lines).toContain('# always: fsync after every write to the append only log. Slow, Safest.');
    expect(lines).toContain('# everysec: fsync only one time every second. Compromise.');
    // Wrapped text still joins, a line that begins with a word and a colon among it too.
    expect(lines).toContain(
      '# The fsync() call tells the Operating System to actually write data on disk instead of waiting for more data in the output buffer. Some OS will really flush data on disk, some other OS will just try to do it ASAP.',
    );
  });

  it('joins no setting to the line before it or after it, commented out or not', async () => {
    const rsyncd = [
      '# sample rsyncd.conf configuration file',
      '',
      '# for pid file, do not use /var/run/rsync.pid if',
      '# you are going to run rsync out of the init.d script.',
      '# The init.d script does its own pid file handling,',
      '# so omit the "pid file" line completely in that case.',
      '# pid file=/var/run/rsyncd.pid',
      '#syslog facility=daemon',
      '',
      '[ftp]',
      '',
      '\tcomment = public archive',
      '\tpath = /var/www/pub',
      '\tuse chroot = yes',
      '#\tmax connections=10',
      '\tlock file = /var/lock/rsyncd',
      '# the default for read only is yes...',
      '\tread only = yes',
      '#\tauth users = ',
      '#\tsecrets file = /etc/rsyncd.secrets',
      '\tstrict modes = yes',
      '\ttimeout = 600',
      '\trefuse options = checksum dry-run',
      '\tdont compress = *.gz *.tgz *.zip *.z *.rpm *.deb *.iso *.bz2 *.tbz',
    ].join('\n');
    const read = text(await extractDocument('rsync/rsyncd.conf', Buffer.from(rsyncd)));
    const lines = chunkText(read, 2000, 0)[0]!.split('\n');
    expect(lines).toContain('refuse options = checksum dry-run');
    expect(lines).toContain('strict modes = yes');
    // A setting commented out stays a comment: not "#" apart from a live-looking setting.
    expect(lines.some((l) => /^#\s*max connections=10$/.test(l))).toBe(true);
    expect(lines).not.toContain('max connections=10');
    expect(lines).not.toContain('#');
    expect(lines.some((l) => /^#\s*pid file=\/var\/run\/rsyncd.pid$/.test(l))).toBe(true);
    expect(lines.some((l) => l.includes('handling, so omit'))).toBe(true);

    const unit = [
      '[Unit]',
      'Description=GnuPG cryptographic agent and passphrase cache',
      'Documentation=man:gpg-agent(1)',
      'Requires=gpg-agent.socket',
      '',
      '[Service]',
      'ExecStart=/usr/bin/gpg-agent --supervised',
      'ExecReload=/usr/bin/gpgconf --reload gpg-agent',
    ].join('\n');
    const service = text(await extractDocument('gnupg/gpg-agent.service', Buffer.from(unit)));
    expect(chunkText(service, 1000, 0)[0]!.split('\n')).toEqual([
      '[Unit]',
      'Description=GnuPG cryptographic agent and passphrase cache',
      'Documentation=man:gpg-agent(1)',
      'Requires=gpg-agent.socket',
      '[Service]',
      'ExecStart=/usr/bin/gpg-agent --supervised',
      'ExecReload=/usr/bin/gpgconf --reload gpg-agent',
    ]);
  });
});

describe('records (a table row, a CSV line, a JSON object)', () => {
  it("end as a sentence once, in every format; a value that is a mark keeps it (re's scanf table)", async () => {
    const html =
      '<table><tr><th>Token</th><th>Meaning</th></tr><tr><td>%c</td><td>Any character.</td></tr><tr><td>%s</td><td>.</td></tr></table>';
    expect(htmlToText(html)).toBe('Token: %c; Meaning: Any character.\nToken: %s; Meaning: ..');
    const csv = 'Token,Meaning\n%c,Any character.\n%s,.\n';
    expect(text(await extractDocument('tokens.csv', Buffer.from(csv)))).toBe(
      'Token: %c; Meaning: Any character.\nToken: %s; Meaning: ..',
    );
    const json = JSON.stringify([{ token: '%c', meaning: 'Any character.' }]);
    expect(text(await extractDocument('tokens.json', Buffer.from(json)))).toBe(
      'token: %c; meaning: Any character.',
    );
    const markdown = '| Token | Meaning |\n|---|---|\n| %c | Any character. |\n';
    expect(text(await extractDocument('tokens.md', Buffer.from(markdown)))).toContain(
      'Token: %c; Meaning: Any character.',
    );
    expect(text(await extractDocument('tokens.md', Buffer.from(markdown)))).not.toContain('..');
  });
});

describe('CSV', () => {
  it('parses quotes, embedded commas and newlines: each row a passage with its header', async () => {
    const csv =
      'priority,first response,notes\nUrgent,30 minutes,"call, then page"\nLow,2 days,"line one\nline two"\n';
    expect(text(await extractDocument('sla.csv', Buffer.from(csv)))).toBe(
      'priority: Urgent; first response: 30 minutes; notes: call, then page.\npriority: Low; first response: 2 days; notes: line one\nline two.',
    );
  });

  it("reads a table of one row as that row, not as a header over nothing (the ninth new user's addresses.csv FAILED, no_text)", async () => {
    const csv = 'Robbins,Arnold,"1234 A Pretty Street, NE",MyTown,MyState,12345-6789,USA\n';
    expect(text(await extractDocument('addresses.csv', Buffer.from(csv)))).toBe(
      'Robbins; Arnold; 1234 A Pretty Street, NE; MyTown; MyState; 12345-6789; USA.',
    );
  });

  it('reads a table after a preamble of # comments (tzdata zone1970.tab): the comments as text, their commented header as its columns', async () => {
    const tsv = [
      '# tzdb timezone descriptions',
      '#',
      '# This file contains a table where each row stands for a timezone where',
      '# civil timestamps have agreed since 1970.  Columns are separated by',
      "# a single tab.  Lines beginning with '#' are comments.",
      '#',
      '#country-',
      '#codes\tcoordinates\tTZ\tcomments',
      'AD\t+4230+00131\tEurope/Andorra',
      'NP\t+2743+08519\tAsia/Kathmandu',
      '# Mention RU and UA alphabetically.  See "territorial claims" above.',
      'RU\t+5545+03735\tEurope/Moscow\tMSK+00 - Moscow area',
      '',
    ].join('\n');
    expect(text(await extractDocument('tz-zone1970.tsv', Buffer.from(tsv)))).toBe(
      [
        'tzdb timezone descriptions',
        '',
        "This file contains a table where each row stands for a timezone where civil timestamps have agreed since 1970. Columns are separated by a single tab. Lines beginning with '#' are comments.",
        'country-codes: AD; coordinates: +4230+00131; TZ: Europe/Andorra.',
        'country-codes: NP; coordinates: +2743+08519; TZ: Asia/Kathmandu.',
        'country-codes: RU; coordinates: +5545+03735; TZ: Europe/Moscow; comments: MSK+00 - Moscow area.',
      ].join('\n'),
    );
    // Comments before a header row of its own; a # inside a value or naming a column is not a comment.
    const csv = '# exported 2024-05-01\n# by the help desk\n#,name,notes\n1,Ada,"room #4"\n';
    expect(text(await extractDocument('desk.csv', Buffer.from(csv)))).toBe(
      'exported 2024-05-01\nby the help desk\n#: 1; name: Ada; notes: room #4.',
    );
  });

  it('reads TSV by tabs', async () => {
    expect(text(await extractDocument('t.tsv', Buffer.from('a\tb\n1,5\t2\n')))).toBe('a: 1,5; b: 2.');
  });
});

describe('text', () => {
  it('decodes by byte-order mark, else UTF-8, else windows-1252 (not a failure)', async () => {
    const words = 'Café crème – “quoted”';
    const utf16be = Buffer.from(words, 'utf16le').swap16();
    const cases: Buffer[] = [
      Buffer.from(words),
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(words)]),
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(words, 'utf16le')]),
      Buffer.concat([Buffer.from([0xfe, 0xff]), utf16be]),
      Buffer.from([
        0x43, 0x61, 0x66, 0xe9, 0x20, 0x63, 0x72, 0xe8, 0x6d, 0x65, 0x20, 0x96, 0x20, 0x93, 0x71, 0x75, 0x6f,
        0x74, 0x65, 0x64, 0x94,
      ]),
    ];
    for (const bytes of cases) expect(text(await extractDocument('notes.txt', bytes))).toBe(words);
  });

  it('reads a UTF-8 text with a stray byte of windows-1252 as both, not all as windows-1252 (libmp3lame0/changelog.gz)', async () => {
    const mixed = Buffer.concat([
      Buffer.from('Signed-off-by: Rogério Brito. Thanks to '),
      Buffer.from([0x53, 0xe9, 0x62, 0x61, 0x73, 0x74, 0x69, 0x65, 0x6e]),
      Buffer.from(' and Reimar Döffinger.'),
    ]);
    expect(text(await extractDocument('changelog', mixed))).toBe(
      'Signed-off-by: Rogério Brito. Thanks to Sébastien and Reimar Döffinger.',
    );
    // Russian with one stray byte: read as windows-1252 its letters were controls, so data.
    const russian = Buffer.concat([
      Buffer.from('Система сохраняет настройки. '.repeat(40)),
      Buffer.from([0xe9]),
    ]);
    expect(text(await extractDocument('README.ru', russian))).toMatch(/^Система сохраняет настройки\..*é$/);
  });

  it('fails binary data, an empty file and an unsupported type, each with its code', async () => {
    const codes = async (name: string, bytes: Buffer) => {
      const result = await extractDocument(name, bytes);
      return result.ok ? 'ok' : result.error.code;
    };
    expect(await codes('a.txt', Buffer.from('a\u0000b'))).toBe('binary_content');
    expect(await codes('a.txt', Buffer.alloc(0))).toBe('empty_file');
    expect(await codes('a.png', Buffer.from('x'))).toBe('unsupported_type');
    expect(await codes('a.json', Buffer.from('{'))).toBe('parse_error');
    expect(await codes('a.html', Buffer.from('<script>only()</script>'))).toBe('no_text');
  });

  it("reads an info manual as text: texinfo's index markers (two NULs each) are no binary data (the eleventh new user's units.info FAILED)", async () => {
    const info = [
      '\u001f',
      'File: units.info,  Node: Invoking Units,  Next: Defining Your Own Units',
      '',
      "12 Invoking 'units'",
      '*******************',
      '',
      "'-s'",
      "'--strict'",
      '     Suppress conversion of units to their reciprocal units.',
      // A manual's worth of text around its markers (192 kB and two markers in units.info).
      ...Array.from(
        { length: 20 },
        () =>
          '     Units converts quantities expressed in various scales to their equivalents in other scales.',
      ),
      '\u0000\b[index\u0000\b]',
      '* Menu:',
      '',
      '* --strict:                              Invoking Units.      (line 6)',
    ].join('\n');
    const read = text(await extractDocument('units-manual.txt', Buffer.from(info)));
    expect(read).toContain('Suppress conversion of units to their reciprocal units.');
    expect(read).not.toMatch(/\u0000|\[index/);
    // A NUL in every few characters is still data.
    const data = Buffer.from('id\u0000name\u0000size\u0000'.repeat(100));
    const result = await extractDocument('dump.txt', data);
    expect(result.ok ? 'ok' : result.error.code).toBe('binary_content');
  });

  it("reads an object whose lists hold plain values as one record (the sixth new user's cmake data)", async () => {
    const json = JSON.stringify([
      { name: 'CETCompat', switch: 'CETCOMPAT', comment: 'CET Shadow Stack Compatible', flags: [] },
      { name: 'Profile', switch: 'PROFILE', aliases: ['prof', 'p'], flags: [{ deep: true }] },
    ]);
    expect(text(await extractDocument('v143_Link.json', Buffer.from(json))).split('\n')).toEqual([
      'name: CETCompat; switch: CETCOMPAT; comment: CET Shadow Stack Compatible.',
      // A list of objects is no record's value: each value goes on a line, a list of plain values on one.
      'name: Profile',
      'switch: PROFILE',
      'aliases: prof, p',
      'deep: true',
    ]);
    // A map of hundreds of keys (SPDX's licenses) is no record: a line each.
    const licenses = Object.fromEntries(
      Array.from({ length: 300 }, (_, i) => [`L-${i}`, [`License number ${i}`, i % 2 === 0, false]]),
    );
    const lines = text(
      await extractDocument('spdx-licenses.json', Buffer.from(JSON.stringify(licenses))),
    ).split('\n');
    expect(lines).toHaveLength(300);
    expect(lines[0]).toBe('L-0: License number 0, true, false');
  });

  it("names a record by the key it is under (the eighth new user's JSON Schema: uniqueItems lost its name)", async () => {
    const schema = JSON.stringify({
      $id: 'http://json-schema.org/draft-07/schema#',
      properties: {
        uniqueItems: { type: 'boolean', default: false },
        readOnly: { type: 'boolean', default: false },
      },
    });
    expect(text(await extractDocument('draft7.json', Buffer.from(schema))).split('\n')).toEqual([
      '$id: http://json-schema.org/draft-07/schema#',
      'uniqueItems: type: boolean; default: false.',
      'readOnly: type: boolean; default: false.',
    ]);
  });

  it('reads JSON of any depth without running out of stack', async () => {
    const deep = `${'['.repeat(20_000)}"bottom"${']'.repeat(20_000)}`;
    expect(text(await extractDocument('deep.json', Buffer.from(deep)))).toBe('bottom');
  });

  it("reads JSON with comments, each comment above the value it says what it is (Kea's examples: a new user's trial 40)", async () => {
    // kea-dhcp4-reservations.json as kea-doc ships it, shortened: it had failed as a parse error.
    const kea = [
      '// This is an example configuration file for the DHCPv4 server in Kea.',
      '// It contains one subnet in which there are two static address reservations',
      '// for the clients identified by the MAC addresses.',
      '{ "Dhcp4":',
      '',
      '{',
      '// Kea is told to listen on eth0 interface only.',
      '  "interfaces-config": {',
      '    "interfaces": [ "eth0" ]',
      '  },',
      '',
      '// Addresses will be assigned with a lifetime of 4000 seconds.',
      '  "valid-lifetime": 4000,',
      '',
      '// Renew and rebind timers are commented out.',
      '//  "renew-timer": 1000,',
      '  /* The subnets, each with the pools from which addresses are assigned to the',
      '   * clients that have no reservation. */',
      '  "subnet4": [ { "subnet": "192.0.2.0/24", "pools": [ { "pool": "192.0.2.1 - 192.0.2.200" } ], },',
      '  // The second subnet.',
      '  { "subnet": "198.51.100.0/24" } ],',
      '// The end.',
      '}',
      '}',
      '// After everything.',
    ].join('\n');
    expect(text(await extractDocument('kea-dhcp4-reservations.json', Buffer.from(kea))).split('\n')).toEqual([
      'This is an example configuration file for the DHCPv4 server in Kea. It contains one subnet in which there are two static address reservations for the clients identified by the MAC addresses.',
      'Kea is told to listen on eth0 interface only.',
      'interfaces: eth0',
      'Addresses will be assigned with a lifetime of 4000 seconds.',
      'valid-lifetime: 4000',
      'Renew and rebind timers are commented out.',
      '"renew-timer": 1000,',
      'The subnets, each with the pools from which addresses are assigned to the clients that have no reservation.',
      'subnet: 192.0.2.0/24',
      'pool: 192.0.2.1 - 192.0.2.200',
      'The second subnet.',
      'subnet: 198.51.100.0/24',
      'The end.',
      'After everything.',
    ]);
  });

  it('refuses JSON with comments that is not JSON otherwise, and one nested past any stack, as parse errors', async () => {
    const codes = async (name: string, bytes: Buffer) => {
      const result = await extractDocument(name, bytes);
      return result.ok ? 'ok' : result.error.code;
    };
    expect(await codes('a.json', Buffer.from('// a comment\n{ "a": }'))).toBe('parse_error');
    const deep = `// deep\n${'['.repeat(200_000)}${']'.repeat(200_000)}`;
    expect(await codes('deep.json', Buffer.from(deep))).toBe('parse_error');
  });

  it('reads a comment of 200,000 lines above one value, and one above a record', async () => {
    const long = Array.from({ length: 200_000 }, (_, i) => `// note ${i}.`).join('\n');
    const lines = text(
      await extractDocument(
        'long.json',
        Buffer.from(`{\n${long}\n"a": 1,\n"b": {\n${long}\n"x": 1, "y": 2 } }`),
      ),
    ).split('\n');
    expect(lines).toHaveLength(400_002);
    expect(lines.slice(199_999, 200_001)).toEqual(['note 199999.', 'a: 1']);
    expect(lines.at(-1)).toBe('b: x: 1; y: 2.');
  });
});

describe('text files of any other name (#33)', () => {
  const codeOf = async (name: string, bytes: Buffer) => {
    const result = await extractDocument(name, bytes);
    return result.ok ? 'ok' : result.error.code;
  };

  it('reads a file whose extension kb does not know, or that has none, as text when its bytes are text', async () => {
    const files: Record<string, string> = {
      README: 'Orbit\n=====\n\nOrbit keeps the badge readers in sync.',
      'README.Debian': 'On Debian the configuration lives in /etc/orbit/orbit.conf.',
      changelog: 'orbit (2.1-1) unstable; urgency=medium\n\n  * New upstream release.',
      Makefile: 'all:\n\tcc -o orbit orbit.c',
      'orbit.conf': '# how often to sync\nsync_interval = 30s',
      'guide.rst': 'Setting up\n----------\n\nRun ``orbit init`` first.',
      'config.yaml': 'max_connections: 100',
      'build.log': '\u001b[32mok\u001b[0m step 1 of 3 took 4 s',
    };
    for (const [name, content] of Object.entries(files))
      expect(text(await extractDocument(name, Buffer.from(content))), name).toContain(
        content.split('\n').at(-1)!.trim(),
      );
    // Latin-1 (windows-1252), as text-decode reads a .txt.
    expect(text(await extractDocument('AUTHORS', Buffer.from('Ren\xe9 Dupr\xe9', 'latin1')))).toBe(
      'René Dupré',
    );
  });

  it("reads a man page saved as text (nroff's bold and underline as overstrikes) as its letters (the new-user trial: postfix's ETRN_README.gz)", async () => {
    const bold = (s: string) => [...s].map((c) => `${c}\b${c}`).join('');
    const underline = (s: string) => [...s].map((c) => `_\b${c}`).join('');
    const page = `${bold('Postfix ETRN Howto')}\n\n${bold('Purpose')} of the ${underline('ETRN')} command: "Please deliver all my mail now".`;
    for (const name of ['ETRN_README', 'etrn.txt'])
      expect(text(await extractDocument(name, Buffer.from(page))), name).toBe(
        'Postfix ETRN Howto\n\nPurpose of the ETRN command: "Please deliver all my mail now".',
      );
    expect(text(await extractDocument('ETRN_README.gz', gzipSync(page)))).toContain('Postfix ETRN Howto');
  });

  it('reads a table laid out in columns by spaces as records named by its header row, prose justified with wide gaps as prose', async () => {
    const table = [
      'Status codes the gateway returns, one per line:',
      '',
      'Code    Name                    Retry',
      '200     OK                      never',
      '429     Too Many Requests       after Retry-After',
      '503     Service Unavailable     with backoff',
      '',
    ].join('\n');
    expect(text(await extractDocument('codes.txt', Buffer.from(table)))).toBe(
      [
        'Status codes the gateway returns, one per line:',
        '',
        'Code Name Retry',
        'Code: 200; Name: OK; Retry: never.',
        'Code: 429; Name: Too Many Requests; Retry: after Retry-After.',
        'Code: 503; Name: Service Unavailable; Retry: with backoff.',
      ].join('\n'),
    );
    // Settings commented out and aligned (smb.conf) are no table: each stays as written.
    const settings = [
      '# Some defaults for winbind (make sure you are not using the ranges for something else.)',
      ';   idmap config * :              backend = tdb',
      ';   idmap config * :              range   = 3000-7999',
      ';   idmap config YOURDOMAINHERE : backend = tdb',
      ';   idmap config YOURDOMAINHERE : range   = 100000-999999',
      ';   template shell = /bin/bash',
    ].join('\n');
    expect(text(await extractDocument('smb.conf', Buffer.from(settings)))).not.toMatch(
      /;;|: ;|idmap config \* :: /,
    );
    // nroff's justified lines: their wider gaps fall where the words do, not under each other.
    const justified = [
      '     The  postqueue(1)  command  implements  the Postfix user interface for queue',
      '     management.  It implements operations that are traditionally available via  the',
      '     sendmail(1)  command.  See the postsuper(1) command for privileged queue operations',
      '     such as deleting a message from the queue or changing the status of a message.',
    ].join('\n');
    expect(text(await extractDocument('postqueue.txt', Buffer.from(justified)))).toBe(
      'The postqueue(1) command implements the Postfix user interface for queue management. It implements operations that are traditionally available via the sendmail(1) command. See the postsuper(1) command for privileged queue operations such as deleting a message from the queue or changing the status of a message.',
    );
  });

  it('tells text from data by the first 64 KiB, not cut inside a character there', async () => {
    // Cyrillic UTF-8: its continuation bytes (с is D1 81, я is D1 8F) are control characters in
    // windows-1252; the 64 KiB end falls inside a character here.
    const russian = Buffer.from(`xx${'Система сохраняет настройки. '.repeat(3000)}`);
    expect(russian[64 * 1024]! & 0xc0).toBe(0x80);
    expect(await codeOf('README.ru', russian)).toBe('ok');
  });

  it('fails binary bytes as unsupported_type: a PNG or an ELF with no extension, a gzip, data without NULs', async () => {
    const png = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]),
      Buffer.from('IHDR'),
    ]);
    expect(await codeOf('logo', png)).toBe('unsupported_type');
    expect(await codeOf('orbitd', readFileSync('/bin/true'))).toBe('unsupported_type');
    expect(await codeOf('bundle.tgz', gzipSync(png))).toBe('unsupported_type');
    // No NUL, but a control character in every few bytes: data.
    const noisy = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i % 7 === 0 ? 0x02 : 0x41 + (i % 26))));
    expect(await codeOf('blob', noisy)).toBe('unsupported_type');
    const known = await extractDocument('firmware.bin', png);
    expect(!known.ok && known.error.message).toMatch(/not text/);
  });
});

describe('gzip (#33: Debian ships most of /usr/share/doc as .gz)', () => {
  it('reads a .gz as the file it unpacks to: text of any name, Markdown, a PDF with its pages', async () => {
    const changelog = 'orbit (2.1-1) unstable; urgency=medium\n\n  * The sync interval defaults to 45 s.';
    expect(text(await extractDocument('changelog.Debian.gz', gzipSync(changelog)))).toBe(
      'orbit (2.1-1) unstable; urgency=medium\n\n* The sync interval defaults to 45 s.',
    );
    expect(text(await extractDocument('README.md.gz', gzipSync('# Orbit\n\nUse `max_connections`.')))).toBe(
      'Orbit\nUse max_connections.',
    );
    const pdf = await extractDocument('manual.pdf.gz', gzipSync(makePdf([['One.'], ['Two.']])));
    expect(pdf).toEqual({
      ok: true,
      sections: [
        { text: 'One.', page: 1 },
        { text: 'Two.', page: 2 },
      ],
    });
  });

  it('fails damaged gzip data as parse_error and one unpacking past 256 MiB (a gzip bomb) as too_large', async () => {
    const damaged = await extractDocument('NEWS.gz', gzipSync('Version 2').subarray(0, 15));
    expect(damaged).toEqual({
      ok: false,
      error: { code: 'parse_error', message: expect.stringMatching(/^the gzip data is damaged/) },
    });
    const member = gzipSync(Buffer.alloc(1024 * 1024, 'a'));
    const bomb = Buffer.concat(Array.from({ length: 257 }, () => member));
    expect(bomb.length).toBeLessThan(1024 * 1024);
    expect(await extractDocument('huge.txt.gz', bomb)).toEqual({
      ok: false,
      error: {
        code: 'too_large',
        message: 'huge.txt.gz unpacks to more than 256 MiB, the most kb serve unpacks of one file',
      },
    });
  });
});

describe('PDF', () => {
  it('reads text per page, so that chunks know their pages', async () => {
    const pdf = makePdf([
      ['Orbit manual.'],
      ['Installation needs 4 GB of memory.'],
      ['Backups run nightly.'],
    ]);
    const extraction = await extractDocument('manual.pdf', pdf);
    expect(extraction).toEqual({
      ok: true,
      sections: [
        { text: 'Orbit manual.', page: 1 },
        { text: 'Installation needs 4 GB of memory.', page: 2 },
        { text: 'Backups run nightly.', page: 3 },
      ],
    });
  });

  // gpg-agent(1) as a PDF (a new user's trial 26): "…which is only run every few" / page 6:
  // "seconds." An answer from page 5 ended "…only run every few.", page 6 began "seconds.".
  it('keeps a sentence a page break cuts on the page it starts on, whole', async () => {
    const pdf = makePdf([
      [
        '--default-cache-ttl n',
        'Note that a cached passphrase may not be evicted immediately from memory if no client requests a',
        'cache operation. This is due to an internal housekeeping function which is only run every few',
      ],
      ['seconds. Each time a cache entry is accessed, the entry is reset.'],
      ['Options', 'lower case here starts no sentence of the page before.'],
    ]);
    const extraction = await extractDocument('gpg-agent.1.pdf', pdf);
    // The rest of the paragraph goes with it: page 2 is left with nothing.
    expect(extraction.ok && extraction.sections.map((s) => [s.page, s.text])).toEqual([
      [
        1,
        '--default-cache-ttl n\nNote that a cached passphrase may not be evicted immediately from memory if no client requests a cache operation. This is due to an internal housekeeping function which is only run every few seconds. Each time a cache entry is accessed, the entry is reset.',
      ],
      [3, 'Options\nlower case here starts no sentence of the page before.'],
    ]);
  });

  // xinetd.conf(5) as a PDF (a new user's trial 31): cps's entry ended on page 5 "…after it has been"
  // and page 6 began "disabled. The default for this setting is 50 incoming connections and the
  // interval is 10 seconds.": its default, on a page without its subject, answered nothing.
  it('keeps the rest of a paragraph a page break cuts mid-sentence with it, when the rest is short', async () => {
    const pdf = makePdf([
      [
        'cps Limits the rate of incoming connections. Takes two arguments. The first argument is the number',
        'of connections per second to handle. The second argument is the number of seconds to wait before',
        're-enabling the service after it has been',
      ],
      [
        'disabled. The default for this setting is 50 incoming connections and the interval is 10',
        'seconds.',
        'max_load Takes a floating point value as the load at which the service will stop accepting',
      ],
      [
        'connections, and then it goes on for far longer than the short rest of a paragraph would, and',
        'this sentence stays on the page before. The sentences after it stay on their own page, where a',
        'reader finds them: a paragraph this long is as good as a page of its own, and what it says is',
        'cited on the page it is on, not on the page before it, where only its very first words were. So',
        'a citation names the page that holds what an answer quotes, as it would for any other paragraph.',
      ],
    ]);
    const extraction = await extractDocument('xinetd.conf.5.pdf', pdf);
    expect(extraction.ok && extraction.sections.map((s) => s.text)).toEqual([
      'cps Limits the rate of incoming connections. Takes two arguments. The first argument is the number of connections per second to handle. The second argument is the number of seconds to wait before re-enabling the service after it has been disabled. The default for this setting is 50 incoming connections and the interval is 10 seconds.',
      'max_load Takes a floating point value as the load at which the service will stop accepting connections, and then it goes on for far longer than the short rest of a paragraph would, and this sentence stays on the page before.',
      'The sentences after it stay on their own page, where a reader finds them: a paragraph this long is as good as a page of its own, and what it says is cited on the page it is on, not on the page before it, where only its very first words were. So a citation names the page that holds what an answer quotes, as it would for any other paragraph.',
    ]);
  });

  // mke2fs(8) as a PDF (a new user's trial 28): page 5 ended "…The default percentage is", page 6
  // began "5%.": the tail of a sentence may be a figure, not a list's number.
  it('keeps a sentence whole whose tail on the next page is a figure, not a number that heads a line', async () => {
    const pdf = makePdf([
      [
        '-m reserved-blocks-percentage',
        'Specify the percentage of the file system blocks reserved for the super-user. This avoids',
        'fragmentation, and lets daemons go on working. The default percentage is',
      ],
      [
        '5%.',
        '-M last-mounted-directory',
        'Set the last mounted directory for the file system, as the tools keep it in the',
      ],
      ['2. Steps', 'Install the package.'],
    ]);
    const extraction = await extractDocument('mke2fs.8.pdf', pdf);
    expect(extraction.ok && extraction.sections.map((s) => s.text)).toEqual([
      '-m reserved-blocks-percentage\nSpecify the percentage of the file system blocks reserved for the super-user. This avoids fragmentation, and lets daemons go on working. The default percentage is 5%.',
      '-M last-mounted-directory\nSet the last mounted directory for the file system, as the tools keep it in the',
      '2. Steps\nInstall the package.',
    ]);
  });

  it('fails a scanned PDF as no_text_layer, an encrypted one as encrypted, a damaged one as parse_error', async () => {
    const result = async (bytes: Buffer) => {
      const r = await extractDocument('x.pdf', bytes);
      return r.ok ? r : r.error;
    };
    expect(await result(makePdf([['a'], ['b'], ['c']], { scanned: true }))).toEqual({
      code: 'no_text_layer',
      message: '3 pages, no extractable text: scanned images? OCR is off (--no-ocr)',
    });
    expect(await result(makePdf([['secret']], { encrypted: true }))).toMatchObject({ code: 'encrypted' });
    expect(await result(Buffer.from('%PDF-1.4\nnot really a pdf'))).toMatchObject({ code: 'parse_error' });
  });
});

describe('Word', () => {
  it('keeps headings and reads table rows as `Header: value`', async () => {
    const docx = await makeDocx([
      { heading: 'Benefits' },
      { paragraph: 'Parental leave is sixteen weeks.' },
      {
        table: [
          ['Plan', 'Price'],
          ['Dental', '12 dollars'],
        ],
      },
    ]);
    expect(text(await extractDocument('hr/benefits.docx', docx))).toBe(
      'Benefits\nParental leave is sixteen weeks.\nPlan: Dental; Price: 12 dollars.',
    );
  });

  // jszip (under mammoth) unpacked whatever a part held, outside the worker's heap limit: a
  // 1.2 MB bomb took kb serve 2.5 GB above its start.
  it('fails a zip bomb as too_large, by the size its parts claim and by what they unpack to (#35)', async () => {
    const size = 300 * 1024 * 1024;
    const said = await extractDocument('bomb.docx', await makeDocxBomb(size));
    expect(said).toEqual({
      ok: false,
      error: {
        code: 'too_large',
        message:
          'the Word document cannot be read: its part word/document.xml unpacks to 300 MiB, more than the 256 MiB kb serve reads of one Word document (a zip bomb?)',
      },
    });
    const lying = await extractDocument('bomb.docx', await makeDocxBomb(size, 1000));
    expect(lying).toEqual({
      ok: false,
      error: {
        code: 'too_large',
        message:
          'the Word document cannot be read: its part word/document.xml unpacks to more than the 256 MiB kb serve reads of one Word document, though it claims 1000 bytes (a zip bomb)',
      },
    });
  }, 60_000);

  it('fails a damaged one as parse_error', async () => {
    const result = await extractDocument('x.docx', Buffer.from('PK\u0003\u0004 not a zip'));
    expect(result).toMatchObject({ ok: false, error: { code: 'parse_error' } });
  });
});

describe('chunks and citations', () => {
  it('starts a chunk at each page, and each chunk names its page', () => {
    const chunks = chunkSections([
      { text: 'First page text.', page: 1 },
      { text: `${'Long sentence on page two. '.repeat(40)}`, page: 2 },
    ]);
    expect(chunks[0]).toEqual({ text: 'First page text.', pages: [1, 1] });
    expect(chunks.length).toBeGreaterThan(2);
    for (const chunk of chunks.slice(1)) expect(chunk.pages).toEqual([2, 2]);
    expect(chunkSections([{ text: 'No pages.' }])).toEqual([{ text: 'No pages.' }]);
  });

  it('cites pages as p. N, pp. N–M and runs, and reads the file back out of a citation', () => {
    expect(citation('a.md')).toBe('a.md');
    expect(citation('m.pdf', [3])).toBe('m.pdf p. 3');
    expect(citation('m.pdf', [4, 3, 3])).toBe('m.pdf pp. 3–4');
    expect(citation('m.pdf', [2, 5, 6, 9])).toBe('m.pdf pp. 2, 5–6, 9');
    for (const cited of ['m.pdf p. 3', 'm.pdf pp. 3–4', 'm.pdf pp. 2, 5–6, 9', 'm.pdf'])
      expect(citedFilename(cited)).toBe('m.pdf');
    expect(citedFilename('notes p. 3 draft.md')).toBe('notes p. 3 draft.md');
  });
});

describe('identifiers and entities (#33)', () => {
  it('keeps an underscore inside a word as text in Markdown: identifiers are quoted exactly', async () => {
    const md =
      '# Settings\n\nSet `max_connections` to 100. If sort_keys is true, keys are sorted.\nASN1_SUCCESS means the call worked; `__init__` runs first.\n\nThis is *emphasis* and __strong__ and _this_ too.\n';
    const got = text(await extractDocument('settings.md', Buffer.from(md)));
    expect(got).toContain('Set max_connections to 100.');
    expect(got).toContain('If sort_keys is true, keys are sorted.');
    expect(got).toContain('ASN1_SUCCESS means the call worked; __init__ runs first.');
    expect(got).toContain('This is emphasis and strong and this too.');
    expect(got).not.toMatch(/[*`#]/);
  });

  it('reads Markdown links, lists and tables as a reader does', async () => {
    const md =
      'See [the guide](https://x.test/guide) and ![a chart](c.png).\n\n- first item\n- second item\n\n| Plan | Price |\n|---|---|\n| Growth | 29 dollars |\n';
    const got = text(await extractDocument('r.md', Buffer.from(md)));
    expect(got).toContain('See the guide and a chart.');
    expect(got).toContain('first item\nsecond item');
    expect(got).toContain('Plan: Growth; Price: 29 dollars.');
  });

  it('decodes entities in the text of every format', async () => {
    const want = "Don't use => or <br> & stop";
    const raw = 'Don&#39;t use =&gt; or &lt;br&gt; &amp; stop';
    const docs: [string, string][] = [
      ['a.json', JSON.stringify({ note: raw })],
      ['a.csv', `note\n"${raw}"\n`],
      ['a.md', `${raw}\n`],
      ['a.html', `<p>${raw}</p>`],
      ['a.txt', raw],
    ];
    for (const [name, body] of docs)
      expect(text(await extractDocument(name, Buffer.from(body))), name).toContain(want);
  });
});

describe('navigation in HTML (#33 cause 6)', () => {
  it('leaves out lines that are mostly links and symbol-only permalinks, and keeps preformatted lines', () => {
    const html = `<html><head><title>json — JSON encoder</title></head><body>
      <div class="related"><ul><li><a href="i">index</a></li><li><a href="m">modules</a> |</li><li><a href="n">next</a> |</li></ul></div>
      <div class="toc"><ul><li><a href="#a">Basic Usage</a></li><li><a href="#b">dumps()</a></li></ul></div>
      <h1>json — JSON encoder<a class="headerlink" href="#json">¶</a></h1>
      <p>See <a href="p">pickle</a> for the binary format used by the standard library.</p>
      <pre>&gt;&gt;&gt; import json
&gt;&gt;&gt; json.dumps([1, 2])
'[1, 2]'</pre></body></html>`;
    expect(htmlToText(html)).toBe(
      "json — JSON encoder\nSee pickle for the binary format used by the standard library.\n>>> import json\n>>> json.dumps([1, 2])\n'[1, 2]'",
    );
  });

  it("keeps a line whose link shows its own address: mosquitto's README.docx (a new user's trial 28)", () => {
    // Mammoth's HTML of the Word document: each item a label and the address it names, written for
    // the reader ("Find existing bugs or submit a new bug:"); the items had been left out as a menu.
    const html =
      '<p>Mosquitto project information is available at the following locations:</p><ul>' +
      '<li>Main homepage: <a href="https://mosquitto.org/">https://mosquitto.org/</a></li>' +
      '<li>Find existing bugs or submit a new bug: <a href="https://github.com/eclipse/mosquitto/issues">https://github.com/eclipse/mosquitto/issues</a></li>' +
      '<li><a href="http://mqtt.org/">mqtt.org</a></li></ul>' +
      '<ul><li><a href="install.html">Installing</a></li><li><a href="https://mosquitto.org/">Home page</a></li></ul>';
    expect(htmlToText(html).split('\n')).toEqual([
      'Mosquitto project information is available at the following locations:',
      'Main homepage: https://mosquitto.org/',
      'Find existing bugs or submit a new bug: https://github.com/eclipse/mosquitto/issues',
      'mqtt.org',
    ]);
  });
});

describe("a page's navigation in HTML, whole (the fifth new-user trial: every Sphinx page)", () => {
  it('leaves out its headings and its search box with its links', () => {
    const html = `<html><body>
      <div class="related" role="navigation" aria-label="related navigation"><h3>Navigation</h3>
        <ul><li><a href="genindex.html">index</a></li><li><a href="next.html">next</a> |</li></ul></div>
      <div class="body" role="main"><h1>imfile: Text File Input Module</h1><p>This module reads text files.</p></div>
      <div class="sphinxsidebar" role="navigation" aria-label="main navigation">
        <h3><a href="index.html">Table of Contents</a></h3><ul><li><a href="#purpose">Purpose</a></li></ul>
        <div><h4>Previous topic</h4><p class="topless"><a href="imdocker.html">imdocker: Docker Input Module</a></p></div>
        <h3>This Page</h3><ul><li><a href="src.txt">Show Source</a></li></ul>
        <div id="searchbox" role="search"><h3 id="searchlabel">Quick search</h3><form><input type="submit" value="Go"/></form></div>
      </div>
      <div class="footer" role="contentinfo">Last updated on Nov 11, 2026.</div></body></html>`;
    expect(htmlToText(html)).toBe('imfile: Text File Input Module\nThis module reads text files.');
  });

  it("leaves out its footer too (the seventh new-user trial: 'Built with Sphinx using a theme provided by Read the Docs.' answered)", () => {
    const html = `<html><body><div role="main"><h1>csvcut</h1><p>Filters and truncates CSV files.</p></div>
      <footer><hr/><div role="contentinfo"><p>&copy; Copyright 2022, Christopher Groskopf.</p></div>
      Built with <a href="https://www.sphinx-doc.org/">Sphinx</a> using a theme provided by Read the Docs.</footer></body></html>`;
    expect(htmlToText(html)).toBe('csvcut\nFilters and truncates CSV files.');
  });
});

describe('paragraphs whole (#33)', () => {
  it('joins the lines of a text filled to a width, keeping headings, items and examples apart', async () => {
    const info = [
      '2.1 Command-line Options',
      '========================',
      '',
      '   The ‘-i’ option causes ‘grep’ to ignore case, causing it to match the',
      'line ‘Hello, world!’, which it would not otherwise match.  This option is',
      'also useful in combination with other options described below.',
      '',
      '‘-i’',
      '‘--ignore-case’',
      '     Ignore case distinctions in patterns and input data, so that',
      '     characters that differ only in case match each other.',
      '          grep -i hello notes.txt',
      '',
      '   * an item that is short',
      '   * another item',
    ].join('\n');
    expect(text(await extractDocument('grep.txt', Buffer.from(info)))).toBe(
      [
        '2.1 Command-line Options',
        '',
        'The ‘-i’ option causes ‘grep’ to ignore case, causing it to match the line ‘Hello, world!’, which it would not otherwise match. This option is also useful in combination with other options described below.',
        '',
        '‘-i’',
        '‘--ignore-case’',
        'Ignore case distinctions in patterns and input data, so that characters that differ only in case match each other.',
        'grep -i hello notes.txt',
        '',
        '* an item that is short',
        '* another item',
      ].join('\n'),
    );
  });

  it("joins a configuration file's comments as text and never a setting onto one (logrotate.conf, redis.conf)", async () => {
    const conf = [
      '# see "man logrotate" for details',
      '',
      '# rotate log files weekly',
      'weekly',
      '',
      '# create new (empty) log files after rotating old ones',
      'create',
      '',
      '# uncomment this if you want your log files compressed',
      '#compress',
      '',
      '# MAXMEMORY POLICY: how Redis will select what to remove when maxmemory',
      '# is reached. You can select one from the following behaviors:',
      '#',
      '# The default is:',
      '#',
      '# maxmemory-policy noeviction',
    ].join('\n');
    // The same lines, but the wrapped comment joined: no setting joins a comment.
    const lines = conf.split('\n');
    const wrapped = lines.findIndex((l) => l.startsWith('# MAXMEMORY'));
    lines.splice(wrapped, 2, `${lines[wrapped]} ${lines[wrapped + 1]!.slice(2)}`);
    expect(text(await extractDocument('logrotate.conf', Buffer.from(conf))).split('\n')).toEqual(lines);
  });

  it("joins a FAQ's wrapped Q: and A: lines, indented to their text (dnsmasq's FAQ)", async () => {
    const faq = [
      'Q: Does the dnsmasq DHCP server probe addresses before allocating',
      '   them, as recommended in RFC2131?',
      '',
      'A: Yes, dynamically allocated IP addresses are checked by sending an',
      '   ICMP echo request (ping). If a reply is received, then dnsmasq',
      '   assumes that the address is in use, and attempts to allocate an',
      '   different address.',
    ].join('\n');
    expect(text(await extractDocument('FAQ', Buffer.from(faq))).split('\n')).toEqual([
      'Q: Does the dnsmasq DHCP server probe addresses before allocating them, as recommended in RFC2131?',
      '',
      'A: Yes, dynamically allocated IP addresses are checked by sending an ICMP echo request (ping). If a reply is received, then dnsmasq assumes that the address is in use, and attempts to allocate an different address.',
    ]);
  });

  it("leaves out a quote's scissors lines (Dovecot's wiki pages: `---%<---…`), as it does underlines", async () => {
    // Errors.ChgrpNoPerm.txt: the answer to its error began and ended with them (a new user's trial 18).
    const page = [
      'Operation Not Permitted',
      '=======================',
      '',
      '---%<-------------------------------------------------------------------------',
      'imap(user): Error: chown(/home/user/mail/.imap/INBOX, group=12(mail)) failed:',
      'Operation not permitted (egid=1000(user), group based on /var/mail/user)',
      '---%<-------------------------------------------------------------------------',
      '',
      "This means that Dovecot tried to copy the file's group to the index file directory.",
      '--8<--',
    ].join('\n');
    const read = text(await extractDocument('Errors.ChgrpNoPerm.txt', Buffer.from(page)));
    expect(read).not.toMatch(/%<|8</);
    expect(read).toContain('This means that Dovecot tried to copy');
  });

  it("reads a table drawn with pipes a row at a time, its wrapped cells joined (memcached's protocol.txt)", async () => {
    const protocol = [
      'In the type column below, "32u" means a 32-bit unsigned integer, "64u" means a 64-bit',
      'unsigned integer.',
      '',
      '|-----------------------+---------+-------------------------------------------|',
      '| Name                  | Type    | Meaning                                   |',
      '|-----------------------+---------+-------------------------------------------|',
      '| auth_errors           | 64u     | Number of failed authentications.         |',
      '| idle_kicks            | 64u     | Number of connections closed due to       |',
      '|                       |         | reaching their idle timeout.              |',
      '| evictions             | 64u     | Number of valid items removed from cache  |',
      '|                       |         | to free memory for new items              |',
      '|-----------------------+---------+-------------------------------------------|',
      '',
      'Settings statistics follow.',
    ].join('\n');
    expect(text(await extractDocument('protocol.txt', Buffer.from(protocol))).split('\n')).toEqual([
      'In the type column below, "32u" means a 32-bit unsigned integer, "64u" means a 64-bit unsigned integer.',
      '',
      'Name: auth_errors; Type: 64u; Meaning: Number of failed authentications.',
      'Name: idle_kicks; Type: 64u; Meaning: Number of connections closed due to reaching their idle timeout.',
      'Name: evictions; Type: 64u; Meaning: Number of valid items removed from cache to free memory for new items.',
      '',
      'Settings statistics follow.',
    ]);
  });

  it("reads a table drawn with box-drawing characters, its header over several lines, as records (mkfs.btrfs(8) as man renders it, a new user's trial 40)", async () => {
    // As `man -l mkfs.btrfs.8.gz | col -b` writes it: tabs among the cells' spaces, a header cell
    // wrapped and hyphenated ("Space  uti‐" / "lization"). Its cells were read as a program's
    // options (`│RAID0` apart from its values) and its header was lost.
    const lines = [
      '       There are the following block group types available:',
      '',
      '    ┌─────────┬─────────────┬────────────┬────────────┬─────────────┬─────────────┐',
      '    │Profiles │ Redundancy  │ Redundancy │ Redundancy │ Space  uti‐ │ Min/max de‐ │',
      '    │\t      │\t\t    │\t\t │\t      │ lization    │ vices\t  │',
      '    │\t      │ Copies\t    │ Parity\t │ Striping   │\t\t    │\t\t  │',
      '    ├─────────┼─────────────┼────────────┼────────────┼─────────────┼─────────────┤',
      '    │DUP      │ 2 /  1\tde‐ │\t\t │\t      │ 50%\t    │ 1/any  (see │',
      '    │\t      │ vice\t    │\t\t │\t      │\t\t    │ note 1)\t  │',
      '    ├─────────┼─────────────┼────────────┼────────────┼─────────────┼─────────────┤',
      '    │RAID0    │ 1\t    │\t\t │ 1 to N     │ 100%\t    │ 1/any  (see │',
      '    │\t      │\t\t    │\t\t │\t      │\t\t    │ note 5)\t  │',
      '    ├─────────┼─────────────┼────────────┼────────────┼─────────────┼─────────────┤',
      '    │RAID1C3  │ 3\t    │\t\t │\t      │ 33%\t    │ 3/any\t  │',
      '    └─────────┴─────────────┴────────────┴────────────┴─────────────┴─────────────┘',
      '',
      '       WARNING:',
      "          It's not recommended to create filesystems with RAID0/1/10/5/6  profiles  on  partitions  from the same device.",
    ];
    expect(
      text(await extractDocument('mkfs.btrfs.8.txt', Buffer.from(lines.join('\n'))))
        .split('\n')
        .slice(0, 6),
    ).toEqual([
      'There are the following block group types available:',
      '',
      'Profiles: DUP; Redundancy Copies: 2 / 1 device; Space utilization: 50%; Min/max devices: 1/any (see note 1).',
      'Profiles: RAID0; Redundancy Copies: 1; Redundancy Striping: 1 to N; Space utilization: 100%; Min/max devices: 1/any (see note 5).',
      'Profiles: RAID1C3; Redundancy Copies: 3; Space utilization: 33%; Min/max devices: 3/any.',
      '',
    ]);
  });

  it("reads a table drawn with pipes between its cells only, its header ruled off, as records, in a PDF too (doveadm-pw(1), a new user's trial 18)", async () => {
    const lines = [
      'The following table shows the minimum/maximum number of encryption rounds per scheme.',
      'Scheme | Minimum | Maximum | Default',
      '----------------------------------------------',
      'BLF-CRYPT | 4| 31 | 5',
      'SHA256-CRYPT | 1000 | 999999999 | 5000',
      'SHA512-CRYPT | 1000 | 999999999 | 5000',
      '-s scheme',
    ];
    const records = [
      'The following table shows the minimum/maximum number of encryption rounds per scheme.',
      'Scheme: BLF-CRYPT; Minimum: 4; Maximum: 31; Default: 5.',
      'Scheme: SHA256-CRYPT; Minimum: 1000; Maximum: 999999999; Default: 5000.',
      'Scheme: SHA512-CRYPT; Minimum: 1000; Maximum: 999999999; Default: 5000.',
      '-s scheme',
    ];
    expect(
      text(await extractDocument('doveadm-pw.1.txt', Buffer.from(lines.join('\n')))).split('\n'),
    ).toEqual(records);
    // On a page, under a paragraph (its lines wrapped at the margin) whose last line is short.
    const page = [
      'The password schemes BLF-CRYPT, SHA256-CRYPT and SHA512-CRYPT support a',
      'variable number of rounds, as the following table shows.',
      ...lines.slice(1),
    ];
    expect(text(await extractDocument('doveadm-pw.1.pdf', makePdf([page]))).split('\n')).toEqual([
      'The password schemes BLF-CRYPT, SHA256-CRYPT and SHA512-CRYPT support a variable number of rounds, as the following table shows.',
      ...records.slice(1),
    ]);
    // A command's pipes are no table's, with a rule under it or not.
    const commands = ['ps aux | grep sshd | head', '----', 'The output lists the daemons.'];
    expect(text(await extractDocument('notes.txt', Buffer.from(commands.join('\n')))).split('\n')).toEqual([
      'ps aux | grep sshd | head',
      'The output lists the daemons.',
    ]);
  });

  it("reads a grid table's rows between its rules, a cell's lines joined", async () => {
    const grid = [
      '+------------+--------------------+',
      '| Option     | Effect             |',
      '+============+====================+',
      '| --quiet    | Prints nothing but |',
      '|            | errors.            |',
      '+------------+--------------------+',
      '| --verbose  | Prints each file   |',
      '| -v         | as it is copied.   |',
      '+------------+--------------------+',
    ].join('\n');
    expect(text(await extractDocument('options.txt', Buffer.from(grid))).split('\n')).toEqual([
      'Option: --quiet; Effect: Prints nothing but errors.',
      'Option: --verbose -v; Effect: Prints each file as it is copied.',
    ]);
  });

  it("reads reStructuredText's literal-block marks as the colon they stand for (lighttpd's ssl.txt)", async () => {
    const rst = [
      'If you have a .crt and a .key file, cat them together into a',
      'single PEM file: ::',
      '',
      '  $ cat host.key host.crt > host.pem',
      '',
      'You have to enable the SSL engine.::',
      '',
      '  ssl.engine = "enable"',
      '',
      'In C++, a name is qualified as std::',
      'followed by the member.',
    ].join('\n');
    expect(text(await extractDocument('ssl.txt', Buffer.from(rst))).split('\n')).toEqual([
      'If you have a .crt and a .key file, cat them together into a single PEM file:',
      '',
      '$ cat host.key host.crt > host.pem',
      '',
      'You have to enable the SSL engine.',
      '',
      'ssl.engine = "enable"',
      '',
      // No literal block follows: the marks are the text's own.
      'In C++, a name is qualified as std::',
      'followed by the member.',
    ]);
  });

  it("joins a line the next one's first word would not have fit on", async () => {
    const changelog = [
      'Changes with nginx 0.3.8                                         09 Nov 2005',
      '',
      '    *) Feature: the "auth_http_header" directive of the',
      '       ngx_imap_auth_http_module.',
      '',
      '    *) Bugfix: the "Content-Type" header line was not set for the',
      '       responses of the ngx_http_autoindex_module module.',
    ].join('\n');
    expect(text(await extractDocument('changelog.txt', Buffer.from(changelog)))).toContain(
      '*) Feature: the "auth_http_header" directive of the ngx_imap_auth_http_module.',
    );
  });

  it('reads a Markdown paragraph written over several lines as one', async () => {
    const md = 'The loader reads the file at path and returns\na dictionary of its settings.\n';
    expect(text(await extractDocument('a.md', Buffer.from(md)))).toBe(
      'The loader reads the file at path and returns a dictionary of its settings.',
    );
  });

  it('joins the lines of a PDF paragraph wrapped by its layout, not an option name and its description', async () => {
    const { pdfPageText } = await import('../../src/server/ingest/extraction/pdf-text.js');
    const item = (str: string, x: number, y: number, width: number) => ({
      str,
      transform: [10, 0, 0, 10, x, y],
      width,
      hasEOL: true,
    });
    const page = [
      item('DESCRIPTION', 72, 700, 76),
      item(
        'List information about the FILEs (the current directory by default). Sort entries alphabetically if none of',
        108,
        688,
        432,
      ),
      item('-cftuvSUX nor --sort is specified.', 108, 676, 143),
      item('-a, --all', 108, 642, 36),
      item('do not ignore entries starting with .', 144, 630, 140),
      item(
        'The output uses the color of the dot to summarize the unit state at a glance, and so on to the',
        108,
        600,
        432,
      ),
      item('• Red indicates a failed or error state.', 108, 588, 200),
    ];
    expect(pdfPageText(page)).toBe(
      'DESCRIPTION\nList information about the FILEs (the current directory by default). Sort entries alphabetically if none of -cftuvSUX nor --sort is specified.\n-a, --all\ndo not ignore entries starting with .\nThe output uses the color of the dot to summarize the unit state at a glance, and so on to the\n• Red indicates a failed or error state.',
    );
  });
  // A new user's trial 33 (k07): groff -Tpdf sets a man page's ``quotes'' as two single quotes
  // each side, and answers showed "fatal errors like ‘‘connection refused’’".
  it("reads groff's doubled single quotes as the double quotes they stand for", async () => {
    const { pdfPageText } = await import('../../src/server/ingest/extraction/pdf-text.js');
    const page = [
      {
        str: 'The default is to retry 20 times, with the exception of fatal errors like ‘‘connection refused’’.',
        transform: [10, 0, 0, 10, 108, 700],
        width: 400,
        hasEOL: true,
      },
    ];
    expect(pdfPageText(page)).toBe(
      'The default is to retry 20 times, with the exception of fatal errors like “connection refused”.',
    );
  });
  // A new user's trial 30 (q08): postgrey(8) lists its options as `--help` prints them, each
  // option and its text on one line. A line reaching the right margin was read as wrapped, and the
  // next option joined it ("…(default: /var/lib/postgrey) --delay=N greylist for N seconds…"); so
  // did the next option after a description's wrapped line, indented under the text.
  it("starts a line at an option under another option's line, or left of a description's wrapped line", async () => {
    const { pdfPageText } = await import('../../src/server/ingest/extraction/pdf-text.js');
    // pdf.js's items for postgrey.8 p. 1 (groff -Tpdf), each option and its text one item here.
    const item = (str: string, x: number, y: number, x1: number) => ({
      str,
      transform: [10, 0, 0, 10, x, y],
      width: x1 - x,
      hasEOL: true,
    });
    const page = [
      item('SYNOPSIS', 72, 729, 126),
      item('--dbdir=PATH put db files in PATH (default: /var/lib/postgrey)', 138, 556, 552),
      item('--delay=N greylist for N seconds (default: 300)', 138, 544, 480),
      item('--max-age=N delete entries older than N days since the last time', 138, 532, 570),
      item('that they have been seen (default: 35)', 258, 520, 486),
      item('--retry-window=N allow only N days for the first retrial (default: 2)', 138, 508, 570),
      item("append 'h' if you want to specify it in hours", 258, 496, 528),
      item('--greylist-action=A if greylisted, return A to Postfix (default: DEFER_IF_PER', 138, 484, 600),
    ];
    expect(pdfPageText(page).split('\n')).toEqual([
      'SYNOPSIS',
      '--dbdir=PATH put db files in PATH (default: /var/lib/postgrey)',
      '--delay=N greylist for N seconds (default: 300)',
      '--max-age=N delete entries older than N days since the last time that they have been seen (default: 35)',
      "--retry-window=N allow only N days for the first retrial (default: 2) append 'h' if you want to specify it in hours",
      '--greylist-action=A if greylisted, return A to Postfix (default: DEFER_IF_PER',
    ]);
  });
});

describe('PDF glyphs read as the characters they stand for', () => {
  it("reads groff's accent glyphs for ~ and ^, its asterisk operator and angle brackets as ASCII", async () => {
    const { pdfPageText } = await import('../../src/server/ingest/extraction/pdf-text.js');
    // pdf.js's items for ssh-add.1 p. 1 (groff -Tpdf), ssh.1 p. 10, ssh_config.5 p. 1 and rsync.1.
    const item = (str: string, x: number, y: number, width: number, hasEOL = false) => ({
      str,
      transform: [10, 0, 0, 10, x, y],
      width,
      hasEOL,
    });
    const page = [
      item('adds', 155.47, 602, 18.33),
      item(' ', 173.8, 602, 10.76),
      item('the', 184.57, 602, 12.22),
      item(' ', 196.79, 602, 10.76),
      item('files', 207.55, 602, 16.67),
      item(' ', 224.22, 602, 10.76),
      item('˜/.ssh/id_rsa', 234.98, 602, 78),
      item('.', 312.98, 602, 2.5, true),
      item('˜ˆZ', 102, 560, 16),
      item(' Background ssh.', 118, 560, 70, true),
      item('Include /etc/ssh/ssh_config.d/∗.conf', 102, 520, 170, true),
      item('web site at \u2329https://rsync.samba.org/\u232a.', 102, 480, 170, true),
      item('Set this option to −1 to make it unlimited.', 102, 440, 170, true),
    ];
    expect(pdfPageText(page)).toBe(
      'adds the files ~/.ssh/id_rsa.\n~^Z Background ssh.\nInclude /etc/ssh/ssh_config.d/*.conf\nweb site at <https://rsync.samba.org/>.\nSet this option to -1 to make it unlimited.',
    );
  });
});

describe("plain text's headings by their shape (the fifth and sixth new-user trials: perlfaq, chrony's FAQ)", () => {
  const filler = (n: number) =>
    Array.from({ length: n }, (_, i) => `Sentence ${i} of the answer says a little more about it.`).join(' ');

  it("a FAQ's question heads its answer's chunks; an aside in parentheses, code and figures head nothing", () => {
    const chunks = chunkText(
      [
        'Which version of Perl should I use?',
        '(contributed by brian d foy with updates from others)',
        filler(12),
        '}',
        filler(6),
        '61184',
        filler(6),
      ].join('\n'),
      300,
      100,
    );
    expect(chunks.length).toBeGreaterThan(3);
    for (const c of chunks) expect(c).toMatch(/^Which version of Perl should I use\?\n/);
  });

  it('a numbered question is one heading; the line a sentence leads into ("…would change to") is none', () => {
    const chunks = chunkText(
      ['The example above would change to', 'makestep 1 -1', '3.5. Using NTS?', filler(12)].join('\n'),
      300,
      100,
    );
    expect(chunks.length).toBeGreaterThan(2);
    for (const c of chunks.slice(1)) expect(c).toMatch(/^3\.5\. Using NTS\?\n(?!makestep)/);
  });
});

describe('records in chunks (the sixth new-user trial on ieee-data)', () => {
  it('are never cut inside a value at a sentence end, however the chunk breaks', () => {
    const rows = Array.from(
      { length: 12 },
      (_, i) =>
        `Registry: MA-M; Assignment: 8C1F6${i}; Organization Name: Who? Corp ${i}; Organization Address: ${i} W. Deep Canyon Dr. Star ID US 83669.`,
    );
    const chunks = chunkText(rows.join('\n'), 300, 100);
    for (const c of chunks) for (const line of c.split('\n')) expect(rows).toContain(line);
  });
});

describe('PDF running headers and footers (#33)', () => {
  it('leaves out a first or last line that recurs on many pages, its numbers aside', async () => {
    const { withoutRunningLines } = await import('../../src/server/ingest/extraction/pdf-text.js');
    const pages = [1, 2, 3, 4].map(
      (n) => `LS(1) User Commands LS(1)\nText of page ${n}.\nGNU coreutils 9.1 September 2022 ${n}`,
    );
    expect(withoutRunningLines(pages)).toEqual([1, 2, 3, 4].map((n) => `Text of page ${n}.`));
    // A man page of two pages (the fifth new user's openssl-verify.1): the same first line on both.
    expect(withoutRunningLines(pages.slice(0, 2))).toEqual(['Text of page 1.', 'Text of page 2.']);
    // Of two pages whose first lines differ, nothing.
    const letters = ['Dear Ann,\nText.\nPage 1', 'Yours,\nBob\nPage 2'];
    expect(withoutRunningLines(letters)).toEqual(letters);
  });

  it("leaves out a book's running header that names its chapter, on that chapter's pages only (bashref)", async () => {
    const { withoutRunningLines } = await import('../../src/server/ingest/extraction/pdf-text.js');
    const pages = [
      ...[44, 45, 46].map((n) => `Chapter 3: Basic Shell Features ${n}\nText of page ${n}.`),
      ...[47, 48, 49].map((n) => `Chapter 4: Shell Builtin Commands ${n}\nText of page ${n}.`),
      'Example:\nls -l',
      'Syntax:\nplot x',
      'Example:\nls -a',
      'Example:\nls -b',
    ];
    expect(withoutRunningLines(pages)).toEqual([
      ...[44, 45, 46, 47, 48, 49].map((n) => `Text of page ${n}.`),
      // A line that introduces what follows is the text's, however often a page starts with one.
      ...pages.slice(6),
    ]);
  });
});

describe("Markdown's front matter (the sixth new-user trial: a page of a Jekyll site)", () => {
  it('reads its YAML or TOML lines as lines of their own, never a heading over the page', async () => {
    const page = (open: string, close: string) =>
      `${open}\ntitle: Install guide\nlayout: page\n${close}\n\n# Installing\n\nRun make install as root.\n`;
    for (const [open, close] of [
      ['---', '---'],
      ['---', '...'],
      ['+++', '+++'],
    ])
      expect(text(await extractDocument('install.md', Buffer.from(page(open!, close!))))).toBe(
        'title: Install guide\nlayout: page\nInstalling\nRun make install as root.',
      );
    // A rule first and a setext heading later are the page's own.
    expect(
      text(
        await extractDocument(
          'rule.md',
          Buffer.from('---\nIntro text\nwraps here.\n\nSection\n---\n\nBody.\n'),
        ),
      ),
    ).toBe('Intro text wraps here.\nSection\nBody.');
  });
});

describe("a program's options as --help prints them (the seventh new-user trial: csvkit's csvcut)", () => {
  const help = [
    'usage: csvcut [-h] [-n] [-c COLUMNS] [FILE]',
    '',
    'optional arguments:',
    '  -h, --help            show this help message and exit',
    '  -n, --names           Display column names and indices from the input CSV',
    '                        and exit.',
    '  -c COLUMNS, --columns COLUMNS',
    '                        A comma-separated list of column indices, names or',
    '                        ranges to be extracted, e.g. "1,id,3-5". Defaults to',
    '                        all columns.',
  ];
  const read = [
    'usage: csvcut [-h] [-n] [-c COLUMNS] [FILE]',
    'optional arguments:',
    '-h, --help',
    'show this help message and exit',
    '-n, --names',
    'Display column names and indices from the input CSV and exit.',
    '-c COLUMNS, --columns COLUMNS',
    'A comma-separated list of column indices, names or ranges to be extracted, e.g. "1,id,3-5". Defaults to all columns.',
  ];
  it('reads each option, then its description whole, in a text file and in HTML <pre>', async () => {
    // A text file keeps its blank line between paragraphs.
    expect(text(await extractDocument('csvcut.txt', Buffer.from(help.join('\n'))))).toBe(
      [read[0], '', ...read.slice(1)].join('\n'),
    );
    const html = `<html><body><p>Filters CSV files:</p><div class="highlight"><pre><span></span>${help
      .map((l) => l.replace(/-/g, '<span class="o">-</span>'))
      .join('\n')}\n</pre></div></body></html>`;
    expect(text(await extractDocument('csvcut.html', Buffer.from(html)))).toBe(
      ['Filters CSV files:', ...read].join('\n'),
    );
  });
});

describe("a man page as man prints it, whole in an HTML <pre> (the seventh new-user trial: Postfix's manuals)", () => {
  it('is read as a text file is: paragraphs whole, words hyphenated at a line end joined, options apart', async () => {
    const html = `<html><head><title> Postfix manual - postqueue(1) </title></head><body><pre>
POSTQUEUE(1)                                                      POSTQUEUE(1)

<b>NAME</b>
       postqueue - Postfix queue control

<b>DESCRIPTION</b>
       The  <a href="postqueue.1.html"><b>postqueue</b>(1)</a>  command  implements  the  Postfix user interface for
       queue management.  It  implements  operations  that  are  traditionally
       available  via  the  <a href="sendmail.1.html"><b>sendmail</b>(1)</a> command.  See the <a href="postsuper.1.html"><b>postsuper</b>(1)</a> command
       for queue operations that require super-user privileges such as  delet-
       ing a message from the queue.

       <b>-f</b>     Flush the queue: attempt to deliver all queued mail.

       <b>-j</b>     Produce a queue listing in JSON format, based on output from the
              <a href="showq.8.html">showq(8)</a> daemon.
</pre></body></html>`;
    const read = await extractDocument('postqueue.1.html', Buffer.from(html));
    expect(text(read)).toBe(
      [
        'Postfix manual - postqueue(1)',
        // The page's running head is not its text.
        'NAME',
        'postqueue - Postfix queue control',
        'DESCRIPTION',
        'The postqueue(1) command implements the Postfix user interface for queue management. It implements operations that are traditionally available via the sendmail(1) command. See the postsuper(1) command for queue operations that require super-user privileges such as deleting a message from the queue.',
        '-f',
        'Flush the queue: attempt to deliver all queued mail.',
        '-j',
        'Produce a queue listing in JSON format, based on output from the showq(8) daemon.',
      ].join('\n'),
    );
    // Its headings by their shape, as a text file's, not none as other preformatted text's.
    expect(read.ok && read.sections[0]!.headings?.[3]).toBeUndefined();
  });
});

describe("a list of terms each with its description in a column, as Vim's help writes it (the eighth new-user trial: vim-doc)", () => {
  const help = [
    '*fold.txt*      For Vim version 9.0.  Last change: 2022 Nov 26',
    '',
    'OPENING AND CLOSING FOLDS',
    '',
    '\t\t\t\t\t\t\t*zo*',
    'zo\t\tOpen one fold under the cursor.  When a count is given, that',
    '\t\tmany folds deep will be opened.',
    '',
    '\t\t\t\t\t\t\t*zR*',
    "zR\t\tOpen all folds.  This sets 'foldlevel' to highest fold level.",
  ];
  const read = [
    '*fold.txt*',
    'For Vim version 9.0. Last change: 2022 Nov 26',
    'OPENING AND CLOSING FOLDS',
    '*zo*',
    'zo',
    'Open one fold under the cursor. When a count is given, that many folds deep will be opened.',
    '*zR*',
    'zR',
    "Open all folds. This sets 'foldlevel' to highest fold level.",
  ];
  it('reads each term, then its description whole, in HTML <pre> and in a text file', async () => {
    const html = `<html><body><pre>\n${help.join('\n')}\n</pre></body></html>`;
    expect(text(await extractDocument('fold.html', Buffer.from(html)))).toBe(read.join('\n'));
    const plain = text(await extractDocument('fold.txt', Buffer.from(help.join('\n'))));
    expect(plain.split('\n').filter(Boolean)).toEqual(read);
  });

  it('leaves prose whose sentences are two spaces apart as it is', async () => {
    const prose = [
      'The fold level is set by the expression.  When it is zero, the line is not in a fold and the',
      'next line starts a new one.  Each line is evaluated once.',
      'Folds are opened.  Nothing else happens when the cursor moves over a closed fold, it is just',
      'shown as it was.',
    ].join('\n');
    expect(text(await extractDocument('prose.txt', Buffer.from(prose)))).toBe(
      'The fold level is set by the expression. When it is zero, the line is not in a fold and the next line starts a new one. Each line is evaluated once.\nFolds are opened. Nothing else happens when the cursor moves over a closed fold, it is just shown as it was.',
    );
  });
});

describe("a Markdown README's badges (the eighth new-user trial: htop's README)", () => {
  it('are left out: a paragraph of linked images only is decoration, a picture alone keeps its words', async () => {
    const readme = [
      '# [![htop logo](htop.png)](https://htop.dev)',
      '',
      '[![CI](https://github.com/htop-dev/htop/workflows/CI/badge.svg)](https://github.com/htop-dev/htop/actions)',
      '[![IRC #htop](https://img.shields.io/badge/IRC-htop-blue.svg)](https://web.libera.chat/#htop)',
      '[![License: GPL v2+](https://img.shields.io/badge/License-GPL%20v2+-blue.svg)](COPYING?raw=true)',
      '',
      '![Screenshot of htop](docs/images/screenshot.png?raw=true)',
      '',
      '## Introduction',
      '',
      '`htop` is a cross-platform interactive process viewer.',
    ].join('\n');
    expect(text(await extractDocument('README.md', Buffer.from(readme)))).toBe(
      'htop logo\nScreenshot of htop\nIntroduction\nhtop is a cross-platform interactive process viewer.',
    );
  });
});
