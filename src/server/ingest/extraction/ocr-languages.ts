import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** A language OCR reads, and its trained data (gzipped) in its npm package. */
export interface OcrLanguage {
  code: string;
  /** The directory holding `<code>.traineddata.gz`. */
  dir: string;
}

/** What the extraction worker is told about OCR (its workerData). */
export interface OcrSettings {
  languages: OcrLanguage[];
  /** Pages recognised per document at most; the rest are said to be skipped. */
  maxPages: number;
  /** How long one document's pages may be recognised; pages not started by then are skipped. */
  budgetMs: number;
}

export const DEFAULT_OCR_PAGES = 100;
/** How long one document's pages may be recognised: a 500-page scan does not hold the worker for an hour. */
export const OCR_BUDGET_MS = 5 * 60_000;

/** A language the user asked for whose package is not installed. */
export class OcrLanguageMissing extends Error {
  override name = 'OcrLanguageMissing';
  constructor(
    readonly code: string,
    readonly packageName: string,
  ) {
    super(`OCR language ${code}: its data is not installed (the npm package ${packageName})`);
  }
}

/** A tesseract language code: `eng`, `deu`, `chi_sim`. */
const CODE = /^[a-z]{3}(?:_[a-z]+)?$/;

/**
 * The languages of `--ocr-lang` ("eng", "eng+deu", "eng,deu"), each found in its installed
 * `@tesseract.js-data/<code>` package: the `best_int` data (small and accurate), or the package's
 * other variant when it has only that. Never a download. Throws OcrLanguageMissing or a plain
 * Error for a code that is not one.
 */
export function resolveOcrLanguages(spec: string): OcrLanguage[] {
  const codes = [...new Set(spec.split(/[+,]/).map((c) => c.trim()))].filter(Boolean);
  if (!codes.length) throw new Error(`invalid --ocr-lang "${spec}": expected codes such as eng or eng+deu`);
  const require = createRequire(import.meta.url);
  return codes.map((code) => {
    if (!CODE.test(code))
      throw new Error(`invalid --ocr-lang "${code}": expected a tesseract language code such as eng or deu`);
    const packageName = `@tesseract.js-data/${code}`;
    let root: string;
    try {
      root = dirname(require.resolve(`${packageName}/package.json`));
    } catch {
      throw new OcrLanguageMissing(code, packageName);
    }
    const dir = ['4.0.0_best_int', '4.0.0']
      .map((variant) => join(root, variant))
      .find((d) => existsSync(join(d, `${code}.traineddata.gz`)));
    if (!dir) throw new OcrLanguageMissing(code, packageName);
    return { code, dir };
  });
}
