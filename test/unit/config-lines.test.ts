import { describe, expect, it } from 'vitest';
import { answerOf, doc, followUpOf, libraryOf } from '../helpers/library.js';

// A new user's trial (#33): "How do I change the tmux prefix key to C-a?" was answered
// "set -g prefix C-a. bind C-a send-prefix." — lines of a configuration made sentences, a full
// stop in each value, the line between them left out: pasted into tmux.conf, it breaks.
const TMUX = [
  '# Keep windows around after they exit',
  'set -g remain-on-exit on',
  '',
  '# Change the prefix key to C-a',
  'set -g prefix C-a',
  'unbind C-b',
  'bind C-a send-prefix',
  '',
  '# Turn the mouse on, but without copy mode dragging',
  'set -g mouse on',
].join('\n');

describe('lines of a configuration in an answer', () => {
  it('are shown as they are written, as a block of code, the lines between them too', async () => {
    const content = await answerOf(
      libraryOf([doc('example_tmux.conf', TMUX)]),
      'How do I change the tmux prefix key to C-a?',
    );
    expect(content).toContain('```\nset -g prefix C-a\nunbind C-b\nbind C-a send-prefix\n```');
    expect(content).not.toMatch(/C-a\.|send-prefix\./);
    expect(content).toMatch(/\n\nSources: \[example_tmux\.conf\]$/);
  });

  it('in a text, lines of a shell script under the sentence that introduces them stay lines', async () => {
    const faq = [
      'Q: A script runs "xz -9" and xz says that it cannot allocate memory. Can I make the script work without modifying it?',
      'A: Set a default memory usage limit for compression. You can do it e.g. in a shell initialization script such as ~/.bashrc or /etc/profile:',
      'XZ_DEFAULTS=--memlimit-compress=150MiB',
      'export XZ_DEFAULTS',
      'xz will then scale the compression settings down so that the given memory usage limit is not reached.',
    ].join('\n');
    const content = await answerOf(
      libraryOf([doc('xz-faq.txt', faq)]),
      'xz cannot allocate memory; how can I make the script work without modifying it?',
    );
    expect(content).toContain('```\nXZ_DEFAULTS=--memlimit-compress=150MiB\nexport XZ_DEFAULTS\n```');
    expect(content).not.toMatch(/150MiB\.|XZ_DEFAULTS\./);
  });

  it('a setting commented out under the comment that describes it is its default, shown as written', async () => {
    // nanorc: "For the options that take parameters, the default value is shown." (a new user's trial)
    const nanorc = [
      '## Use auto-indentation.',
      '# set autoindent',
      '',
      '## Use this tab size instead of the default; it must be greater than 0.',
      '# set tabsize 8',
      '',
      '## Convert each typed tab to the fitting number of spaces.',
      '# set tabstospaces',
    ].join('\n');
    const content = await answerOf(libraryOf([doc('nanorc', nanorc)]), "What is nano's default tab size?");
    expect(content).toContain('Use this tab size instead of the default; it must be greater than 0.');
    expect(content).toContain('```\n# set tabsize 8\n```');
  });

  it('a comment without a full stop right above a setting says what the setting does', async () => {
    // sysctl.conf (a fourteenth new user's trial): the comment was read as a heading and dropped,
    // so "How do I make my machine forward IPv4 packets?" was refused.
    const sysctl = [
      '# Uncomment the next two lines to enable Spoof protection (reverse-path filter)',
      '#net.ipv4.conf.default.rp_filter=1',
      '#net.ipv4.conf.all.rp_filter=1',
      '',
      '# Uncomment the next line to enable packet forwarding for IPv4',
      '#net.ipv4.ip_forward=1',
      '',
    ].join('\n');
    const content = await answerOf(
      libraryOf([doc('sysctl.conf', sysctl)]),
      'How do I make my machine forward IPv4 packets between interfaces?',
    );
    expect(content).toMatch(
      /^Uncomment the next line to enable packet forwarding for IPv4\.\n\n```\n#net\.ipv4\.ip_forward=1\n```\n/,
    );
  });

  // vnstat.conf (a twenty-fourth new user's trial): its settings are a name and a number commented
  // out with ';' (`;SaveInterval 5`), which read as a contents list's titles and page numbers,
  // so no line of it answered; and its comments, lower case, were read as nothing.
  const VNSTAT = [
    '# example 8Mbit limit for eth0 (remove # to activate):',
    '#MaxBWeth0 8',
    '# data retention durations (-1 = unlimited, 0 = feature disabled)',
    ';5MinuteHours 48',
    ';HourlyDays 4',
    ';DailyDays 62',
    '# how often (in seconds) interface data is updated',
    ';UpdateInterval 20',
    '# how often (in seconds) interface status changes are checked',
    ';PollInterval 5',
    '# how often (in minutes) data is saved to database',
    ';SaveInterval 5',
    '# how often (in minutes) data is saved when all interface are offline',
    ';OfflineSaveInterval 30',
  ].join('\n');

  it.each([
    'What is SaveInterval in vnstat.conf?',
    'How often does vnStat save interface data to its database?',
  ])(
    'settings written as a name and a number are settings, not a contents list, described by the comment in lower case above each (%s)',
    async (question) => {
      const content = await answerOf(libraryOf([doc('vnstat.conf', VNSTAT)]), question);
      expect(content).toMatch(
        /^how often \(in minutes\) data is saved to database\.\n\n```\n;SaveInterval 5\n```\n/,
      );
    },
  );

  // pgbouncer.ini, as kb reads it (the twenty-fourth new user's trial, F1a, F1b, I5): comments
  // marked with ';', a setting's values listed as terms under the sentence that introduces them.
  const PGBOUNCER = [
    ';;;',
    ';;; Pooler personality questions',
    ';;;',
    '',
    ';; When server connection is released back to pool:',
    ';; session - after client disconnects (default)',
    ';; transaction - after transaction finishes',
    ';; statement - after statement finishes',
    ';pool_mode = session',
    '',
    ';; Query for cleaning connection immediately after releasing from client. No need to put ROLLBACK here, pgbouncer does not reuse connections where transaction is left open.',
    ';server_reset_query = DISCARD ALL',
    '',
    ';; Whether server_reset_query should run in all pooling modes. If it is off, server_reset_query is used only for session-pooling.',
    ';server_reset_query_always = 0',
  ].join('\n');

  it("reads an INI file's ';' comments as comments: a setting under the list of its values is what the list's sentence says", async () => {
    const library = libraryOf([doc('config/pgbouncer.ini', PGBOUNCER)]);
    const mode = await answerOf(library, "What is PgBouncer's default pool_mode?");
    expect(mode).toMatch(
      /^When server connection is released back to pool:\n\n```\n;pool_mode = session\n```\n/,
    );
    expect(mode).toContain('session - after client disconnects (default)');
    const { next } = await followUpOf(
      library,
      "What is PgBouncer's default pool_mode?",
      'And what does its transaction mode mean?',
    );
    expect(next.content).toMatch(/^pool_mode: transaction - after transaction finishes\./);
    // A setting shown once, though a sentence gives it as its example and it answers itself too.
    const reset = await answerOf(library, 'What is server_reset_query set to by default in PgBouncer?');
    expect(reset.split(';server_reset_query = DISCARD ALL')).toHaveLength(2);
  });

  // mke2fs.conf (a fourteenth new user's trial): a setting inside a stanza (`small = {` … `}`) or
  // a section (`[defaults]`) is that stanza's; the answer was every `inode_ratio` but small's.
  const MKE2FS = [
    '[defaults]',
    '\tbase_features = sparse_super,large_file,filetype,resize_inode,dir_index,ext_attr',
    '\tdefault_mntopts = acl,user_xattr',
    '\tenable_periodic_fsck = 0',
    '\tblocksize = 4096',
    '\tinode_size = 256',
    '\tinode_ratio = 16384',
    '',
    '[fs_types]',
    '\text3 = {',
    '\t\tfeatures = has_journal',
    '\t}',
    '\tsmall = {',
    '\t\tblocksize = 1024',
    '\t\tinode_ratio = 4096',
    '\t}',
    '\tfloppy = {',
    '\t\tblocksize = 1024',
    '\t\tinode_ratio = 8192',
    '\t}',
    '\tbig = {',
    '\t\tinode_ratio = 32768',
    '\t}',
    '\tlargefile = {',
    '\t\tinode_ratio = 1048576',
    '\t\tblocksize = -1',
    '\t}',
    '\thurd = {',
    '\t     blocksize = 4096',
    '\t     inode_size = 128',
    '\t}',
  ].join('\n');

  it("a setting inside a stanza or a section is that stanza's, shown in it", async () => {
    const library = libraryOf([doc('mke2fs.conf', MKE2FS)]);
    const small = await answerOf(library, 'What inode ratio does mke2fs use for small file systems?');
    expect(small).toMatch(
      /^```\n\[fs_types\]\n\tsmall = \{\n\t\tblocksize = 1024\n\t\tinode_ratio = 4096\n\t\}\n```\n/,
    );
    expect(small).not.toMatch(/16384|8192|1048576/);
    const defaults = await answerOf(library, 'What is the default inode ratio of mke2fs?');
    expect(defaults).toMatch(/^```\n\[defaults\]\n\tinode_ratio = 16384\n```\n/);
    expect(defaults).not.toMatch(/4096|8192|1048576/);
  });

  it("a setting's comment that names another setting in passing is about its own", async () => {
    // faillock.conf (a fifteenth new user's trial): the answer on unlock_time's default went on
    // with root_unlock_time's "In case the option is not specified the value is the same as of
    // the `unlock_time` option." and `# root_unlock_time = 900`, read as unlock_time's.
    const faillock = [
      '# The access will be re-enabled after n seconds after the lock out.',
      '# The value 0 has the same meaning as value `never` - the access',
      '# will not be re-enabled without resetting the faillock',
      '# entries by the `faillock` command.',
      '# The default is 600 (10 minutes).',
      '# unlock_time = 600',
      '#',
      '# Root account can become locked as well as regular accounts.',
      '# Enabled if option is present.',
      '# even_deny_root',
      '#',
      '# This option implies the `even_deny_root` option.',
      '# Allow access after n seconds to root account after the',
      '# account is locked. In case the option is not specified',
      '# the value is the same as of the `unlock_time` option.',
      '# root_unlock_time = 900',
    ].join('\n');
    const content = await answerOf(
      libraryOf([doc('etc/security/faillock.conf', faillock)]),
      'What is the default unlock_time in faillock.conf?',
    );
    expect(content).toMatch(
      /^The default is 600 \(10 minutes\)\.\n\n```\n# unlock_time = 600\n```\n\nSources:/,
    );
  });

  it("a comment's default in parentheses, a blank comment line and the setting commented out under it (SpamAssassin's local.cf)", async () => {
    // A sixteenth new user's trial: local.cf was no configuration file by its name (`.cf`), and
    // its comments end without a full stop, so "What score does SpamAssassin need before it
    // calls a message spam by default?" was refused though the chunk was retrieved first.
    const local = [
      '#   Set file-locking method (flock is not safe over NFS, but is faster)',
      '#',
      '# lock_method flock',
      '',
      '',
      '#   Set the threshold at which a message is considered spam (default: 5.0)',
      '#',
      '# required_score 5.0',
      '',
      '',
      '#   Use Bayesian classifier (default: 1)',
      '#',
      '# use_bayes 1',
    ].join('\n');
    const content = await answerOf(
      libraryOf([doc('spamassassin/local.cf', local)]),
      'What score does SpamAssassin need before it calls a message spam by default?',
    );
    expect(content).toMatch(
      /^Set the threshold at which a message is considered spam \(default: 5\.0\)\.\n\n```\n# required_score 5\.0\n```\n/,
    );
  });

  it('a setting is the value of the comment sentence that it names first, not of one mentioning its word later', async () => {
    // tinyproxy.conf (a sixteenth new user's trial): `Port 8888` was taken as the value of
    // "Please note that should you choose to run on a port lower than 1024…", and "What port does
    // tinyproxy listen on out of the box?" was answered from the manual without the port.
    const tinyproxy = [
      '#',
      '# Port: Specify the port which tinyproxy will listen on. Please note that should you choose to run on a port lower than 1024 you will need to start tinyproxy using root.',
      '#',
      'Port 8888',
      '#',
      '# Listen: If you have multiple interfaces this allows you to bind to only one.',
      '#',
      '#Listen 192.168.0.1',
    ].join('\n');
    const content = await answerOf(
      libraryOf([doc('tinyproxy/tinyproxy.conf', tinyproxy)]),
      'What port does tinyproxy listen on by default?',
    );
    expect(content).toMatch(
      /^Port: Specify the port which tinyproxy will listen on\.\n\n```\nPort 8888\n```\n/,
    );
  });
});
