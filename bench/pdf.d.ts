/** Types for bench/pdf.js, which tests use too. */
export interface PdfOptions {
  /** Pages drawn without a text layer, as a scanner makes them. */
  scanned?: boolean;
  /** An /Encrypt dictionary whose user password is not empty. */
  encrypted?: boolean;
}

/** A page that is a picture: a JPEG of `width` × `height` pixels, drawn over the whole page. */
export interface ScannedPage {
  jpeg: Buffer;
  width: number;
  height: number;
}

export function makePdf(pages: (string[] | ScannedPage)[], options?: PdfOptions): Buffer;

/** `lines` as a scanned page for makePdf, or with `format` as an image file. */
export function scannedPage(
  lines: string[],
  format?: undefined,
  options?: { quality?: number },
): Promise<ScannedPage>;
export function scannedPage(
  lines: string[],
  format: 'image/png' | 'image/jpeg' | 'image/webp',
): Promise<Buffer>;
