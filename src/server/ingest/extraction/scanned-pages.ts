/**
 * The pages of a PDF that have no text layer (scans), rendered and their text recognised: in
 * order, within a page limit and a time limit, each page's text kept on its page.
 */
import { importPackage } from '../../../import-package.js';
import type { OcrReport } from '../../state/model.js';
import type { Recognise, Recognised } from './ocr.js';
import { ocrText, textAmount } from './ocr-text.js';

type PdfDocument = Awaited<ReturnType<typeof import('unpdf').getDocumentProxy>>;

/** What a document's reading needs to recognise text, and to say how far it is. */
export interface OcrReader {
  recognise: Recognise;
  /** Pages recognised per document at most. */
  maxPages: number;
  /** How long one document's pages may be recognised: no page is started after this. */
  budgetMs: number;
  /** Before each page is recognised: its number, and the document's pages. */
  onPage?: (page: number, pages: number) => void;
}

/** A page whose text layer holds fewer letters and digits than this is read as a scan. */
const SCANNED_BELOW = 16;
/** A page is rendered at twice its size in points (144 dpi), or smaller to stay under this. */
const RENDER_SCALE = 2;
const RENDER_PIXELS = 6_000_000;

/**
 * Recognises the text of the pages (`pages[n - 1]` the text layer of page n) that have almost
 * none, and puts it in their place where it holds more. Undefined when no page is a scan.
 */
export async function recognisePages(
  pdf: PdfDocument,
  pages: string[],
  ocr: OcrReader,
): Promise<OcrReport | undefined> {
  const scans = pages.flatMap((text, i) => (textAmount(text) < SCANNED_BELOW ? [i + 1] : []));
  if (!scans.length) return undefined;
  withTransferToFixedLength();
  const { renderPageAsImage } = await importPackage<typeof import('unpdf')>('unpdf');
  const started = Date.now();
  const confidences: number[] = [];
  let skipped: string | undefined;
  const failed: string[] = [];
  /** Pages taken up, recognised or not. */
  let done = 0;
  for (const n of scans) {
    if (done === ocr.maxPages) skipped = `the page limit (${ocr.maxPages} per document)`;
    else if (Date.now() - started > ocr.budgetMs)
      skipped = `the time limit (${seconds(ocr.budgetMs)} per document)`;
    if (skipped) break;
    ocr.onPage?.(n, pages.length);
    done++;
    let recognised: Recognised;
    try {
      recognised = await ocr.recognise(await renderPage(pdf, n, renderPageAsImage));
    } catch (err) {
      // A page that cannot be drawn, or that the engine failed on (it is replaced for the
      // next), is named as unread; the others are read all the same.
      failed.push(`page ${n}: ${(err as Error).message}`);
      continue;
    }
    confidences.push(recognised.confidence);
    const text = ocrText(recognised.text);
    if (textAmount(text) > textAmount(pages[n - 1]!)) pages[n - 1] = text;
  }
  const report: OcrReport = { pages: confidences.length, meanConfidence: mean(confidences) };
  const unread = scans.length - confidences.length;
  if (unread) report.skippedPages = unread;
  const why = [...failed, ...(skipped ? [`page ${scans[done]} on: ${skipped}`] : [])];
  if (why.length) report.skipped = why.join('; ');
  return report;
}

/** Page `n` as a PNG, at 144 dpi or less (see RENDER_PIXELS). */
async function renderPage(
  pdf: PdfDocument,
  n: number,
  render: typeof import('unpdf').renderPageAsImage,
): Promise<Uint8Array> {
  const page = await pdf.getPage(n);
  const [x0 = 0, y0 = 0, x1 = 612, y1 = 792] = page.view;
  page.cleanup();
  const area = Math.abs((x1 - x0) * (y1 - y0)) || 1;
  const scale = Math.min(RENDER_SCALE, Math.sqrt(RENDER_PIXELS / area));
  const image = await render(pdf, n, { canvasImport: () => importPackage('@napi-rs/canvas'), scale });
  return new Uint8Array(image);
}

const seconds = (ms: number) =>
  ms >= 60_000 ? `${Math.round(ms / 60_000)} min` : `${Math.round(ms / 1000)} s`;

export const mean = (values: number[]) =>
  values.length ? Math.round(values.reduce((a, b) => a + b, 0) / values.length) : 0;

/**
 * pdf.js 5 transfers buffers with `ArrayBuffer.prototype.transferToFixedLength` (Node 21+); on
 * Node 20 a rendered page comes out blank without it. A copy does the same for pdf.js.
 */
function withTransferToFixedLength(): void {
  const proto = ArrayBuffer.prototype as ArrayBuffer & { transferToFixedLength?: unknown };
  if (proto.transferToFixedLength) return;
  Object.defineProperty(ArrayBuffer.prototype, 'transferToFixedLength', {
    configurable: true,
    writable: true,
    value(this: ArrayBuffer, length = this.byteLength) {
      const copy = new ArrayBuffer(length);
      new Uint8Array(copy).set(new Uint8Array(this, 0, Math.min(length, this.byteLength)));
      return copy;
    },
  });
}
