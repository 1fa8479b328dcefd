import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { itWith } from '../helpers/tools.js';
import { completionScript, FILES } from '../../src/completion/generate.js';
import { buildProgram } from '../../src/program.js';
import type { RunningServer } from '../../src/server/index.js';
import { BIN, ROOT, baseEnv, runKb, tempDir } from '../helpers/cli.js';
import { startTestServer } from '../helpers/server.js';

let server: RunningServer;
let env: Record<string, string>;
let binDir: string;

beforeAll(async () => {
  server = await startTestServer({ demo: true });
  env = { KB_BASE_URL: server.url, KB_API_KEY: server.keys.demo! };
  binDir = tempDir();
  const { symlinkSync } = await import('node:fs');
  symlinkSync(BIN, join(binDir, 'kb'));
});
afterAll(() => server.close());

/** Runs a shell asynchronously (the service lives in this process). */
function shell(cmd: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, {
      env: { ...baseEnv(tempDir(), env), PATH: `${binDir}:${process.env.PATH}` },
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('close', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`${cmd} exited ${code}: ${err}`)),
    );
  });
}

/** Candidates bash offers for a command line ending at the cursor. */
async function bashComplete(line: string): Promise<string[]> {
  const words = line.split(' ');
  const script = `
    source ${JSON.stringify(join(ROOT, 'completions/kb.bash'))}
    COMP_WORDS=(${words.map((w) => JSON.stringify(w)).join(' ')})
    COMP_CWORD=${words.length - 1}
    _kb
    printf '%s\\n' "\${COMPREPLY[@]}"`;
  return (await shell('bash', ['--norc', '--noprofile', '-c', script])).split('\n').filter(Boolean);
}

describe('generated completion scripts', () => {
  it.each(Object.entries(FILES))(
    'completions/%s matches the command tree (run `npm run completions` when it drifts)',
    async (shellName, file) => {
      const committed = readFileSync(join(ROOT, 'completions', file), 'utf8');
      expect(committed).toBe(await completionScript(shellName as keyof typeof FILES));
    },
  );

  it('kb completion <shell> prints the same scripts', async () => {
    const res = await runKb(['completion', 'bash']);
    expect(res.stdout).toBe(readFileSync(join(ROOT, 'completions/kb.bash'), 'utf8'));
    expect((await runKb(['completion', 'tcsh'])).code).toBe(2);
  });
});

describe('bash completion', () => {
  it('completes commands, subcommands, flags and flag values', async () => {
    expect(await bashComplete('kb th')).toEqual(['threads', 'thread']);
    expect(await bashComplete('kb files ')).toEqual(
      expect.arrayContaining(['list', 'get', 'delete', 'wait']),
    );
    expect(await bashComplete('kb threads list --st')).toEqual(['--status']);
    expect(await bashComplete('kb threads list --status ')).toEqual(['OPEN', 'CLOSED', 'ARCHIVED']);
    expect(await bashComplete('kb files list --status C')).toEqual(['COMPLETED']);
    expect(await bashComplete('kb webhooks create --event ')).toEqual([
      'file.indexed',
      'thread.message.created',
    ]);
    expect(await bashComplete('kb --json threads li')).toEqual(['list']);
    // Setting values after config set KEY; files after kb eval; --version only at the root.
    expect(await bashComplete('kb config set format ')).toEqual(['table', 'json', 'jsonl']);
    expect(await bashComplete('kb config set ')).toEqual(['format', 'color', 'timeout', 'retries']);
    expect(await bashComplete(`kb eval ${join(ROOT, 'bench', 'answers.e')}`)).toEqual([
      join(ROOT, 'bench', 'answers.eval.yaml'),
    ]);
    expect(await bashComplete('kb threads list --vers')).toEqual([]);
    expect(await bashComplete('kb --vers')).toEqual(['--version']);
  });

  it('completes ids after every name and alias of a verb that takes one', async () => {
    const threads = (await runKb(['threads', 'list', '--ids'], { env })).stdout.trim().split('\n').sort();
    const files = (await runKb(['files', 'list', '--ids'], { env })).stdout.trim().split('\n').sort();
    for (const line of ['kb threads view thr_', 'kb thread get thr_', 'kb thread view thr_'])
      expect([line, (await bashComplete(line)).sort()]).toEqual([line, threads]);
    for (const line of ['kb files rm file_', 'kb file delete file_'])
      expect([line, (await bashComplete(line)).sort()]).toEqual([line, files]);
  });

  it('completes live ids from a running kb serve --demo', async () => {
    const files = (await runKb(['files', 'list', '--ids'], { env })).stdout.trim().split('\n');
    expect(await bashComplete('kb files delete ')).toEqual(expect.arrayContaining(files));
    const threads = (await runKb(['threads', 'list', '--ids'], { env })).stdout.trim().split('\n');
    expect((await bashComplete('kb threads get thr_')).sort()).toEqual(threads.sort());
  });
});

describe('kb __complete', () => {
  it('prints ids with descriptions, and nothing at all when the service is down', async () => {
    const res = await runKb(['__complete', 'threads'], { env });
    expect(res.stdout.split('\n')[0]).toMatch(/^thr_\w+\t.+ \((OPEN|CLOSED|ARCHIVED)\)$/);
    const started = Date.now();
    const down = await runKb(['__complete', 'files'], { env: { ...env, KB_BASE_URL: 'http://127.0.0.1:9' } });
    expect(down.stdout).toBe('');
    expect(down.stderr).toBe('');
    expect(down.code).toBe(0);
    expect(Date.now() - started).toBeLessThan(3000);
    const hung = await startTestServer({ faults: ['GET /v1/threads hang'] });
    const t0 = Date.now();
    const slow = await runKb(['__complete', 'threads'], {
      env: { KB_BASE_URL: hung.url, KB_API_KEY: Object.values(hung.keys)[0]! },
    });
    expect(slow.stdout).toBe('');
    expect(Date.now() - t0).toBeLessThan(2500);
    await hung.close();
  });

  it('is hidden from help', async () => {
    expect((await runKb(['--help'])).stdout).not.toContain('__complete');
  });
});

describe('zsh and fish completion', () => {
  itWith('zsh')('zsh offers subcommands and live ids', async () => {
    const script = `
      autoload -U compinit && compinit -u -D
      source ${JSON.stringify(join(ROOT, 'completions/_kb'))}
      compadd() { shift $(( \${@[(i)--]} )); print -l -- "$@"; }
      _describe() { local -a list; list=("\${(@P)2}"); print -l -- "\${list[@]}"; }
      words=(kb th); CURRENT=2; _kb
      print -- ---
      words=(kb files delete ''); CURRENT=4; _kb`;
    const out = await shell('zsh', ['-f', '-c', script]);
    const [first, second] = out.split('---\n');
    // Commands with their descriptions.
    expect(first!.trim().split('\n')).toEqual(
      expect.arrayContaining([
        'threads:List, create, read and message chat threads',
        'thread:List, create, read and message chat threads',
      ]),
    );
    const files = (await runKb(['files', 'list', '--ids'], { env })).stdout.trim().split('\n');
    expect(
      second!
        .trim()
        .split('\n')
        .map((l) => l.split(':')[0]),
    ).toEqual(expect.arrayContaining(files));
  });

  itWith('fish')('fish offers subcommands, flag values and live ids', async () => {
    const script = `source ${JSON.stringify(join(ROOT, 'completions/kb.fish'))}
      complete -C 'kb th'
      echo ---
      complete -C 'kb threads list --status '
      echo ---
      complete -C 'kb files delete '`;
    const out = await shell('fish', ['--no-config', '-c', script]);
    const [first, second, third] = out.split('---\n');
    expect(first).toContain('threads\tList, create, read and message chat threads');
    expect(
      second!
        .trim()
        .split('\n')
        .map((l) => l.split('\t')[0])
        .sort(),
    ).toEqual(['ARCHIVED', 'CLOSED', 'OPEN']);
    const files = (await runKb(['files', 'list', '--ids'], { env })).stdout.trim().split('\n');
    expect(
      third!
        .trim()
        .split('\n')
        .map((l) => l.split('\t')[0]),
    ).toEqual(expect.arrayContaining(files));
  });
});

describe('help', () => {
  it('every command has an example in its help', async () => {
    const program = await buildProgram([], { loadAll: true });
    const missing: string[] = [];
    const walk = (command: typeof program, path: string) => {
      for (const sub of command.commands) {
        if ((sub as unknown as { _hidden?: boolean })._hidden) continue;
        const name = `${path} ${sub.name()}`.trim();
        let text = '';
        sub.configureOutput({ writeOut: (s) => (text += s), writeErr: () => {} });
        sub.outputHelp();
        if (!/\$ kb |\$ npm |\$ source /.test(text)) missing.push(name);
        walk(sub, name);
      }
    };
    walk(program, '');
    expect(missing).toEqual([]);
  });

  it('prints the environment, exit-code and formats topics, and README documents the same', async () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const { ENVIRONMENT, EXIT_CODES } = await import('../../src/commands/help/topics.js');
    const environment = (await runKb(['help', 'environment'])).stdout;
    for (const [name] of ENVIRONMENT) {
      expect(environment).toContain(name);
      for (const single of name.split(', ')) expect(readme, `README mentions ${single}`).toContain(single);
    }
    for (const [code, meaning] of EXIT_CODES) expect(readme).toContain(`| ${code} | ${meaning} |`);
    expect((await runKb(['help', 'formats'])).stdout).toContain('--jsonl');
    expect((await runKb(['help', 'nope'])).code).toBe(2);
  });
});
