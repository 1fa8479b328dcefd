import { describe, expect, it } from 'vitest';
import { runKb, runKbOnTTY } from '../helpers/cli.js';
import { startTestServer } from '../helpers/server.js';

const RED_ERROR = '\u001b[31merror:\u001b[39m ';
const dim = (text: string) => `\u001b[2m${text}\u001b[22m`;

describe("commander's usage errors in kb's own format", () => {
  it('one error line and a hint naming a canonical command, option or --help; exit 2, nothing on stdout', async () => {
    const cases: [string[], string, string][] = [
      [['thraeds'], "unknown command 'thraeds'", 'did you mean `kb threads`?'],
      // the alias `thread` is closer; the command is `threads`
      [['thred'], "unknown command 'thred'", 'did you mean `kb threads`?'],
      [['threads', 'lst'], "unknown command 'lst'", 'did you mean `kb threads list`?'],
      [['threads', 'list', '--limt', '3'], "unknown option '--limt'", 'did you mean `--limit`?'],
      [['zzzzzz'], "unknown command 'zzzzzz'", 'run `kb --help` for usage'],
      [['threads', 'zzzzzz'], "unknown command 'zzzzzz'", 'run `kb threads --help` for usage'],
      [['--bogus'], "unknown option '--bogus'", 'run `kb --help` for usage'],
      // Words of a message or a query that start with '-' are read as options: `--` says they are words.
      [
        ['threads', 'send', 'thr_1', 'What', 'does', '-maxdepth', 'do?'],
        "unknown option '-maxdepth'",
        "words that start with '-' go after `--`: `kb threads send thr_1 What does -- -maxdepth 'do?'`",
      ],
      [
        ['search', '--limit', '3', 'find', '-mtime'],
        "unknown option '-mtime'",
        "words that start with '-' go after `--`: `kb search --limit 3 find -- -mtime`",
      ],
      [['help', 'thraeds'], 'no help for "thraeds"', 'did you mean `kb help threads`?'],
      [['help', 'threads', 'lst'], 'no help for "threads lst"', 'did you mean `kb help threads list`?'],
      [['help', 'exit-code'], 'no help for "exit-code"', 'did you mean `kb help exit-codes`?'],
      [
        ['help', 'zzzzzz'],
        'no help for "zzzzzz"',
        'topics: environment, exit-codes, formats; or a command name',
      ],
      [
        ['threads', 'list', '--limit', 'abc'],
        "option '-L, --limit <n>' argument 'abc' is invalid. expected a whole number of 1 or more",
        'run `kb threads list --help` for usage',
      ],
    ];
    for (const [args, error, hint] of cases) {
      const res = await runKb(args);
      expect({ args, code: res.code, stdout: res.stdout, stderr: res.stderr }).toEqual({
        args,
        code: 2,
        stdout: '',
        stderr: `error: ${error}\nhint: ${hint}\n`,
      });
    }
  }, 60_000);

  it('a question given where a thread id goes: one line and a hint, exit 2, before any request', async () => {
    // A README check: `kb chat "What does grep do?"` said the thread was not found.
    const env = { KB_BASE_URL: 'http://127.0.0.1:9', KB_API_KEY: 'kb_never_sent' };
    const res = await runKb(['chat', 'What does grep do?'], { env });
    expect({ code: res.code, stdout: res.stdout, stderr: res.stderr }).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'error: no thread id: "What does grep do?" is a message\nhint: start `kb chat` and type it there, or pipe it in: `echo "How much is Growth?" | kb chat`\n',
    });
  });

  it('an empty id: one line and a hint, exit 2, before any request', async () => {
    // A service that is never reached: the id is refused first.
    const res = await runKb(['threads', 'send', '', 'hello'], {
      env: { KB_BASE_URL: 'http://127.0.0.1:9', KB_API_KEY: 'kb_never_sent' },
    });
    expect({ code: res.code, stdout: res.stdout, stderr: res.stderr }).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'error: invalid id ""\nhint: an id is one of those a list shows (`kb threads list`, `kb files list`): not empty, ".", ".." nor with control characters\n',
    });
  });

  it('with --json, the same error and hint as one JSON object', async () => {
    const res = await runKb(['thred', '--json']);
    expect([res.code, res.stdout]).toEqual([2, '']);
    expect(JSON.parse(res.stderr)).toEqual({
      error: {
        code: 'usage',
        message: "unknown command 'thred'",
        hint: 'did you mean `kb threads`?',
        exitCode: 2,
      },
    });
  });

  it('are coloured on a terminal as a request error is, and not with NO_COLOR', async () => {
    const typo = await runKbOnTTY(['thraeds']);
    expect([typo.code, typo.stdout]).toEqual([
      2,
      `${RED_ERROR}unknown command 'thraeds'\n${dim('hint: did you mean `kb threads`?')}\n`,
    ]);
    const stopped = await startTestServer();
    await stopped.close();
    const request = await runKbOnTTY(['threads', 'list', '--retries', '0'], {
      env: { KB_BASE_URL: stopped.url, KB_API_KEY: 'kb_x' },
    });
    expect([request.code, request.stdout.startsWith(RED_ERROR)]).toEqual([5, true]);
    const plain = await runKbOnTTY(['threads', 'list', '--limt', '3'], { env: { NO_COLOR: '1' } });
    expect(plain.stdout).toBe("error: unknown option '--limt'\nhint: did you mean `--limit`?\n");
    const flag = await runKbOnTTY(['--no-color', 'thraeds']);
    expect(flag.stdout).toBe("error: unknown command 'thraeds'\nhint: did you mean `kb threads`?\n");
  });

  it('piped, they are not coloured unless FORCE_COLOR asks', async () => {
    expect((await runKb(['thraeds'])).stderr).not.toContain('\u001b[');
    const forced = await runKb(['thraeds'], { env: { FORCE_COLOR: '1' } });
    expect(forced.stderr.startsWith(RED_ERROR)).toBe(true);
  });
});
