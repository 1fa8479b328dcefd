import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startServeProcess, type ServeProcess } from '../helpers/serve-process.js';

// V8 sizes the young generation when it creates the heap, so kb serve's flags are given at its
// start: where Node can replace a process with another (process.execve: Node 22.15 and later,
// not Windows), kb serve starts itself again with them, in the same process.
const canRestart =
  typeof (process as { execve?: unknown }).execve === 'function' && process.platform !== 'win32';
const cmdline = (pid: number) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
const environ = (pid: number) => readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').filter(Boolean);

describe('kb serve’s V8 flags at start', () => {
  let serve: ServeProcess | undefined;
  afterEach(() => {
    serve?.child.kill('SIGTERM');
    serve = undefined;
  });
  const start = async (args: string[] = [], env: Record<string, string> = {}) => {
    const dir = mkdtempSync(join(tmpdir(), 'kb-start-flags-'));
    serve = await startServeProcess(dir, args, { KB_SERVE_API_KEYS: 'default:kb_start_flags_key', ...env });
    const res = await fetch(`${serve.url}/v1/threads?limit=1`, {
      headers: { authorization: 'Bearer kb_start_flags_key' },
    });
    expect(res.status).toBe(200);
    return cmdline(serve.child.pid!);
  };

  it(`are on its command line ${canRestart ? '(this Node restarts it)' : '(this Node cannot restart it: set at run time)'}`, async () => {
    const args = await start();
    const given = args.includes('--max-semi-space-size=4') && args.includes('--heap-growing-percent=30');
    expect(given).toBe(canRestart);
    expect(args.filter((a) => a.startsWith('--max-semi-space-size'))).toHaveLength(canRestart ? 1 : 0);
    expect(args.slice(-4)).toEqual(['serve', '--port', '0', '--json']);
  });

  // glibc's allocator reads its settings only at a process's start: given with the flags.
  it(`come with the allocator's arenas held to two${canRestart ? '' : ' (not on this Node)'}`, async () => {
    await start();
    expect(environ(serve!.child.pid!).includes('MALLOC_ARENA_MAX=2')).toBe(canRestart);
    serve!.child.kill('SIGTERM');
    await start([], { MALLOC_ARENA_MAX: '8' });
    expect(environ(serve!.child.pid!)).toContain('MALLOC_ARENA_MAX=8');
  });

  it('include --low-memory’s', async () => {
    const args = await start(['--low-memory']);
    expect(args.includes('--optimize-for-size')).toBe(canRestart);
  });

  it('leave a flag the user gave Node alone', async () => {
    const args = await start([], { NODE_OPTIONS: '--max-semi-space-size=8' });
    expect(args.some((a) => a.startsWith('--max-semi-space-size'))).toBe(false);
    expect(args.includes('--heap-growing-percent=30')).toBe(canRestart);
  });

  // On a Node that cannot start kb serve again, --max-semi-space-size set at run time does not
  // take, and V8 grew kb serve's young generation to 32 MB while it indexed (a fifth of its memory
  // at 20,000 documents); on every Node it stays within the 4 MB semi-spaces the flag asks for.
  it('hold its young generation while it indexes, on every Node', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kb-young-generation-'));
    const docs = join(dir, 'docs');
    mkdirSync(docs);
    const words = Array.from({ length: 4000 }, (_, i) => `w${(i * 7919) % 100000}`);
    for (let d = 0; d < 1500; d++) {
      const text = Array.from({ length: 450 }, (_, i) => words[(d * 31 + i * i) % words.length]).join(' ');
      writeFileSync(join(docs, `note-${d}.md`), `# Note ${d}\n\n${text}.\n`);
    }
    serve = await startServeProcess(dir, ['--docs', docs, '--index-delay', '0'], {
      KB_SERVE_API_KEYS: 'default:kb_start_flags_key',
    });
    const running = serve;
    await expect.poll(() => running.stderr().includes('"event":"indexed"'), { timeout: 60_000 }).toBe(true);
    const health = (await (await fetch(`${running.url}/_kb/health`)).json()) as {
      data: { youngGeneration: number };
    };
    expect(health.data.youngGeneration).toBeGreaterThan(0);
    expect(health.data.youngGeneration).toBeLessThanOrEqual(9 * 1024 * 1024);
  }, 90_000);
});
