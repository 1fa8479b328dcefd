import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ROOT, runKb } from '../helpers/cli.js';
import { docsFolder, makePdf, scannedPage } from '../helpers/documents.js';
import { serveRefusal, startServeProcess, type ServeProcess } from '../helpers/serve-process.js';

const KEY = 'kb_ocr_test_key';
let serving: ServeProcess | undefined;
afterEach(() => {
  serving?.child.kill('SIGKILL');
  serving = undefined;
});

async function serve(
  dir: string,
  args: string[],
  workspace = 'default',
  env: Record<string, string> = {},
): Promise<ServeProcess> {
  serving = await startServeProcess(dir, ['--index-delay', '0', ...args], {
    KB_SERVE_API_KEYS: `${workspace}:${KEY}`,
    ...env,
  });
  return serving;
}

/** Resolves with stderr once kb serve says indexing settled (its --json line). */
async function indexed(server: ServeProcess, ms = 150_000): Promise<string> {
  const deadline = Date.now() + ms;
  while (!server.stderr().includes('"event":"indexed"')) {
    if (Date.now() > deadline) throw new Error(`kb serve never finished indexing: ${server.stderr()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return server.stderr();
}

function client(server: ServeProcess, dir: string) {
  const env = { KB_BASE_URL: server.url, KB_API_KEY: KEY };
  const kb = (args: string[]) => runKb(args, { env, configDir: dir, timeoutMs: 120_000 });
  return {
    kb,
    async files(): Promise<Record<string, { id: string; indexingStatus: string }>> {
      const { stdout } = await kb(['files', 'list', '--json', '--limit', '100']);
      const list = JSON.parse(stdout) as { id: string; originalFilename: string; indexingStatus: string }[];
      return Object.fromEntries(list.map((f) => [f.originalFilename, f]));
    },
    async ask(question: string) {
      const thread = (await kb(['threads', 'create', '--ids'])).stdout.trim();
      const { stdout } = await kb(['threads', 'send', thread, question, '--json']);
      return (JSON.parse(stdout) as { aiResponse: { content: string; sources: string[] } }).aiResponse;
    },
  };
}

/** A PNG whose header claims 60,000 × 60,000 pixels (14.4 GB decoded) in a few dozen bytes. */
function pixelBomb(): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(60_000, 0);
  ihdr.writeUInt32BE(60_000, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // RGBA
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    return Buffer.concat([length, Buffer.from(type, 'latin1'), data, Buffer.alloc(4)]);
  };
  return Buffer.concat([
    Buffer.from('89504e470d0a1a0a', 'hex'),
    chunk('IHDR', ihdr),
    chunk('IDAT', Buffer.alloc(16)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

describe('kb serve reads scans and images by OCR', () => {
  it('a scanned PDF is COMPLETED and cited by page, a mixed PDF by both kinds of page, an image by name; a pixel bomb is too_large', async () => {
    const { dir, docs } = docsFolder({});
    writeFileSync(
      join(docs, 'scan.pdf'),
      makePdf([
        await scannedPage(['Scanned handbook, chapter one.', 'The archive room is on the second floor.']),
        await scannedPage([
          'The night shift hands over to the day shift at six.',
          'Badges are returned to the front desk before leaving.',
        ]),
      ]),
    );
    writeFileSync(
      join(docs, 'mixed.pdf'),
      makePdf([
        ['The loading dock opens at seven in the morning.'],
        await scannedPage(['Forklifts are charged overnight in bay four.']),
      ]),
    );
    writeFileSync(join(docs, 'bomb.png'), pixelBomb());
    // Every thread of kb serve (the extraction worker, tesseract's) records any socket it opens.
    const sockets = join(dir, 'sockets.log');
    const server = await serve(dir, ['--docs', docs], 'default', {
      NODE_OPTIONS: `--require ${join(ROOT, 'test/helpers/no-sockets.cjs')}`,
      KB_SOCKET_LOG: sockets,
    });
    const stderr = await indexed(server);
    expect(stderr).toContain('"event":"file.failed","name":"bomb.png","code":"too_large"');
    const kb = client(server, dir);
    const files = await kb.files();
    expect(files['scan.pdf']!.indexingStatus).toBe('COMPLETED');
    expect(files['mixed.pdf']!.indexingStatus).toBe('COMPLETED');

    const night = await kb.ask('When does the night shift hand over to the day shift?');
    expect(night.sources).toEqual(['scan.pdf p. 2']);
    expect(night.content).toContain('six');
    expect((await kb.ask('Where are forklifts charged?')).sources).toEqual(['mixed.pdf p. 2']);
    expect((await kb.ask('When does the loading dock open?')).sources).toEqual(['mixed.pdf p. 1']);

    const detail = JSON.parse((await kb.kb(['files', 'get', files['scan.pdf']!.id, '--json'])).stdout);
    expect(detail.ocr).toEqual({ pages: 2, meanConfidence: expect.any(Number) });
    expect(detail.ocr.meanConfidence).toBeGreaterThan(50);
    const shown = await kb.kb(['files', 'get', files['scan.pdf']!.id]);
    expect(shown.stdout).toMatch(/^OCR\t2 pages recognised, mean confidence \d+$/m);
    const bomb = JSON.parse((await kb.kb(['files', 'get', files['bomb.png']!.id, '--json'])).stdout);
    expect(bomb.indexingError).toEqual({
      code: 'too_large',
      message: 'the image is 60000 × 60000 pixels (3,600 megapixels); at most 40 megapixels are read',
    });

    // An image uploaded, its text answered and cited by the file's name.
    const png = join(dir, 'notice.png');
    writeFileSync(png, await scannedPage(['The rooftop garden closes at nine in the evening.'], 'image/png'));
    const upload = await kb.kb(['files', 'upload', png, '--wait', '--interval', '200ms']);
    expect(upload.code, upload.stderr).toBe(0);
    const garden = await kb.ask('When does the rooftop garden close?');
    expect(garden.sources).toEqual(['notice.png']);
    expect(garden.content).toContain('nine in the evening');

    // Offline: kb serve's main thread, its extraction worker and the OCR engine's thread were
    // watched; none connected anywhere, and the only name looked up is the one it listens on.
    const log = readFileSync(sockets, 'utf8').trim().split('\n');
    expect(log.filter((line) => line.endsWith(' started')).length).toBeGreaterThanOrEqual(3);
    expect(log.filter((line) => !line.endsWith(' started'))).toEqual(['main dns lookup 127.0.0.1']);
  }, 240_000);

  it("the demo's architecture diagram and scanned agreement are indexed and cited", async () => {
    const { dir } = docsFolder({});
    const server = await serve(dir, ['--demo'], 'demo');
    await indexed(server);
    const kb = client(server, dir);
    const gateway = await kb.ask('What does the API gateway check?');
    expect(gateway.sources).toEqual(['architecture-diagram.png']);
    expect(gateway.content).toContain('session token');
    const notice = await kb.ask('How much notice ends the agreement?');
    expect(notice.sources).toEqual(['signed-agreement-scanned.pdf p. 1']);
    expect(notice.content).toContain('60 days');
  }, 120_000);

  it('--no-ocr keeps a scan FAILED as no_text_layer and an image as unsupported_type', async () => {
    const { dir, docs } = docsFolder({});
    writeFileSync(join(docs, 'scan.pdf'), makePdf([await scannedPage(['Nothing here is read.'])]));
    writeFileSync(join(docs, 'photo.png'), await scannedPage(['Nor here.'], 'image/png'));
    const stderr = await indexed(await serve(dir, ['--docs', docs, '--no-ocr']), 60_000);
    expect(stderr).toContain(
      '{"event":"file.failed","name":"scan.pdf","code":"no_text_layer","message":"1 page, no extractable text: scanned images? OCR is off (--no-ocr)"}',
    );
    expect(stderr).toContain(
      '{"event":"file.failed","name":"photo.png","code":"unsupported_type","message":"images are read by OCR, which is off (--no-ocr)"}',
    );
  }, 90_000);

  it('--ocr-lang with a language whose package is not installed: one clear line naming the package, exit 2', async () => {
    const { dir } = docsFolder({});
    const res = await serveRefusal(dir, ['--ocr-lang', 'eng+zzz']);
    expect(res.code, res.stderr).toBe(2);
    expect(res.stdout).toBe('');
    expect(res.stderr).toContain('--ocr-lang zzz: the language data is not installed');
    expect(res.stderr).toContain('npm install @tesseract.js-data/zzz');
    const invalid = await serveRefusal(dir, ['--ocr-lang', '../eng']);
    expect(invalid.code).toBe(2);
    expect(invalid.stderr).toContain('invalid --ocr-lang "../eng"');
  }, 60_000);
});
