import { describe, expect, it } from 'vitest';
import type { Command } from 'commander';
import { buildProgram, configureTree } from '../../src/program.js';
import { runKb } from '../helpers/cli.js';

/** Every command path of the tree, with each name and alias it can be reached by. */
async function commandPaths(): Promise<{ path: string[]; aliases: string[][] }[]> {
  const program = await buildProgram([], { loadAll: true });
  const paths: { path: string[]; aliases: string[][] }[] = [];
  for (const noun of program.commands) {
    if (noun.name() === 'help') continue;
    const nounNames = [noun.name(), ...noun.aliases()];
    paths.push({ path: [noun.name()], aliases: nounNames.slice(1).map((a) => [a]) });
    for (const verb of noun.commands) {
      // Each alias once: the noun's with the verb's name, the verb's with the noun's name.
      const aliases = [
        ...nounNames.slice(1).map((n) => [n, verb.name()]),
        ...verb.aliases().map((v) => [noun.name(), v]),
      ];
      paths.push({ path: [noun.name(), verb.name()], aliases });
    }
  }
  return paths;
}

describe('every advertised name works', () => {
  it('runs --help through every alias of every command and verb, the same help as by its name', async () => {
    const paths = await commandPaths();
    const withAliases = paths.filter((p) => p.aliases.length);
    // The nouns' aliases are there (kb thread, kb file, kb user, kb webhook), and verbs' (ls, rm, …).
    expect(withAliases.map((p) => p.path.join(' '))).toEqual(
      expect.arrayContaining(['threads', 'files', 'users', 'webhooks', 'threads list', 'files delete']),
    );
    // Four at a time: each is a process of its own.
    for (let i = 0; i < withAliases.length; i += 4)
      await Promise.all(
        withAliases.slice(i, i + 4).map(async ({ path, aliases }) => {
          const byName = await runKb([...path, '--help']);
          expect([path.join(' '), byName.code]).toEqual([path.join(' '), 0]);
          for (const alias of aliases) {
            const byAlias = await runKb([...alias, '--help']);
            expect([alias.join(' '), byAlias.code, byAlias.stdout]).toEqual([
              alias.join(' '),
              0,
              byName.stdout,
            ]);
          }
          const help = await runKb(['help', ...aliases[0]!]);
          expect([`help ${aliases[0]!.join(' ')}`, help.stdout]).toEqual([
            `help ${aliases[0]!.join(' ')}`,
            byName.stdout,
          ]);
        }),
      );
  }, 120_000);

  it('runs a verb through its noun alias (kb thread list), as gh does', async () => {
    const res = await runKb(['thread', 'list', '--limit', '1'], {
      env: { KB_BASE_URL: 'http://127.0.0.1:9', KB_API_KEY: 'kb_alias_key', KB_RETRIES: '0' },
    });
    // It ran the verb: the request went out (and found no service), not "unknown command".
    expect(res.stderr).not.toMatch(/unknown command/);
    expect(res.stderr).toMatch(/^error: cannot connect/);
  });
});

describe('help like gh', () => {
  it('lists every flag an example uses in the help of the command it runs: its own, then the global ones', async () => {
    const tree = await commandPaths();
    const helps = new Map<string, string>();
    for (let i = 0; i < tree.length; i += 4)
      await Promise.all(
        tree.slice(i, i + 4).map(async ({ path }) => {
          const { stdout, code } = await runKb([...path, '--help']);
          expect([path.join(' '), code]).toEqual([path.join(' '), 0]);
          helps.set(path.join(' '), stdout);
          if (path.length > 1) {
            expect(stdout).toContain('Global Options:');
            expect(stdout.split('Examples:')[0]).not.toMatch(/--version/);
          }
        }),
      );
    /** The command an example runs: the longest path its words start with. */
    const commandOf = (words: string[]) =>
      [words.slice(0, 2).join(' '), words[0]!].find((candidate) => helps.has(candidate));
    const missing: string[] = [];
    let examples = 0;
    for (const help of helps.values()) {
      const after = help.split(/\nExamples:\n/)[1] ?? '';
      for (const line of after.split('\n').filter((l) => l.trim().startsWith('$ kb'))) {
        // Each kb command of the line (a pipe may hold two), without comments.
        for (const part of line
          .replace(/^\s*\$\s*/, '')
          .split('#')[0]!
          .split(/\s\|\s/)) {
          const words = part.trim().split(/\s+/);
          if (words[0] !== 'kb') continue;
          examples++;
          const path = commandOf(words.slice(1).filter((w) => !w.startsWith('-')));
          if (!path) {
            missing.push(`${part.trim()}: no such command`);
            continue;
          }
          const listed = helps.get(path)!.split(/\nExamples:\n/)[0]!;
          for (const [flag] of part.matchAll(/(?<=\s)--?[a-zA-Z][\w-]*/g))
            if (!new RegExp(`(^|[\\s,])${flag}([\\s,=<]|$)`, 'm').test(listed))
              missing.push(`kb ${path}: ${flag}`);
        }
      }
    }
    expect(examples).toBeGreaterThan(50);
    expect(missing).toEqual([]);
  }, 120_000);
});

describe('help asked for is a success, as gh does', () => {
  it("`kb help NOUN` and `kb NOUN` alone print the noun's help on stdout and exit 0; unknown commands stay errors", async () => {
    const program = await buildProgram([], { loadAll: true });
    const nouns = program.commands.filter((c) => c.commands.length).map((c) => c.name());
    expect(nouns).toEqual(expect.arrayContaining(['threads', 'files', 'webhooks', 'auth']));
    const asked = [[], ['help'], ...nouns.flatMap((noun) => [[noun], ['help', noun]])];
    for (let i = 0; i < asked.length; i += 4)
      await Promise.all(
        asked.slice(i, i + 4).map(async (args) => {
          const byFlag = await runKb([...args.filter((a) => a !== 'help'), '--help']);
          const res = await runKb(args);
          expect([args.join(' '), res.code, res.stderr, res.stdout]).toEqual([
            args.join(' '),
            0,
            '',
            byFlag.stdout,
          ]);
        }),
      );
    for (const args of [['bogus'], ['threads', 'bogus'], ['help', 'bogus']]) {
      const res = await runKb(args);
      expect([args.join(' '), res.code, res.stdout]).toEqual([args.join(' '), 2, '']);
    }
  }, 120_000);
});

describe('each flag once in a help', () => {
  it("a verb option of a global option's name (files wait --timeout) hides the global one in its help", async () => {
    const program = await buildProgram([], { loadAll: true });
    configureTree(program, { out: () => {}, err: () => {} });
    const twice: string[] = [];
    const walk = (command: Command, path: string) => {
      const flags = [...command.helpInformation().matchAll(/^ {2}(?:-\w, )?(--[\w-]+)/gm)].map((m) => m[1]!);
      for (const flag of new Set(flags.filter((f, i) => flags.indexOf(f) !== i)))
        twice.push(`${path} ${flag}`);
      for (const sub of command.commands) walk(sub, `${path} ${sub.name()}`);
    };
    walk(program, 'kb');
    expect(twice).toEqual([]);
    const wait = program.commands
      .find((c) => c.name() === 'files')!
      .commands.find((c) => c.name() === 'wait')!;
    expect(wait.helpInformation()).toMatch(/--timeout <duration> +give up after this long/);
  });
});

describe('a noun’s help', () => {
  it('lists every alias of each verb, not only the first', async () => {
    const program = await buildProgram([], { loadAll: true });
    for (const noun of program.commands) {
      if (noun.name() === 'help') continue;
      let help = '';
      configureTree(noun, { out: (s) => (help += s), err: () => {} });
      noun.outputHelp();
      for (const verb of noun.commands)
        if (verb.name() !== 'help')
          expect(help, `${noun.name()} ${verb.name()}`).toContain(
            `  ${[verb.name(), ...verb.aliases()].join('|')} `,
          );
    }
    const { stdout } = await runKb(['threads', '--help']);
    expect(stdout).toMatch(/\n {2}get\|view\|show \[options\] <id> +show a thread/);
    // Help is worded as kb's own says it, in every command's.
    expect(stdout).toMatch(/\n {2}-h, --help +show help\n/);
    expect(stdout).toMatch(/\n {2}help \[command\] +show help for a command\n/);
    expect((await runKb(['threads', 'send', '--help'])).stdout).toMatch(/\n {2}-h, --help +show help\n/);
  });
});
