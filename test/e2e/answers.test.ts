import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCases } from '../../src/eval/cases.js';
import { ROOT, runKb, tempDir } from '../helpers/cli.js';
import { api, demoServerForFile, freePort, startTestServer } from '../helpers/server.js';
import { startServer } from '../../src/server/index.js';
import { docsFolder, makeDocx, makePdf } from '../helpers/documents.js';
import { startServeProcess } from '../helpers/serve-process.js';

const demo = demoServerForFile();
const dir = tempDir();

/** Asks the questions in one new thread with the real kb; the assistant's replies, as JSON. */
async function conversation(env: Record<string, string>, ...questions: string[]) {
  const thread = (await runKb(['threads', 'create', '--ids'], { env, configDir: dir })).stdout.trim();
  const replies: { content: string; sources: string[] }[] = [];
  for (const question of questions) {
    const { stdout, code } = await runKb(['threads', 'send', thread, question, '--json'], {
      env,
      configDir: dir,
    });
    expect(code).toBe(0);
    replies.push(JSON.parse(stdout).aiResponse);
  }
  return replies;
}

/** Asks `run` about a folder of these files, served by kb serve once every one is indexed. */
async function withFolder(
  files: Record<string, string>,
  run: (env: Record<string, string>) => Promise<void>,
) {
  const { docs } = docsFolder(files);
  const key = 'kb_folder_key_0123456789';
  const local = await startTestServer({ docsDir: docs, apiKeys: [`main:${key}`] });
  try {
    await local.service.indexer.idle();
    await run({ KB_BASE_URL: local.url, KB_API_KEY: key });
  } finally {
    await local.close();
  }
}

describe('answers grounded in the documents, or "not found"', () => {
  it('cites nothing for a question no document answers', async () => {
    for (const question of ['How long is parental leave?', 'Who is the CEO of Kestrel Labs?']) {
      const [reply] = await conversation(demo.env, question);
      expect(reply!.sources).toEqual([]);
      expect(reply!.content).toMatch(/^I couldn't find anything about that/);
      expect(reply!.content).not.toContain('Sources:');
    }
  });

  it('says files are still being indexed only while some of the workspace are (the new-user trial: all 73 COMPLETED)', async () => {
    // Its replies to a question no document answers; none of them names `kb files list` any more.
    const [settled] = await conversation(demo.env, 'How long is parental leave?');
    // (What other tests uploaded and could not be read is counted after it.)
    expect(settled!.content).toMatch(
      /^I couldn't find anything about that in this workspace's documents\. Try asking in other words(?:;[^;]*){0,2}\.$/,
    );
    expect(settled!.content).not.toMatch(/being indexed/);
    // A file uploaded waits a minute before it is read.
    const server = await startServer({
      port: 0,
      indexDelayMs: 60_000,
      ocr: false,
      apiKeys: ['wait:kb_wait_key_0123456789'],
    });
    try {
      const env = { KB_BASE_URL: server.url, KB_API_KEY: server.keys.wait! };
      const upload = join(dir, 'leave-policy.md');
      writeFileSync(upload, 'Parental leave is sixteen weeks.');
      const up = await runKb(['files', 'upload', upload, '--ids'], { env, configDir: dir });
      expect(up.code).toBe(0);
      const [waiting] = await conversation(env, 'How long is parental leave?');
      expect(waiting!.sources).toEqual([]);
      expect(waiting!.content).toMatch(
        /^I couldn't find anything about that in this workspace's documents yet: \d+ files? (?:is|are) still being indexed \(`kb files wait` waits for (?:it|them)\)\.$/,
      );
    } finally {
      await server.close();
    }
  });

  it("says, when nothing answers, how many of the workspace's files could not be indexed (the eleventh new user's units manual FAILED, and the refusal said only to ask in other words)", async () => {
    await withFolder(
      // An empty file too: the count is what `kb files list --status FAILED` lists (a fresh-eyes user compared them).
      { 'backups.md': 'Backups run nightly at 2 am.\n', 'scan.pdf': 'not a PDF at all', 'empty.txt': '' },
      async (env) => {
        const [reply] = await conversation(env, 'How long is parental leave?');
        expect(reply!.sources).toEqual([]);
        expect(reply!.content).toBe(
          "I couldn't find anything about that in this workspace's documents. Try asking in other words; 2 files could not be indexed (`kb files list --status FAILED` says why).",
        );
      },
    );
  });

  it('says, when nothing answers, where the nearest passages are (a fifteenth new user: the refusal gave no lead, though kb search ranked the answer first)', async () => {
    await withFolder(
      {
        'leave.md': 'Annual leave requests go to your manager two weeks ahead.\n',
        'sick.txt': 'Sick leave is reported to the office by 9 am.\n',
      },
      async (env) => {
        const [reply] = await conversation(env, 'How long is parental leave?');
        expect(reply!.sources).toEqual([]);
        expect(reply!.content).toMatch(
          /^I couldn't find anything about that in this workspace's documents\. Try asking in other words; the nearest passages are in (?:leave\.md and sick\.txt|sick\.txt and leave\.md) \(`kb search` shows them\)\.$/,
        );
      },
    );
  });

  it("answers the urgent first-response time from the CSV's row, with its header", async () => {
    const [reply] = await conversation(demo.env, 'What is the first response time for urgent tickets?');
    expect(reply!.content).toMatch(/^priority: Urgent; first response: 30 minutes; resolution: 4 hours\./);
    expect(reply!.sources[0]).toBe('sla-policies.csv');
  });

  it('resolves a follow-up against the previous question: "What replaces it?" after API v0', async () => {
    const [, reply] = await conversation(demo.env, 'When is API v0 switched off?', 'What replaces it?');
    expect(reply!.content).toContain('API v1');
    expect(reply!.sources).toEqual(['release-notes-v2.md']);
  });

  it("answers a configuration file's default from its commented-out line (the fourth new-user trial on redis.conf)", async () => {
    await withFolder(
      {
        'redis.conf': [
          '# MAXMEMORY POLICY: how Redis will select what to remove when maxmemory',
          '# is reached. You can select one from the following behaviors:',
          '#',
          '# allkeys-lru -> Evict any key using approximated LRU.',
          "# noeviction -> Don't evict anything, just return an error on write operations.",
          '#',
          '# The default is:',
          '#',
          '# maxmemory-policy noeviction',
          '',
          '# LRU, LFU and minimal TTL algorithms are not precise algorithms but approximated',
          '# algorithms (in order to save memory), so you can tune it for speed or',
          '# accuracy. By default Redis will check five keys and pick the one that was',
          '# used least recently, you can change the sample size using the following',
          '# configuration directive.',
          '#',
          '# The default of 5 produces good enough results. 10 Approximates very closely',
          '# true LRU but costs more CPU. 3 is faster but not very accurate.',
          '#',
          '# maxmemory-samples 5',
          '',
        ].join('\n'),
        'chrony.conf.5.txt': [
          'NAME',
          'chrony.conf - chronyd configuration file',
          'SYNOPSIS',
          'chrony.conf',
          'DESCRIPTION',
          'This file configures the chronyd daemon. The compiled-in location is /etc/chrony/chrony.conf.',
          'server hostname [option]...',
          'The server directive specifies an NTP server which can be used as a time source.',
          'minpoll poll',
          'This option specifies the minimum interval between requests sent to the server as a power of 2 in seconds. The default is 6 (64 seconds).',
          '',
        ].join('\n'),
      },
      async (env) => {
        const [reply] = await conversation(env, 'What is the default maxmemory-policy in redis.conf?');
        // The line as the file writes it, under what introduces it: pasted, it works.
        expect(reply!.content).toMatch(/^The default is:\n\n```\nmaxmemory-policy noeviction\n```\n/);
        expect(reply!.sources).toEqual(['redis.conf']);
        // A file named for what it documents, as a man page is (the fifth trial's chrony.conf.5.pdf).
        // Its sections are no name of it: "SYNOPSIS, chrony.conf, DESCRIPTION: This file configures…" answered.
        const [manPage] = await conversation(env, 'What is the default minpoll of a server in chrony.conf?');
        expect(manPage!.content).toMatch(/^minpoll poll: .*The default is 6 \(64 seconds\)/);
      },
    );
  });

  it("answers from under a Markdown FAQ's heading, never with the heading alone (the seventh new-user trial on sudo's TROUBLESHOOTING.md)", async () => {
    await withFolder(
      {
        'TROUBLESHOOTING.md': [
          '## Troubleshooting tips and FAQ for Sudo',
          '',
          '#### When I run \'visudo\' it says "sudoers file busy, try again later."',
          '',
          '> Someone else is currently editing the sudoers file with visudo.',
          '',
          '#### When I try to use \'cd\' with sudo it says "cd: command not found"',
          '',
          "> 'cd' is a shell built-in command, you can't run it as a command",
          '> since a child process (sudo) cannot affect the current working',
          '> directory of the parent (your shell).',
          '',
          "#### When I try to use 'cd' with sudo nothing happens.",
          '',
          "> Even though 'cd' is a shell built-in command, some operating systems",
          '> include a /usr/bin/cd command for completeness. Thus, `sudo cd /foo` will start a',
          '> child process, change the directory and immediately exit without doing anything useful.',
          '',
        ].join('\n'),
      },
      async (env) => {
        const [reply] = await conversation(env, 'Why does "sudo cd /foo" say "cd: command not found"?');
        expect(reply!.content).toContain("'cd' is a shell built-in command, you can't run it as a command");
        expect(reply!.sources).toEqual(['TROUBLESHOOTING.md']);
      },
    );
  });

  it("answers a default from a term's `Default:` line (the seventh new-user trial on mutt's reference)", async () => {
    const variable = (n: number, name: string, type: string, value: string, text: string) =>
      `<div class="sect2"><h3 class="title">3.${n}. ${name}</h3><p>Type: ${type}<br>Default: ${value}</p><p>${text}</p></div>`;
    await withFolder(
      {
        'reference.html': `<html><body><h2>3. Configuration Variables</h2>${[
          variable(
            163,
            'mail_check',
            'number',
            '5',
            'This variable configures how often (in seconds) mutt should look for new mail. Also see the $timeout variable.',
          ),
          variable(
            164,
            'mail_check_recent',
            'boolean',
            'yes',
            'When set, Mutt will only notify you about new mail that has been received since the last time you opened the mailbox.',
          ),
          variable(
            165,
            'mail_check_stats',
            'boolean',
            'no',
            'When set, mutt will periodically calculate message statistics of a mailbox while polling for new mail. Because this operation is more performance intensive, it defaults to unset, and has a separate option, $mail_check_stats_interval, to control how often to update these counts.',
          ),
          variable(
            166,
            'mail_check_stats_interval',
            'number',
            '60',
            'When $mail_check_stats is set, this variable configures how often (in seconds) mutt will update message counts.',
          ),
        ].join('')}</body></html>`,
      },
      async (env) => {
        const [reply] = await conversation(env, 'What is the default of mail_check in mutt?');
        expect(reply!.content).toMatch(/^3\.163\. mail_check: Default: 5\./);
        // Not another term's default beside the answer (mail_check_recent's, mail_check_stats').
        expect(reply!.content).not.toMatch(/Default: (yes|no)/);
      },
    );
  });

  it("answers a setting's value from the line under the comment that describes it (the seventh new-user trial on fail2ban's jail.conf)", async () => {
    await withFolder(
      {
        'fail2ban/jail.conf': [
          '# Provide customizations in a jail.local file or a jail.d/customisation.local.',
          '# For example to change the default bantime for all jails and to enable the',
          '# ssh-iptables jail the following (uncommented) would appear in the .local file.',
          '#',
          '# [DEFAULT]',
          '# bantime = 1h',
          '',
          '[DEFAULT]',
          '',
          '# "bantime.increment" allows to use database for searching of previously banned ip\'s to increase a',
          '# default ban time using special formula, default it is banTime * 1, 2, 4, 8, 16, 32...',
          '#bantime.increment = true',
          '',
          '# "bantime.multipliers" used to calculate next value of ban time instead of formula, corresponding',
          '# previously ban count and given "bantime.factor" (for multipliers default is 1);',
          '#bantime.multipliers = 1 2 4 8 16 32 64',
          '',
          '# "ignoreself" specifies whether the local resp. own IP addresses should be ignored',
          '# (default is true). Fail2ban will not ban a host which matches such addresses.',
          '#ignoreself = true',
          '',
          '# "bantime" is the number of seconds that a host is banned.',
          'bantime  = 10m',
          '',
          '# A host is banned if it has generated "maxretry" during the last "findtime"',
          '# seconds.',
          'findtime  = 10m',
          '',
          '# "maxretry" is the number of failures before a host get banned.',
          'maxretry = 5',
          '',
        ].join('\n'),
      },
      async (env) => {
        const [bantime] = await conversation(env, "What is fail2ban's default bantime?");
        // The setting as the file writes it, no full stop in its value.
        expect(bantime!.content).toMatch(
          /^“?"?bantime"?”? is the number of seconds that a host is banned\.\n\n```\nbantime += 10m\n```\n/,
        );
        const [maxretry] = await conversation(env, 'What is the default maxretry in jail.conf?');
        expect(maxretry!.content).toContain('maxretry = 5');
      },
    );
  });

  it("answers how long with a setting's unit and its default (the seventh new-user trial on sudoers(5))", async () => {
    await withFolder(
      {
        'sudoers.5.txt': [
          'SUDOERS OPTIONS',
          '',
          'passwd_timeout',
          '        Number of minutes before the sudo password prompt times out, or 0 for no timeout. The timeout may include a fractional component if minute granularity is insufficient, for example 2.5. The default is 0.',
          '',
          'timestamp_timeout',
          '        Number of minutes that can elapse before sudo will ask for a password again. The timeout may include a fractional component if minute granularity is insufficient, for example 2.5. The default is 15. Set this to 0 to always prompt for a password. If set to a value less than 0 the user’s time stamp will not expire until the system is rebooted.',
          '',
          'umask   File mode creation mask to use when running the command.',
          '',
        ].join('\n'),
      },
      async (env) => {
        const [reply] = await conversation(
          env,
          'How long does sudo wait before asking for my password again?',
        );
        expect(reply!.content).toMatch(
          /^timestamp_timeout: Number of minutes that can elapse before sudo will ask for a password again\. .*The default is 15\./,
        );
      },
    );
  });

  it("answers a default from a configuration file's commented-out setting alone on its line (the eighth new-user trial on postgresql.conf.sample)", async () => {
    await withFolder(
      {
        'postgresql.conf.sample': [
          '#------------------------------------------------------------------------------',
          '# RESOURCE USAGE (except WAL)',
          '#------------------------------------------------------------------------------',
          '',
          '# - Memory -',
          '',
          '#shared_buffers = 128MB\t\t\t# min 128kB',
          '\t\t\t\t\t# (change requires restart)',
          '#huge_pages = try\t\t\t# on, off, or try',
          '\t\t\t\t\t# (change requires restart)',
          '#temp_buffers = 8MB\t\t\t# min 800kB',
          '#work_mem = 4MB\t\t\t\t# min 64kB',
          '#hash_mem_multiplier = 2.0\t\t# 1-1000.0 multiplier on hash table work_mem',
          '#maintenance_work_mem = 64MB\t\t# min 1MB',
          '',
        ].join('\n'),
        'notes.md': 'Shared buffers are memory that PostgreSQL sets aside for its cache.\n',
      },
      async (env) => {
        const [reply] = await conversation(env, 'What is the default value of shared_buffers in PostgreSQL?');
        // The line as the file writes it: commented out, the default.
        expect(reply!.content).toMatch(/^```\n#shared_buffers = 128MB\s+# min 128kB\n```\n/);
        expect(reply!.sources).toEqual(['postgresql.conf.sample']);
        const [workMem] = await conversation(env, 'What is the default work_mem?');
        expect(workMem!.content).toMatch(/^```\n#work_mem = 4MB\s+# min 64kB\n/);
      },
    );
  });

  it("answers a default from a configuration file's '#Default:' label and the line under it (the eighth new-user trial on squid.conf.documented)", async () => {
    await withFolder(
      {
        'squid.conf.documented': [
          '#  TAG: cache_mem\t(bytes)',
          "#\t'cache_mem' specifies the ideal amount of memory to be used",
          '#\tfor in-transit objects, hot objects and negative-cached objects.',
          '#',
          '#\tIf circumstances require, this limit will be exceeded.',
          '#Default:',
          '# cache_mem 256 MB',
          '',
          '#  TAG: maximum_object_size_in_memory\t(bytes)',
          '#\tObjects greater than this size will not be attempted to kept in',
          '#\tthe memory cache.',
          '#Default:',
          '# maximum_object_size_in_memory 512 KB',
          '',
        ].join('\n'),
      },
      async (env) => {
        const [reply] = await conversation(env, 'What is the default cache_mem in Squid?');
        expect(reply!.content).toContain('Default:\n\n```\ncache_mem 256 MB\n```');
        expect(reply!.content).not.toContain('512 KB');
      },
    );
  });

  it("reads a configuration file's settings written as a name and its value (the eighth new-user trial on OpenVPN's server.conf)", async () => {
    await withFolder(
      {
        'server.conf': [
          '# Which local IP address should OpenVPN',
          '# listen on? (optional)',
          ';local a.b.c.d',
          '',
          '# Which TCP/UDP port should OpenVPN listen on?',
          '# If you want to run multiple OpenVPN instances',
          '# on the same machine, use a different port',
          '# number for each one.  You will need to',
          '# open up this port on your firewall.',
          'port 1194',
          '',
          '# TCP or UDP server?',
          ';proto tcp',
          'proto udp',
          '',
          '# "dev tun" will create a routed IP tunnel,',
          '# "dev tap" will create an ethernet tunnel.',
          ';dev tap',
          'dev tun',
          '',
          '# The keepalive directive causes ping-like',
          '# messages to be sent back and forth over',
          '# the link so that each side knows when',
          '# the other side has gone down.',
          '# Ping every 10 seconds, assume that remote',
          '# peer is down if no ping received during',
          '# a 120 second time period.',
          'keepalive 10 120',
          '',
        ].join('\n'),
      },
      async (env) => {
        const [port] = await conversation(env, 'Which port does the OpenVPN server.conf use?');
        expect(port!.content).toContain('port 1194');
        // The comment that names a setting says what the setting under it does (it led nothing before).
        const [keepalive] = await conversation(env, 'What does keepalive 10 120 mean?');
        expect(keepalive!.content).toBe(
          'The keepalive directive causes ping-like messages to be sent back and forth over the link so that each side knows when the other side has gone down.\n\n```\nkeepalive 10 120\n```\n\nSources: [server.conf]',
        );
      },
    );
  });

  it("answers from one row of a table whose columns are aligned by spaces, never the rows run together (the eighth new-user trial on PostgreSQL's errcodes.txt)", async () => {
    const lines = readFileSync(new URL('../fixtures/reading/errcodes-excerpt.txt', import.meta.url), 'utf8');
    await withFolder(
      { 'errcodes.txt': lines, 'notes.md': 'A constraint keeps the data in a table valid.\n' },
      async (env) => {
        const [reply] = await conversation(env, 'Which SQLSTATE error code corresponds to unique_violation?');
        expect(reply!.sources).toEqual(['errcodes.txt']);
        // Its values named by the columns its comment names (`#  sqlstate  E/W/S  errcode_macro_name  spec_name`).
        expect(reply!.content).toMatch(
          /^sqlstate: 23505; E\/W\/S: E; errcode_macro_name: ERRCODE_UNIQUE_VIOLATION; spec_name: unique_violation\./,
        );
        // Its neighbours are other answers.
        expect(reply!.content).not.toMatch(/23503|23514|foreign_key_violation/);
      },
    );
  });

  it("answers from the items of a configuration file's comment, each a line of its own, under the line that introduces them (the tenth new-user trial on redis.conf)", async () => {
    const snapshotting = readFileSync(
      new URL('../fixtures/reading/redis-snapshotting.conf', import.meta.url),
      'utf8',
    );
    await withFolder(
      { 'redis.conf': snapshotting, 'notes.md': 'Backups of the cache run nightly.\n' },
      async (env) => {
        const [reply] = await conversation(env, 'When does Redis save the DB to disk by default?');
        expect(reply!.sources).toEqual(['redis.conf']);
        expect(reply!.content).toMatch(/After 3600 seconds \(an hour\) if at least 1 change was performed/);
        expect(reply!.content).toMatch(
          /After 300 seconds \(5 minutes\) if at least 100 changes were performed/,
        );
        // The section's banner is no label.
        expect(reply!.content).not.toMatch(/####/);
      },
    );
  });

  it('answers an "and …?" that changes the subject from its own words, when the question before does not help', async () => {
    // A folder like a team's: a manual with a subject per page, a Word file, notes in subfolders.
    const { docs } = docsFolder({});
    mkdirSync(join(docs, 'hr'));
    mkdirSync(join(docs, 'eng', 'deep'), { recursive: true });
    writeFileSync(
      join(docs, 'manual.pdf'),
      makePdf([
        ['Welcome to the manual.'],
        ['The fire drill for the west wing staff is held every first Monday.'],
        ['Parking passes are renewed in January.'],
      ]),
    );
    writeFileSync(join(docs, 'scan.pdf'), makePdf([['x']], { scanned: true }));
    for (const name of ['garage.txt', 'garage-2.txt'])
      writeFileSync(join(docs, name), 'The parking garage opens at 6 am on weekdays.\n');
    writeFileSync(
      join(docs, 'hr', 'benefits.docx'),
      await makeDocx([{ heading: 'Benefits' }, { paragraph: 'Parental leave is 16 weeks, fully paid.' }]),
    );
    for (let i = 0; i < 120; i++)
      writeFileSync(
        join(docs, 'eng', 'deep', `note-${i}.md`),
        `# Note ${i}\nService ${i} is owned by team ${i % 7}.\n`,
      );
    const local = await startTestServer({ docsDir: docs, apiKeys: ['main:kb_follow_up_key_0123'] });
    try {
      await local.service.indexer.idle();
      const env = { KB_BASE_URL: local.url, KB_API_KEY: 'kb_follow_up_key_0123' };
      const [first, reply] = await conversation(
        env,
        'When is the fire drill held for the west wing staff?',
        'And parking passes?',
      );
      expect(first!.content).toContain('first Monday');
      expect(reply!.content).toContain('renewed in January');
      expect(reply!.sources).toEqual(['manual.pdf p. 3']);
    } finally {
      await local.close();
    }
  });

  it('starts every answer of the labelled set at a sentence or a row, and never repeats one', async () => {
    const set = join(ROOT, 'bench', 'answers.eval.yaml');
    const questions = parseCases(set, readFileSync(set, 'utf8')).flatMap((c) =>
      c.turns.map((t) => t.question),
    );
    const key = demo.env.KB_API_KEY;
    let answered = 0;
    for (const question of questions) {
      const thread = (await api(demo.server, key, 'POST', '/v1/threads', {})).json.data;
      const reply = (
        await api(demo.server, key, 'POST', `/v1/threads/${thread.id}/messages`, { content: question })
      ).json.data.aiResponse;
      if (!reply.sources.length) continue;
      answered++;
      const body = reply.content.slice(0, reply.content.lastIndexOf('\n\nSources:'));
      expect(body, question).toMatch(/^[A-Z0-9]|^[a-z ]+: /);
      const sentences = body.split(/(?<=[.!?])\s+/);
      expect(new Set(sentences).size, question).toBe(sentences.length);
    }
    expect(answered).toBeGreaterThan(20);
  });
});

describe('a generator that cannot be reached', () => {
  it('is said on the serve console, one line per reply, and the documents answer instead', async () => {
    // A port that was free a moment ago: nothing listens there.
    const dead = `http://127.0.0.1:${await freePort()}/v1`;
    const serve = await startServeProcess(
      dir,
      ['--demo', '--index-delay', '0', '--llm-base-url', dead],
      { KB_SERVE_API_KEYS: 'demo:kb_answers_test' },
      { human: true },
    );
    try {
      const env = { KB_BASE_URL: serve.url, KB_API_KEY: 'kb_answers_test' };
      // The demo's documents are indexed (or failed) before the question: kb files wait, as a script would.
      // Its own timeout, not runKb's 20 s: the demo's scan is read by OCR, slow on a loaded machine.
      const waited = await runKb(['files', 'wait', '--all', '--timeout', '60s'], {
        env,
        configDir: dir,
        timeoutMs: 70_000,
      });
      expect([0, 1]).toContain(waited.code);
      const [reply] = await conversation(env, 'What does error E-4102 mean?');
      expect(reply!.content).toContain('IMAP');
      await expect
        .poll(() => serve.stderr())
        .toMatch(
          new RegExp(
            `warning: generator ${dead.replace(/\./g, '\\.')}: ECONNREFUSED; answered from the documents instead\n`,
          ),
        );
      expect(serve.stderr().match(/generator /g)).toHaveLength(1);
    } finally {
      serve.child.kill('SIGINT');
    }
  }, 90_000);
});
