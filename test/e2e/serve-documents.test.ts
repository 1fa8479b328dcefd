import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { runKb, tempDir } from '../helpers/cli.js';
import { makeDocx, makePdf } from '../helpers/documents.js';
import { type ServeProcess, startServeProcess } from '../helpers/serve-process.js';

const KEY = 'kb_documents_test_key';
const ONE_PIXEL_PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
let serving: ServeProcess | undefined;
afterEach(() => {
  serving?.child.kill('SIGKILL');
  serving = undefined;
});

/** A company handbook as people keep one: several formats, a subfolder, a scanned PDF, hidden files. */
async function handbook(): Promise<{ dir: string; docs: string }> {
  const dir = tempDir();
  const docs = join(dir, 'handbook');
  mkdirSync(join(docs, 'hr'), { recursive: true });
  mkdirSync(join(docs, '.git'));
  writeFileSync(
    join(docs, 'manual.pdf'),
    makePdf([
      ['Orbit operations manual.', 'This manual describes the appliance.'],
      ['Installation needs 4 GB of memory and a static address.'],
      ['The backup runs nightly at 2 am and is kept for 30 days.'],
    ]),
  );
  writeFileSync(join(docs, 'scan.pdf'), makePdf([['x'], ['y']], { scanned: true }));
  writeFileSync(
    join(docs, 'hr', 'benefits.docx'),
    await makeDocx([
      { heading: 'Benefits' },
      { paragraph: 'Parental leave is sixteen weeks at full pay.' },
      {
        table: [
          ['Plan', 'Monthly price'],
          ['Dental cover', '12 dollars'],
        ],
      },
    ]),
  );
  writeFileSync(
    join(docs, 'canteen.html'),
    '<html><head><title>Canteen &amp; caf&eacute;</title><script>var token = "js-secret";</script></head><body><!-- draft: remove the pastries --><p>The canteen serves un<b>believ</b>able soup &ndash; every weekday&hellip;</p></body></html>',
  );
  writeFileSync(
    join(docs, 'sla.csv'),
    'priority,first response,resolution\nUrgent,"30 minutes, day and night",4 hours\nLow,2 days,2 weeks\n',
  );
  writeFileSync(
    join(docs, 'parking.txt'),
    Buffer.from('Parking for visitors is at the caf\xe9 entrance.', 'latin1'),
  );
  writeFileSync(join(docs, '.env'), 'SECRET=hidden-file-text');
  writeFileSync(join(docs, '.git', 'config'), '[core] hidden-folder-text');
  return { dir, docs };
}

/** A folder `docs` in a new temporary directory, holding `files`. */
function docsFolder(files: Record<string, string>): { dir: string; docs: string } {
  const dir = tempDir();
  const docs = join(dir, 'docs');
  mkdirSync(docs);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(docs, name), text);
  return { dir, docs };
}

async function serve(dir: string, args: string[], options: { human?: boolean } = {}) {
  serving = await startServeProcess(
    dir,
    ['--index-delay', '0', ...args],
    { KB_SERVE_API_KEYS: `default:${KEY}` },
    options,
  );
  return serving;
}

async function until(serve: ServeProcess, pattern: RegExp, ms = 15_000): Promise<string> {
  const deadline = Date.now() + ms;
  while (!pattern.test(serve.stderr())) {
    if (Date.now() > deadline) throw new Error(`kb serve never said ${pattern}: ${serve.stderr()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return serve.stderr();
}

/** kb serve's stderr with --json: one event a line. */
function jsonLines(stderr: string): Record<string, unknown>[] {
  return stderr
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

function kb(serve: ServeProcess, dir: string) {
  const env = { KB_BASE_URL: serve.url, KB_API_KEY: KEY };
  return {
    run: (args: string[]) => runKb(args, { env, configDir: dir }),
    async files() {
      const { stdout } = await runKb(['files', 'list', '--json', '--limit', '100'], { env, configDir: dir });
      return JSON.parse(stdout) as { id: string; originalFilename: string; indexingStatus: string }[];
    },
    async ask(question: string) {
      const thread = (await runKb(['threads', 'create', '--ids'], { env, configDir: dir })).stdout.trim();
      const { stdout } = await runKb(['threads', 'send', thread, question, '--json'], {
        env,
        configDir: dir,
      });
      return (JSON.parse(stdout) as { aiResponse: { content: string; sources: string[] } }).aiResponse;
    },
  };
}

describe('kb serve --docs on a real folder', () => {
  it('indexes PDF, Word, HTML, CSV and Latin-1 text in subfolders, cites PDF pages, and names what failed', async () => {
    const { dir, docs } = await handbook();
    const server = await serve(dir, ['--docs', docs], { human: true });
    // The scan is read by OCR (it finds nothing): seconds on a loaded machine.
    const stderr = await until(server, /^Indexed /m, 90_000);
    expect(stderr).toBe(
      '  scan.pdf: no_text: 2 pages, no text layer, and OCR recognised no text\n' +
        `Indexed 5 of 6 documents (${/\((\d+ kB)\)/.exec(stderr)![1]}) in ${/ in (\S+);/.exec(stderr)![1]}; 1 failed: kb files list --status FAILED\n`,
    );
    const client = kb(server, dir);
    const files = await client.files();
    expect(Object.fromEntries(files.map((f) => [f.originalFilename, f.indexingStatus]))).toEqual({
      'manual.pdf': 'COMPLETED',
      'scan.pdf': 'FAILED',
      'hr/benefits.docx': 'COMPLETED',
      'canteen.html': 'COMPLETED',
      'sla.csv': 'COMPLETED',
      'parking.txt': 'COMPLETED',
    });

    const memory = await client.ask('How much memory does the installation need?');
    expect(memory.content).toMatch(/^Installation needs 4 GB of memory/);
    expect(memory.sources).toEqual(['manual.pdf p. 2']);
    expect(memory.content).toContain('Sources: [manual.pdf p. 2]');
    expect((await client.ask('How long are backups kept?')).sources).toEqual(['manual.pdf p. 3']);
    const leave = await client.ask('How long is parental leave?');
    expect(leave).toMatchObject({ sources: ['hr/benefits.docx'] });
    expect(leave.content).toContain('sixteen weeks');
    expect((await client.ask('What does dental cover cost per month?')).content).toContain(
      'Plan: Dental cover; Monthly price: 12 dollars.',
    );
    expect((await client.ask('What is the first response for urgent tickets?')).content).toContain(
      'first response: 30 minutes, day and night',
    );
    const soup = await client.ask('What does the canteen serve?');
    expect(soup.content).toContain('unbelievable soup – every weekday…');
    expect(soup.content).not.toMatch(/js-secret|pastries/);
    expect((await client.ask('Where is visitor parking?')).content).toContain('café entrance');
    expect((await client.ask('hidden-file-text hidden-folder-text')).sources).toEqual([]);

    const scan = files.find((f) => f.originalFilename === 'scan.pdf')!;
    const detail = JSON.parse((await client.run(['files', 'get', scan.id, '--json'])).stdout);
    expect(detail.indexingError.code).toBe('no_text');
  }, 150_000);

  it('reads files of no known extension as text when they are (README, changelog, a .gz of one), and fails binary ones as unsupported_type', async () => {
    const { dir, docs } = docsFolder({
      README: 'Orbit\n=====\n\nOrbit keeps the badge readers of an office in sync.\n',
      'README.Debian': 'On Debian, the orbit service reads its settings from /etc/orbit/orbit.conf.\n',
      changelog: 'orbit (2.1) stable\n\n  * The sync interval now defaults to 45 seconds.\n',
    });
    // A PNG saved without its extension, a program, and a compressed changelog (as Debian ships them).
    writeFileSync(join(docs, 'logo'), Buffer.from(ONE_PIXEL_PNG, 'base64'));
    writeFileSync(join(docs, 'orbitd'), readFileSync('/bin/true'));
    writeFileSync(
      join(docs, 'changelog.Debian.gz'),
      gzipSync('orbit (2.1-1) unstable\n\n  * Packaged for Debian by the kiosk team.\n'),
    );
    const server = await serve(dir, ['--docs', docs]);
    const lines = jsonLines(await until(server, /"event":"indexed"/));
    expect(lines.filter((l) => l.event === 'file.failed').map((l) => [l.name, l.code])).toEqual([
      ['logo', 'unsupported_type'],
      ['orbitd', 'unsupported_type'],
    ]);
    expect(lines.at(-1)).toMatchObject({ event: 'indexed', documents: 6, completed: 4, failed: 2 });
    const client = kb(server, dir);
    const listed = (await client.files()) as unknown as { originalFilename: string; mimeType: string }[];
    expect(Object.fromEntries(listed.map((f) => [f.originalFilename, f.mimeType]))).toEqual({
      README: 'text/plain',
      'README.Debian': 'text/plain',
      changelog: 'text/plain',
      'changelog.Debian.gz': 'application/gzip',
      logo: 'application/octet-stream',
      orbitd: 'application/octet-stream',
    });
    const settings = await client.ask('Where does the orbit service read its settings from on Debian?');
    expect(settings.sources).toEqual(['README.Debian']);
    expect(settings.content).toContain('/etc/orbit/orbit.conf');
    expect((await client.ask('What does the sync interval default to?')).content).toContain('45 seconds');
    expect((await client.ask('Who packaged orbit for Debian?')).sources).toEqual(['changelog.Debian.gz']);
  }, 60_000);

  it('never follows a link out of the folder: the database with every API key stays unread', async () => {
    const { dir, docs } = docsFolder({ 'real.md': 'The office opens at nine.' });
    const data = join(dir, 'state.db');
    symlinkSync(data, join(docs, 'keys.txt'));
    symlinkSync('/etc/passwd', join(docs, 'passwd.txt'));
    symlinkSync('/proc/self/environ', join(docs, 'environ.txt'));
    symlinkSync(join(docs, 'real.md'), join(docs, 'alias.md'));
    symlinkSync(docs, join(docs, 'loop'));
    execFileSync('mkfifo', [join(docs, 'pipe.txt')]);
    const server = await serve(dir, ['--docs', docs, '--data', data]);
    const lines = jsonLines(await until(server, /"event":"indexed"/));
    expect(lines.filter((l) => l.event === 'file.failed').map((l) => [l.name, l.code])).toEqual([
      ['environ.txt', 'outside_folder'],
      ['keys.txt', 'outside_folder'],
      ['passwd.txt', 'outside_folder'],
      ['pipe.txt', 'not_regular'],
    ]);
    expect(lines.at(-1)).toMatchObject({ event: 'indexed', documents: 5, completed: 1, failed: 4 });
    const client = kb(server, dir);
    expect((await client.files()).map((f) => f.originalFilename).sort()).toEqual([
      'environ.txt',
      'keys.txt',
      'passwd.txt',
      'pipe.txt',
      'real.md',
    ]);
    for (const question of [`What is the key ${KEY}?`, 'root:x:0:0 bin bash', 'workspace key apiKey']) {
      const answer = await client.ask(question);
      expect(answer.content).not.toContain(KEY);
      expect(answer.content).not.toContain('root:x');
      expect(answer.sources).not.toContain('keys.txt');
    }
  }, 60_000);

  it('never indexes its own database (nor its -wal, -shm) inside --docs (it would index itself and grow without end)', async () => {
    const { dir, docs } = docsFolder({ 'a.md': 'Alpha notes.' });
    const data = join(docs, 'state.db');
    const server = await serve(dir, ['--docs', docs, '--data', data]);
    await until(server, /"event":"indexed"/);
    expect(existsSync(`${data}-wal`)).toBe(true);
    expect((await kb(server, dir).files()).map((f) => f.originalFilename)).toEqual(['a.md']);
    // The folder is watched: its own writes would be seen within this.
    await new Promise((r) => setTimeout(r, 1500));
    expect((await kb(server, dir).files()).map((f) => f.originalFilename)).toEqual(['a.md']);
  }, 30_000);

  it('follows files added in new subfolders, and a folder removed and made again', async () => {
    const { dir, docs } = docsFolder({ 'old.md': 'The walrus budget closes in May.' });
    const server = await serve(dir, ['--docs', docs]);
    await until(server, /"event":"indexed"/);
    const client = kb(server, dir);
    mkdirSync(join(docs, 'team', 'deep'), { recursive: true });
    await new Promise((r) => setTimeout(r, 200));
    writeFileSync(join(docs, 'team', 'deep', 'plan.md'), 'The heron plan starts in June.');
    await eventually(async () =>
      expect((await client.ask('When does the heron plan start?')).sources).toEqual(['team/deep/plan.md']),
    );

    rmSync(docs, { recursive: true });
    mkdirSync(docs);
    writeFileSync(join(docs, 'new.md'), 'The otter rota changes on Friday.');
    await eventually(async () =>
      expect((await client.files()).map((f) => f.originalFilename)).toEqual(['new.md']),
    );
    expect((await client.ask('When does the walrus budget close?')).sources).toEqual([]);
    await eventually(async () =>
      expect((await client.ask('When does the otter rota change?')).sources).toEqual(['new.md']),
    );
  }, 60_000);

  it('watches a folder made again: a file written into it after it was scanned is indexed', async () => {
    const { dir, docs } = docsFolder({ 'old.md': 'The walrus budget closes in May.' });
    const server = await serve(dir, ['--docs', docs]);
    await until(server, /"event":"indexed"/);
    const client = kb(server, dir);
    rmSync(docs, { recursive: true });
    mkdirSync(docs);
    // The service has seen the new, empty folder...
    await eventually(async () => expect(await client.files()).toEqual([]));
    // ...and sees what is written into it afterwards (the watcher of the old folder saw nothing).
    writeFileSync(join(docs, 'new.md'), 'The otter rota changes on Friday.');
    await eventually(async () =>
      expect((await client.files()).map((f) => [f.originalFilename, f.indexingStatus])).toEqual([
        ['new.md', 'COMPLETED'],
      ]),
    );
    // And a file changed in it later, too.
    writeFileSync(join(docs, 'new.md'), 'The otter rota changes on Monday now.');
    await eventually(async () =>
      expect((await client.ask('When does the otter rota change?')).content).toContain('Monday'),
    );
  }, 60_000);

  it('fails a file over --max-file-size as too_large, unread; a bad size is a usage error', async () => {
    const { dir, docs } = docsFolder({ 'big.txt': 'word '.repeat(1000), 'small.txt': 'A small note.' });
    // 480 MB that take no room (a sparse file): over the default limit, never read.
    const huge = join(dir, 'huge');
    mkdirSync(huge);
    writeFileSync(join(huge, 'huge.txt'), '');
    truncateSync(join(huge, 'huge.txt'), 480 * 1024 * 1024);
    const defaults = await serve(dir, ['--docs', huge]);
    expect(JSON.parse((await until(defaults, /"event":"indexed"/)).split('\n')[0]!)).toMatchObject({
      name: 'huge.txt',
      code: 'too_large',
      message: 'the file is 480 MiB, over the limit of 100 MiB (--max-file-size)',
    });
    defaults.child.kill('SIGKILL');
    const server = await serve(dir, ['--docs', docs, '--max-file-size', '2K']);
    const stderr = await until(server, /"event":"indexed"/);
    expect(JSON.parse(stderr.split('\n')[0]!)).toEqual({
      event: 'file.failed',
      name: 'big.txt',
      code: 'too_large',
      message: 'the file is 4.9 KiB, over the limit of 2 KiB (--max-file-size)',
    });
    const bad = await runKb(['serve', '--max-file-size', 'lots'], { configDir: dir });
    expect(bad).toMatchObject({ code: 2, stdout: '' });
    expect(bad.stderr).toMatch(
      /^error: invalid --max-file-size "lots": expected a size such as 100M or 2G\n/,
    );
  }, 30_000);
});

async function eventually(check: () => Promise<void>, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      return await check();
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 150));
    }
  }
}
