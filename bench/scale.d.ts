/** Types for what tests use of bench/scale.js. */
export function labelledQueries(
  docs: [string, string][],
  count: number,
): { query: string; expected: string }[];
export const DEFAULT_SIZES: string;
export const SCALE_SIZES: string;
export function parseSizes(text: string): number[];
export function scaleTargets(rows: Record<string, unknown>[]): string[];
export function scaleTable(rows: Record<string, unknown>[]): string;
