import { importPackage } from '../../../import-package.js';
import type { IndexingError, OcrReport } from '../../state/model.js';
import { ocrText } from './ocr-text.js';
import type { OcrReader } from './scanned-pages.js';

/**
 * Images of more pixels than this are refused before they are decoded: a few kilobytes of PNG
 * can claim 100,000 × 100,000 pixels (40 GB decoded). 40 megapixels holds an A4 page scanned
 * at 600 dpi.
 */
export const MAX_IMAGE_PIXELS = 40_000_000;

export type ImageText = { ok: true; text: string; ocr: OcrReport } | { ok: false; error: IndexingError };

const fail = (code: string, message: string): ImageText => ({ ok: false, error: { code, message } });

/** The text of an image (PNG, JPEG, TIFF, WebP, BMP, GIF), recognised; its size checked from its header first. */
export async function imageText(bytes: Uint8Array, ocr: OcrReader | undefined): Promise<ImageText> {
  if (!ocr) return fail('unsupported_type', 'images are read by OCR, which is off (--no-ocr)');
  const { imageSize } = await importPackage<typeof import('image-size')>('image-size');
  let width: number;
  let height: number;
  try {
    ({ width, height } = imageSize(bytes));
  } catch (err) {
    return fail('parse_error', `the image cannot be read: ${(err as Error).message}`);
  }
  if (width * height > MAX_IMAGE_PIXELS)
    return fail(
      'too_large',
      `the image is ${width} × ${height} pixels (${megapixels(width * height)}); at most ${megapixels(MAX_IMAGE_PIXELS)} are read`,
    );
  ocr.onPage?.(1, 1);
  try {
    const recognised = await ocr.recognise(bytes);
    return {
      ok: true,
      text: ocrText(recognised.text),
      ocr: { pages: 1, meanConfidence: Math.round(recognised.confidence) },
    };
  } catch (err) {
    return fail('parse_error', `the image cannot be read: ${(err as Error).message}`);
  }
}

const megapixels = (pixels: number) => `${Math.round(pixels / 1e6).toLocaleString('en-US')} megapixels`;
