/** Types for bench/pdf.js, which tests use too. */
export interface PdfOptions {
  /** Pages drawn without a text layer, as a scanner makes them. */
  scanned?: boolean;
  /** An /Encrypt dictionary whose user password is not empty. */
  encrypted?: boolean;
}

export function makePdf(pages: string[][], options?: PdfOptions): Buffer;
