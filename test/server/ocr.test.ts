import { copyFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { extractDocument } from '../../src/server/ingest/extraction/formats.js';
import { imageText } from '../../src/server/ingest/extraction/image-text.js';
import { Recogniser } from '../../src/server/ingest/extraction/ocr.js';
import { OcrLanguageMissing, resolveOcrLanguages } from '../../src/server/ingest/extraction/ocr-languages.js';
import { ocrText } from '../../src/server/ingest/extraction/ocr-text.js';
import type { OcrReader } from '../../src/server/ingest/extraction/scanned-pages.js';
import { tempDir } from '../helpers/cli.js';
import { makePdf, scannedPage } from '../helpers/documents.js';

const recogniser = new Recogniser(resolveOcrLanguages('eng'));
afterAll(() => recogniser.close());

const reader = (over: Partial<OcrReader> = {}): OcrReader => ({
  recognise: recogniser.recognise,
  maxPages: 100,
  budgetMs: 120_000,
  ...over,
});

describe('ocrText', () => {
  it("joins a paragraph's lines, mends words hyphenated at a line's end, keeps paragraphs and list items", () => {
    expect(ocrText('The night shift hands\nover at six.\n\nBadges are re-\nturned at the desk.\n')).toBe(
      'The night shift hands over at six.\nBadges are returned at the desk.',
    );
    expect(ocrText('Visitors must be accom-\npanied at all times.')).toBe(
      'Visitors must be accompanied at all times.',
    );
    expect(ocrText('Bring:\n- a badge\n- a key\n')).toBe('Bring:\n- a badge\n- a key');
    expect(ocrText('  \n\n ')).toBe('');
  });
});

describe('OCR of scanned PDF pages', () => {
  it('recognises pages without a text layer in order, up to the page limit, and says what it skipped', async () => {
    const pages: number[] = [];
    const pdf = makePdf([
      await scannedPage(['The archive room is on the second floor.']),
      ['A page with a text layer: the canteen opens at eight.'],
      await scannedPage(['The night shift hands over at six.']),
      await scannedPage(['This page is past the limit.']),
    ]);
    const result = await extractDocument(
      'scan.pdf',
      pdf,
      reader({ maxPages: 2, onPage: (n) => pages.push(n) }),
    );
    expect(pages).toEqual([1, 3]);
    expect(result).toMatchObject({
      ok: true,
      sections: [
        { text: 'The archive room is on the second floor.', page: 1 },
        { text: 'A page with a text layer: the canteen opens at eight.', page: 2 },
        { text: 'The night shift hands over at six.', page: 3 },
      ],
      ocr: { pages: 2, skippedPages: 1, skipped: 'page 4 on: the page limit (2 per document)' },
    });
  }, 120_000);

  it('a scan whose time is up before a page is read fails no_text with its page count and why', async () => {
    const pdf = makePdf([await scannedPage(['Never read.']), await scannedPage(['Nor this.'])]);
    expect(await extractDocument('late.pdf', pdf, reader({ budgetMs: -1 }))).toEqual({
      ok: false,
      error: {
        code: 'no_text',
        message:
          '2 pages, no text layer, and OCR recognised no text (not read: page 1 on: the time limit (0 s per document))',
      },
    });
  });

  it('a page the engine fails on is skipped and named; the pages after it are read', async () => {
    let calls = 0;
    const failing: OcrReader['recognise'] = async (image) => {
      if (++calls === 1) throw new Error('the OCR engine exited (1)');
      return recogniser.recognise(image);
    };
    const pdf = makePdf([
      await scannedPage(['Lost page.']),
      await scannedPage(['The lobby closes at nine.']),
    ]);
    expect(await extractDocument('crash.pdf', pdf, reader({ recognise: failing }))).toMatchObject({
      ok: true,
      sections: [{ text: 'The lobby closes at nine.', page: 2 }],
      ocr: { pages: 1, skippedPages: 1, skipped: 'page 1: the OCR engine exited (1)' },
    });
  }, 120_000);
});

describe('the OCR engine', () => {
  it('fails an image it cannot read, and reads the next (with a new engine)', async () => {
    await expect(recogniser.recognise(Buffer.from('GIF89a is not what this is'))).rejects.toThrow(
      'Error attempting to read image',
    );
    const png = await scannedPage(['Read after the failure.'], 'image/png');
    expect((await recogniser.recognise(png)).text.trim()).toBe('Read after the failure.');
  }, 120_000);

  it('reads languages of packages in different directories through links, removed once read', async () => {
    const [eng] = resolveOcrLanguages('eng');
    // Another package's language: English data under another code, in another directory.
    const other = tempDir();
    copyFileSync(join(eng!.dir, 'eng.traineddata.gz'), join(other, 'xyz.traineddata.gz'));
    const links = () => readdirSync(tmpdir()).filter((name) => name.startsWith('kb-ocr-'));
    const before = links();
    const two = new Recogniser([eng!, { code: 'xyz', dir: other }]);
    try {
      const png = await scannedPage(['Two packages, one engine.'], 'image/png');
      expect((await two.recognise(png)).text.trim()).toBe('Two packages, one engine.');
      expect(links()).toEqual(before);
    } finally {
      two.close();
    }
  }, 120_000);
});

describe('OCR of images', () => {
  it('reads PNG, JPEG and WebP; refuses an image of too many pixels before decoding it', async () => {
    for (const format of ['image/png', 'image/jpeg', 'image/webp'] as const) {
      const image = await scannedPage(['The rooftop garden closes at nine.'], format);
      const read = await imageText(image, reader());
      expect(read, format).toMatchObject({ ok: true, text: 'The rooftop garden closes at nine.' });
    }
    // A GIF header claiming 65,535 × 65,535 pixels.
    const bomb = Buffer.from('474946383961ffffffff000000', 'hex');
    expect(await imageText(bomb, reader())).toEqual({
      ok: false,
      error: {
        code: 'too_large',
        message: 'the image is 65535 × 65535 pixels (4,295 megapixels); at most 40 megapixels are read',
      },
    });
    expect(await imageText(Buffer.from('not an image'), reader())).toMatchObject({
      ok: false,
      error: { code: 'parse_error' },
    });
  }, 120_000);
});

describe('--ocr-lang', () => {
  it("finds a language's best_int data in its package, and names the package of one not installed", () => {
    expect(resolveOcrLanguages('eng')).toEqual([
      { code: 'eng', dir: expect.stringMatching(/@tesseract\.js-data[\\/]eng[\\/]4\.0\.0_best_int$/) },
    ]);
    expect(() => resolveOcrLanguages('eng+xyz')).toThrow(OcrLanguageMissing);
    expect(() => resolveOcrLanguages('eng+xyz')).toThrow('the npm package @tesseract.js-data/xyz');
    expect(() => resolveOcrLanguages('../eng')).toThrow('invalid --ocr-lang "../eng"');
  });
});
