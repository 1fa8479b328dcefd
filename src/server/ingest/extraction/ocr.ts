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
import { importPackage } from '../../../import-package.js';
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
    const linked = this.#linked();
    let tesseract: Tesseract;
    try {
      tesseract = await createWorker(
        this.languages.map((l) => l.code),
        OEM.LSTM_ONLY,
        {
          langPath: linked ?? this.languages[0]!.dir,
          gzip: true,
          // Not written next to kb serve's working directory, nor read from there.
          cacheMethod: 'none',
          // A failed job rejects its promise; without a handler tesseract.js also throws.
          errorHandler: () => {},
          logger: () => {},
        },
      );
    } finally {
      // The data is read once, as the engine starts.
      if (linked) rmSync(linked, { recursive: true, force: true });
    }
    const thread = (tesseract as unknown as { worker: Thread }).worker;
    const died = new Promise<never>((_, reject) => {
      thread.once('error', (err) => reject(new Error(`the OCR engine failed: ${err.message}`)));
      thread.once('exit', (code) => reject(new Error(`the OCR engine exited (${code})`)));
    });
    died.catch(() => {});
    return { tesseract, died };
  }

  /**
   * Languages from several packages: a directory of links to each one's data, since tesseract.js
   * reads every language from one. Undefined when they share one already.
   */
  #linked(): string | undefined {
    if (new Set(this.languages.map((l) => l.dir)).size === 1) return undefined;
    const dir = mkdtempSync(join(tmpdir(), 'kb-ocr-'));
    for (const { code, dir: from } of this.languages)
      symlinkSync(join(from, `${code}.traineddata.gz`), join(dir, `${code}.traineddata.gz`));
    return dir;
  }

  #end(session: Promise<Session> | undefined): void {
    if (!session || session !== this.#session) return;
    this.#session = undefined;
    clearTimeout(this.#idle);
    void session.then((s) => s.tesseract.terminate()).catch(() => {});
  }

  close(): void {
    this.#end(this.#session);
  }
}
