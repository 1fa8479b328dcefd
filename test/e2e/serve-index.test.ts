import {
  appendFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { runKb, runKbOnTTY, tempDir } from '../helpers/cli.js';
import { READER_VERSION } from '../../src/server/ingest/extraction/document-types.js';
import { openDatabase } from '../../src/server/state/database.js';
import { docsFolder } from '../helpers/documents.js';
import { serveRefusal, startServeProcess } from '../helpers/serve-process.js';
import { kbInTmux } from '../helpers/tmux.js';
import { itWith } from '../helpers/tools.js';

const DOCS = {
  'alpha.md': '# Alpha\n\nThe alpha handbook says the quokka budget is reviewed every March.',
  'beta.md': '# Beta\n\nThe beta guide explains how the narwhal rota is drawn up each week.',
  'gamma.md': '# Gamma\n\nGamma notes: the pangolin office opens at nine.',
};

/** Runs `kb serve` until its stderr shows `until`, then stops it with SIGINT; returns its stderr. */
async function serveUntil(dir: string, args: string[], until: RegExp) {
  const serve = await startServeProcess(dir, args, { KB_SERVE_API_KEYS: 'default:kb_index_test' });
  const env = { KB_BASE_URL: serve.url, KB_API_KEY: 'kb_index_test' };
  const deadline = Date.now() + 15_000;
  while (!until.test(serve.stderr())) {
    if (Date.now() > deadline) throw new Error(`kb serve never said ${until}: ${serve.stderr()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    env,
    async stop() {
      const exited = new Promise((resolve) => serve.child.on('exit', resolve));
      serve.child.kill('SIGINT');
      await exited;
      return serve.stderr();
    },
  };
}

const files = async (env: Record<string, string>, dir: string) =>
  JSON.parse((await runKb(['files', 'list', '--json'], { env, configDir: dir })).stdout) as {
    id: string;
    originalFilename: string;
    indexingStatus: string;
  }[];

const ask = async (env: Record<string, string>, dir: string, question: string) => {
  const thread = (await runKb(['threads', 'create', '--ids'], { env, configDir: dir })).stdout.trim();
  return (await runKb(['threads', 'send', thread, question], { env, configDir: dir })).stdout;
};

/** kb serve --json's stderr: a JSON object per line. */
const jsonLines = (stderr: string) =>
  stderr
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as unknown);
/** A start that indexed nothing again: its stderr is empty. */
const NOTHING_INDEXED = /^/;
const quiet = (stderr: string) => expect(stderr).toBe('');

describe('kb serve --docs with --data: the search index across restarts', () => {
  it('keeps the index in the database, indexes only what changed, removes what is gone, and says so on stderr', async () => {
    const { dir, docs, data } = docsFolder(DOCS);
    const args = ['--docs', docs, '--data', data, '--index-delay', '0'];

    let serve = await serveUntil(dir, args, /"event":"indexed"/);
    let stderr = await serve.stop();
    // Piped: one line when indexing settles, nothing while it runs.
    expect(jsonLines(stderr)).toEqual([
      { event: 'indexed', documents: 3, completed: 3, failed: 0, bytes: 206, ms: expect.any(Number) },
    ]);
    expect(readFileSync(data).subarray(0, 16).toString()).toBe('SQLite format 3\0');

    // Unchanged: nothing is indexed again, and it is found at once.
    serve = await serveUntil(dir, args, NOTHING_INDEXED);
    expect(await files(serve.env, dir)).toHaveLength(3);
    expect(await ask(serve.env, dir, 'Who reviews the quokka budget?')).toContain('[alpha.md]');
    quiet(await serve.stop());

    // Touched but the same, changed, removed, added.
    utimesSync(join(docs, 'alpha.md'), new Date(), new Date(Date.now() + 5000));
    appendFileSync(join(docs, 'beta.md'), '\nThe narwhal rota moved to Mondays.');
    rmSync(join(docs, 'gamma.md'));
    writeFileSync(join(docs, 'delta.md'), 'Delta: the axolotl fund closes in June.');
    serve = await serveUntil(dir, args, /"event":"indexed"/);
    const listed = await files(serve.env, dir);
    expect(listed.map((f) => f.originalFilename).sort()).toEqual(['alpha.md', 'beta.md', 'delta.md']);
    expect(await ask(serve.env, dir, 'When does the axolotl fund close?')).toContain('[delta.md]');
    expect(await ask(serve.env, dir, 'When does the narwhal rota happen?')).toContain('Mondays');
    expect(await ask(serve.env, dir, 'When does the pangolin office open?')).not.toContain('gamma.md');
    stderr = await serve.stop();
    expect(jsonLines(stderr)).toEqual([
      {
        event: 'indexed',
        documents: 2,
        completed: 2,
        failed: 0,
        bytes: expect.any(Number),
        ms: expect.any(Number),
      },
    ]);
  }, 60_000);

  it('reads again, at start, the folder files an older kb read (an upgrade reads them better)', async () => {
    const { dir, docs, data } = docsFolder(DOCS);
    const args = ['--docs', docs, '--data', data, '--index-delay', '0'];
    let serve = await serveUntil(dir, args, /"event":"indexed"/);
    await serve.stop();
    // As an older kb left them: read with the reader before this one.
    const db = openDatabase(data);
    const older = db
      .prepare('UPDATE files SET source = replace(source, ?, ?)')
      .run(`"reader":${READER_VERSION}`, `"reader":${READER_VERSION - 1}`);
    db.close();
    expect(older.changes).toBe(3);
    serve = await serveUntil(dir, args, /"event":"indexed"/);
    expect(await ask(serve.env, dir, 'When is the quokka budget reviewed?')).toContain('[alpha.md]');
    const stderr = await serve.stop();
    expect(jsonLines(stderr).at(-1)).toMatchObject({ event: 'indexed', documents: 3, completed: 3 });
    // Read with this version now: the next start reads nothing again.
    serve = await serveUntil(dir, args, NOTHING_INDEXED);
    expect(await files(serve.env, dir)).toHaveLength(3);
    quiet(await serve.stop());
  }, 60_000);
});

describe('kb serve indexing progress on a terminal', () => {
  itWith('tmux')(
    'shows documents done of the total while indexing, then when all are searchable',
    async () => {
      const { dir, docs } = docsFolder(DOCS);
      const term = kbInTmux(
        ['serve', '--port', '0', '--docs', docs, '--index-delay', '1000'],
        { KB_CONFIG_DIR: dir, HOME: dir, TERM: 'xterm-256color', PATH: process.env.PATH },
        { columns: 100, rows: 20 },
      );
      onTestFinished(() => term.close());
      await term.waitFor(/Indexing 0 of 3 documents/);
      const done = await term.waitFor(
        /Indexed 3 documents \(1 kB\) in \d\.\ds; every document is searchable/,
      );
      expect(done).not.toMatch(/Indexing \d+ of/);
      term.keys('C-c');
      // Stopped by Ctrl-C: exit 130, as the exit-code table says.
      await term.waitFor('exit=130');
    },
    30_000,
  );

  itWith('script')(
    'on a terminal that reports no width: no spinner, the line when done',
    async () => {
      // ora would count its lines to clear by a width of 0, and clear lines for ever.
      const { dir, docs } = docsFolder(DOCS);
      const result = await runKbOnTTY(['serve', '--port', '0', '--docs', docs, '--index-delay', '300'], {
        columns: 0,
        configDir: dir,
        timeoutMs: 15_000,
        onSpawn: (child) => {
          let seen = '';
          child.stdout.on('data', (d) => {
            seen += d;
            if (seen.includes('every document is searchable')) child.kill('SIGKILL');
          });
        },
      });
      expect(result.stdout).toMatch(/Indexed 3 documents/);
    },
    30_000,
  );
});

describe('kb serve refuses --docs and --data it cannot use, before storing anything', () => {
  it('says what is wrong in one line, exit 2', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'note.txt'), 'a file');
    mkdirSync(join(dir, 'folder'));
    const kept = ['--data', join(dir, 'kept.db')];
    const cases: [string[], RegExp][] = [
      [['--docs', join(dir, 'handbook'), ...kept], /^error: --docs .*handbook: no such directory\n/],
      [['--docs', join(dir, 'note.txt'), ...kept], /^error: --docs .*note\.txt: not a directory\n/],
      [['--data', join(dir, 'nowhere', 'state.db')], /^error: --data .*state\.db: no directory .*nowhere\n/],
      [['--data', join(dir, 'folder')], /^error: --data .*folder: not a file\n/],
    ];
    for (const [args, message] of cases) {
      const res = await serveRefusal(dir, args);
      expect(res.code, res.stderr).toBe(2);
      expect(res.stderr).toMatch(message);
      expect(res.stdout).toBe('');
    }
    // Nothing was stored by the refused starts.
    expect(existsSync(join(dir, 'kept.db'))).toBe(false);
  });
});
