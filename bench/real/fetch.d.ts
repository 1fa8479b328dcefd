/** Types for bench/real/fetch.js, which the real-documents benchmark uses. */

/** [package, version this recipe was written against]; the version actually used is in MANIFEST.json. */
export const PACKAGES: [string, string][];

/** `${XDG_CACHE_HOME:-~/.cache}/kb-bench-real`: debs/, root/, corpus/ and MANIFEST.json. */
export function cacheDir(): string;

/**
 * Builds the flat corpus folder if it is missing or was made by another recipe; fast when it is
 * current. Throws an Error naming what is missing (a tool, a package) and how to install it.
 */
export function ensureCorpus(options?: {
  log?: (line: string) => void;
}): Promise<{ dir: string; files: string[] }>;

/** A whole (possibly split, gzipped) info manual as plain text. */
export function infoToText(mainFile: string): string;

/** One line: documents per extension and total size. */
export function summary(corpus: { dir: string; files: string[] }): string;
