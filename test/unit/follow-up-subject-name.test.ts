import { describe, expect, it } from 'vitest';
import { docLines as chunk, followUpOf, libraryOf } from '../helpers/library.js';

// The sixteenth new user's trial (tinyproxy and Privoxy in one folder).
const PORT = chunk('tinyproxy/tinyproxy.conf', 0, [
  '# Port: Specify the port which tinyproxy will listen on.  Please note',
  '# that should you choose to run on a port lower than 1024 you will need',
  '# to start tinyproxy using root.',
  '#',
  'Port 8888',
]);
const CONNECT_PORT = chunk('tinyproxy/tinyproxy.conf', 1, [
  '#',
  '# ConnectPort: This is a list of ports allowed by tinyproxy when the',
  '# CONNECT method is used.  To disable the CONNECT method altogether, set',
  '# the value to 0.  If no ConnectPort line is found, all ports are',
  '# allowed.',
  '#',
  '#ConnectPort 443',
  '#ConnectPort 563',
]);
const PRIVOXY = chunk('privoxy/manual/actions-file.html', 0, [
  '8.5.32. limit-connect',
  'Typical use:',
  'Prevent abuse of Privoxy as a TCP proxy relay or disable SSL for untrusted sites',
  'Effect:',
  'Specifies to which ports HTTP CONNECT requests are allowable.',
  'Notes:',
  'By default, i.e. if no limit-connect action applies, Privoxy allows HTTP CONNECT requests to all ports. Use limit-connect if fine-grained control is desired for some or all destinations.',
  'The CONNECT methods exists in HTTP to allow access to secure websites ("https://" URLs) through proxies.',
]);

describe('a follow-up that says "it" for a program the question before named', () => {
  it('is answered from what is about that program, not from another program that shares its other words', async () => {
    const library = libraryOf([PRIVOXY, PORT, CONNECT_PORT], {
      tinyproxi: 4,
      privoxi: 4,
      connect: 3,
      port: 2,
      allow: 1.5,
    });
    const question = 'What port does tinyproxy listen on out of the box?';
    const { first, next } = await followUpOf(
      library,
      question,
      'And how do I stop it allowing CONNECT at all?',
    );
    expect(first.content).toContain('Port 8888');
    expect(next.content).toContain('To disable the CONNECT method altogether, set the value to 0.');
    expect(next.sources).not.toContain('privoxy/manual/actions-file.html');
  });

  it('holds the program "it" stands for, not the setting the question before asked about', async () => {
    const config = chunk('privoxy/manual/config.html', 0, [
      '7.6.8. socket-timeout',
      'Specifies:',
      'Number of seconds after which a socket times out if no data is received.',
      'Effect if unset:',
      'A default value of 300 seconds is used.',
      '7.6.9. max-client-connections',
      'Specifies:',
      'Maximum number of client connections that will be served.',
      'Default value:',
      '128',
    ]);
    const library = libraryOf([config, PORT], {
      privoxi: 4,
      'socket-timeout': 5,
      socket: 2,
      client: 1.5,
      connect: 1.5,
      serv: 1.2,
    });
    const question = "If I don't set socket-timeout in Privoxy, how long until a socket times out?";
    const { first, next } = await followUpOf(
      library,
      question,
      'And how many client connections will it serve at most by default?',
    );
    expect(first.content).toContain('300 seconds');
    expect(next.content).toContain('Default value: 128');
  });
});

describe('"its default value" after a question on a setting (the twenty-first new user\'s trial: mutt and tmux)', () => {
  const RECORD = chunk('mutt/reference.html', 0, [
    'Also see $postponed variable.',
    '3.277. record',
    'Type: path',
    'Default: “~/sent”',
    'This specifies the file into which your outgoing messages should be appended. (This is meant as the primary method for saving a copy of your messages, but another way to do this is using the “my_hdr” command to create a “Bcc:” field with your email address in it.)',
    'The value of $record is overridden by the $force_name and $save_name variables, and the “fcc-hook” command. Also see $copy and $write_bcc.',
    '3.278. reflow_space_quotes',
    'Type: boolean',
    'Default: yes',
  ]);
  const TMUX = chunk('man-pdf/tmux.1.pdf', 0, [
    'default-command shell-command',
    'Set the command used for new windows (if not specified when the window is created) to shell-command, which may be any sh(1) command. The default is an empty string, which instructs tmux to create a login shell using the value of the default-shell option.',
  ]);

  it('is answered with the setting’s own default, not another program’s', async () => {
    const library = libraryOf([TMUX, RECORD], {
      mutt: 1.4,
      record: 3.4,
      variabl: 1.8,
      specifi: 1.6,
      valu: 1.5,
    });
    const question = "What does mutt's $record variable specify?";
    const { first, next } = await followUpOf(library, question, 'What is its default value?');
    expect(first.content).toContain(
      'This specifies the file into which your outgoing messages should be appended.',
    );
    expect(next.content).toContain('“~/sent”');
    expect(next.sources).not.toContain('man-pdf/tmux.1.pdf');
  });
});

// The twenty-third new user's trial (F3b): exports(5) as a PDF, then "Is it the default?", which
// nothing answered with the question before, read alone found dotenv's table of defaults.
describe('a follow-up read alone, when no file is named after what "it" stands for', () => {
  it('holds the question before’s heaviest name', async () => {
    const exports = chunk('nfs/exports.5.pdf', 0, [
      'rw',
      'Allow both read and write requests on this NFS volume. The default is to disallow any request which changes the filesystem. This can also be made explicit by using the ro option.',
      'async',
      'This option allows the NFS server to violate the NFS protocol and reply to requests before any changes made by that request have been committed to stable storage (e.g. disc drive). Using this option usually improves performance, but at the cost that an unclean server restart (i.e. a crash) can cause data to be lost or corrupted.',
      'sync',
      'Reply to requests only after the changes have been committed to stable storage (see async above). In releases of nfs-utils up to and including 1.0.0, the async option was the default. In all releases after 1.0.0, sync is the default, and async must be explicitly requested if needed.',
    ]);
    const dotenv = chunk('npm/dotenv-README.md', 0, [
      'Variable | Default | Description',
      '--- | --- | ---',
      'DOTENV_PATH | .env | Path to the file to load.',
      'DOTENV_ENCODING | utf8 | File encoding.',
    ]);
    const library = libraryOf([exports, dotenv], {
      async: 5.1,
      export: 3,
      option: 1.2,
      etc: 2.7,
      default: 1.5,
      nfs: 2.5,
    });
    const question = 'What does the async export option do in /etc/exports?';
    const { first, next } = await followUpOf(library, question, 'Is it the default?');
    expect(first.content).toContain('This option allows the NFS server to violate the NFS protocol');
    expect(next.sources).not.toContain('npm/dotenv-README.md');
    expect(next.content).toContain('async');
  });
});

// A new user's check (session 26): in one thread, after a question on pgbouncer.ini, "How often
// does vnstat flush its counters to the database file?" was refused, the nearest passages said to
// be in pgbouncer.ini; asked in a new thread it was answered. Its "its" is vnstat's, named before it.
describe('a question that names its own subject before its pronoun', () => {
  it('is about that subject, not the one the question before it asked about', async () => {
    const library = libraryOf([
      chunk('config/pgbouncer.ini', 0, [
        ';; When server connection is released back to pool:',
        ';; session - after client disconnects (default)',
        ';pool_mode = session',
      ]),
      chunk('config/vnstat.conf', 0, [
        '# how often (in minutes) data is saved to database',
        ';SaveInterval 5',
        '# how often (in minutes) data is saved when all interface are offline',
        ';OfflineSaveInterval 30',
      ]),
    ]);
    const { next } = await followUpOf(
      library,
      "What is PgBouncer's default pool_mode?",
      'How often does vnstat flush its counters to the database file?',
    );
    expect(next.content).toMatch(/;SaveInterval 5/);
    expect(next.sources).toEqual(['config/vnstat.conf']);
  });
});
