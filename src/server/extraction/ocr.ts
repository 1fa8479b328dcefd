/**
 * Text recognition (OCR) inside the extraction worker: tesseract.js, with its language data read
 * from the installed @tesseract.js-data packages (never fetched) and nothing cached on disk.
 * Loaded only here, when a document needs it.
 */
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Worker as Tesseract } from 'tesseract.js';
import type { Worker as Thread } from 'node:worker_threads';
import { importPackage } from '../../import-package.js';
import type { OcrLanguage } from './ocr-languages.js';

export interface Recognised {
  text: string;
  /** Tesseract's mean word confidence, 0 to 100. */
  confidence: number;
}

/** What reads the text of an image (an encoded PNG, JPEG, TIFF, WebP, GIF or BMP). */
export interface Recognise {
  (image: Uint8Array): Promise<Recognised>;
}

interface Session {
  tesseract: Tesseract;
  /** Rejects when tesseract's thread exits or fails. */
  died: Promise<never>;
}

/** A session idle this long is ended: its memory (the language model, the engine) goes back. */
const IDLE_MS = 30_000;

/**
 * One tesseract session, started on first use, ended when idle, and replaced after any failure:
 * a thread that died (or an engine that aborted) never reads another page.
 */
export class Recogniser {
  #session: Promise<Session> | undefined;
  #idle: NodeJS.Timeout | undefined;
  #linked: string | undefined;

  constructor(private readonly languages: OcrLanguage[]) {}

  readonly recognise: Recognise = async (image) => {
    clearTimeout(this.#idle);
    const starting = (this.#session ??= this.#start());
    try {
      const session = await starting;
      const { data } = await Promise.race([session.tesseract.recognize(Buffer.from(image)), session.died]);
      return { text: data.text, confidence: data.confidence };
    } catch (err) {
      this.#end(starting);
      throw err instanceof Error ? err : new Error(String(err));
    } finally {
      this.#idle = setTimeout(() => this.#end(this.#session), IDLE_MS);
      this.#idle.unref();
    }
  };

  async #start(): Promise<Session> {
    const { createWorker, OEM } = (
      await importPackage<{ default: typeof import('tesseract.js') }>('tesseract.js')
    ).default;
    const tesseract = await createWorker(
      this.languages.map((l) => l.code),
      OEM.LSTM_ONLY,
      {
        langPath: this.#langPath(),
        gzip: true,
        // Not written next to kb serve's working directory, nor read from there.
        cacheMethod: 'none',
        // A failed job rejects its promise; without a handler tesseract.js also throws.
        errorHandler: () => {},
        logger: () => {},
      },
    );
    const thread = (tesseract as unknown as { worker: Thread }).worker;
    const died = new Promise<never>((_, reject) => {
      thread.once('error', (err) => reject(new Error(`the OCR engine failed: ${err.message}`)));
      thread.once('exit', (code) => reject(new Error(`the OCR engine exited (${code})`)));
    });
    died.catch(() => {});
    return { tesseract, died };
  }

  /** One directory with every language's data: the package's own, or links to several packages'. */
  #langPath(): string {
    const dirs = new Set(this.languages.map((l) => l.dir));
    if (dirs.size === 1) return [...dirs][0]!;
    this.#linked ??= mkdtempSync(join(tmpdir(), 'kb-ocr-'));
    for (const { code, dir } of this.languages) {
      try {
        symlinkSync(join(dir, `${code}.traineddata.gz`), join(this.#linked, `${code}.traineddata.gz`));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
    }
    return this.#linked;
  }

  #end(session: Promise<Session> | undefined): void {
    if (!session || session !== this.#session) return;
    this.#session = undefined;
    clearTimeout(this.#idle);
    void session.then((s) => s.tesseract.terminate()).catch(() => {});
  }

  close(): void {
    this.#end(this.#session);
    if (this.#linked) rmSync(this.#linked, { recursive: true, force: true });
  }
}
