import { describe, expect, it, vi } from 'vitest';
import { flagsMissing, restartWithFlags } from '../../src/commands/serve/start-flags.js';

const WANTED = ['--heap-growing-percent=30', '--max-semi-space-size=4'];

describe('flagsMissing', () => {
  it('names the flags the process was not started with', () => {
    expect(flagsMissing(WANTED, [])).toEqual(WANTED);
    expect(flagsMissing(WANTED, ['--heap-growing-percent=30'])).toEqual(['--max-semi-space-size=4']);
    expect(flagsMissing(WANTED, WANTED)).toEqual([]);
  });

  it('leaves a flag the user gave, with any value, on the command line or in NODE_OPTIONS', () => {
    expect(flagsMissing(WANTED, ['--max_semi_space_size=16'])).toEqual(['--heap-growing-percent=30']);
    expect(flagsMissing(WANTED, [], '--inspect  --max-semi-space-size=8')).toEqual([
      '--heap-growing-percent=30',
    ]);
    expect(flagsMissing(WANTED, ['--enable-source-maps'], ' ')).toEqual(WANTED);
  });
});

describe('restartWithFlags', () => {
  const proc = (over: Partial<Record<string, unknown>> = {}) =>
    ({
      platform: 'linux',
      execPath: '/usr/bin/node',
      execArgv: ['--enable-source-maps'],
      argv: ['/usr/bin/node', '/opt/kb/bin/kb.cjs', 'serve', '--port', '0'],
      env: { NODE_OPTIONS: '--max-semi-space-size=8' },
      ...over,
    }) as unknown as NodeJS.Process;

  it('starts the same command again with the missing flags ahead of Node’s own', () => {
    const execve = vi.fn();
    restartWithFlags(WANTED, proc({ execve }));
    expect(execve).toHaveBeenCalledWith(
      '/usr/bin/node',
      [
        '/usr/bin/node',
        '--heap-growing-percent=30',
        '--enable-source-maps',
        '/opt/kb/bin/kb.cjs',
        'serve',
        '--port',
        '0',
      ],
      { NODE_OPTIONS: '--max-semi-space-size=8' },
    );
  });

  it('returns where nothing is missing, Node cannot (no execve, Windows) or the system refuses', () => {
    const execve = vi.fn();
    restartWithFlags(WANTED, proc({ execve, execArgv: WANTED, env: {} }));
    restartWithFlags(WANTED, proc({ execve, platform: 'win32' }));
    expect(execve).not.toHaveBeenCalled();
    expect(() => restartWithFlags(WANTED, proc())).not.toThrow();
    const refused = vi.fn(() => {
      throw Object.assign(new Error('EACCES'), { code: 'EACCES' });
    });
    expect(() => restartWithFlags(WANTED, proc({ execve: refused }))).not.toThrow();
    expect(refused).toHaveBeenCalledOnce();
  });

  it('gives the restarted process the environment it adds, where the user has not set it', () => {
    const execve = vi.fn();
    restartWithFlags(WANTED, proc({ execve }), { MALLOC_ARENA_MAX: '2' });
    expect(execve.mock.calls[0]![2]).toEqual({
      NODE_OPTIONS: '--max-semi-space-size=8',
      MALLOC_ARENA_MAX: '2',
    });
    const theirs = vi.fn();
    restartWithFlags(WANTED, proc({ execve: theirs, env: { MALLOC_ARENA_MAX: '8' } }), {
      MALLOC_ARENA_MAX: '2',
    });
    expect(theirs.mock.calls[0]![2]).toEqual({ MALLOC_ARENA_MAX: '8' });
  });
});
