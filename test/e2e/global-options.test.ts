import { describe, expect, it } from 'vitest';
import { runKb, tempDir } from '../helpers/cli.js';
import { demoServerForFile } from '../helpers/server.js';

const demo = demoServerForFile();

describe('global options before the command, in every spelling', () => {
  it('-p NAME, -pNAME, -p=NAME, --profile NAME and --profile=NAME each run the verb with that profile', async () => {
    const configDir = tempDir();
    const login = await runKb(
      ['auth', 'login', '--profile', 'work', '--with-key', '--base-url', demo.server.url],
      {
        configDir,
        input: `${demo.env.KB_API_KEY}\n`,
      },
    );
    expect(login.code).toBe(0);
    // The current profile is another workspace's: only the profile named on the command line
    // lists the demo workspace's thread.
    const other = await runKb(
      ['auth', 'login', '--profile', 'other', '--with-key', '--base-url', demo.server.url],
      {
        configDir,
        input: `${demo.server.keys.acme}\n`,
      },
    );
    expect(other.code).toBe(0);
    expect((await runKb(['auth', 'switch', 'other'], { configDir })).code).toBe(0);
    const list = ['threads', 'list', '--ids', '--limit', '1'];
    const expected = (await runKb(list, { env: demo.env })).stdout;
    expect(expected).toMatch(/^thr_\w+\n$/);
    expect((await runKb(list, { configDir })).stdout).not.toBe(expected);
    const spellings = [['-p', 'work'], ['-pwork'], ['-p=work'], ['--profile', 'work'], ['--profile=work']];
    const value = (flag: string, v: string) => [[flag, v], [`${flag}=${v}`]];
    const others = [
      ...value('--base-url', demo.server.url),
      ...value('--timeout', '30s'),
      ...value('--retries', '0'),
      ['--debug'],
      ['--no-color'],
    ];
    const runs = spellings.flatMap((profile) => [
      profile,
      ...others.flatMap((option) => [
        [...profile, ...option],
        [...option, ...profile],
      ]),
    ]);
    for (let i = 0; i < runs.length; i += 4)
      await Promise.all(
        runs.slice(i, i + 4).map(async (globals) => {
          const res = await runKb([...globals, ...list], { configDir });
          expect([globals.join(' '), res.code, res.stderr.split('\n')[0]]).toEqual([
            globals.join(' '),
            0,
            expect.not.stringMatching(/^error/),
          ]);
          expect(res.stdout).toBe(expected);
        }),
      );
  }, 120_000);
});
