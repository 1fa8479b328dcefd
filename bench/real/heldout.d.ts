/** Types for bench/real/heldout.js, the held-out corpus. */

/** [package, version this recipe was written against]; the version actually used is in its MANIFEST.json. */
export const PACKAGES: [string, string][];

/** Builds `<cache>/heldout/corpus` if it is missing or was made by another recipe; fast when current. */
export function ensureCorpus(options?: {
  log?: (line: string) => void;
}): Promise<{ dir: string; files: string[] }>;
