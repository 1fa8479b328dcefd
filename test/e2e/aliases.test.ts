import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/program.js';
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
