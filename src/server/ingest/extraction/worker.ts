/**
 * The extraction worker: reads documents' text and cuts it into chunks, with their search
 * terms, off kb serve's event loop. Jobs are taken one at a time, in the order they came, so
 * that the pool can tell which one a timeout or a crash belongs to.
 */
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { readAndExtract } from './extract-chunks.js';
import { Recogniser } from './ocr.js';
import type { OcrSettings } from './ocr-languages.js';
import { MESSAGE_TEXT, type WorkerJob, type WorkerMessage } from './protocol.js';
import type { OcrReader } from './scanned-pages.js';

// Background work: on Linux a thread's niceness is its own, so requests on kb serve's main
// thread come first when the cores are busy.
try {
  setPriority(10);
} catch {
  // Not allowed here: the same work at the same priority.
}

const post = (message: WorkerMessage) => parentPort!.postMessage(message);

const settings = workerData as { ocr?: OcrSettings; maxFileBytes?: number } | undefined;
/** OCR, unless kb serve runs with --no-ocr: tesseract is loaded on the first scan, not before. */
const ocrSettings = settings?.ocr;
const recogniser = ocrSettings && new Recogniser(ocrSettings.languages);
const ocrFor = (id: number): OcrReader | undefined =>
  recogniser && {
    recognise: recogniser.recognise,
    maxPages: ocrSettings!.maxPages,
    budgetMs: ocrSettings!.budgetMs,
    onPage: (page, pages) => post({ id, page, pages }),
  };

let queue = Promise.resolve();
parentPort!.on('message', (job: WorkerJob) => {
  queue = queue.then(async () => {
    const result = await readAndExtract(
      job.filename,
      'file' in job ? job.file : new Uint8Array(job.bytes, job.offset, job.length),
      ocrFor(job.id),
      settings?.maxFileBytes,
      (read) => post({ id: job.id, read }),
    );
    if (!result.ok)
      return post(
        result.gone ? { id: job.id, end: true, gone: true } : { id: job.id, end: true, error: result.error },
      );
    let start = 0;
    let text = 0;
    result.chunks.forEach((chunk, i) => {
      text += chunk.text.length + (chunk.indexed?.terms.length ?? 0);
      if (text < MESSAGE_TEXT) return;
      post({ id: job.id, chunks: result.chunks.slice(start, i + 1) });
      start = i + 1;
      text = 0;
    });
    if (start < result.chunks.length) post({ id: job.id, chunks: result.chunks.slice(start) });
    post({ id: job.id, end: true, ...(result.ocr ? { ocr: result.ocr } : {}) });
  });
});

post({ ready: true });
