/** Types for what tests use of bench/scale.js. */
export function labelledQueries(
  docs: [string, string][],
  count: number,
): { query: string; expected: string }[];
export const DEFAULT_SIZES: string;
export function parseSizes(text: string): number[];
