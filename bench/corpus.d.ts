/** Types for bench/corpus.js, which tests use too. */
export function corpus(
  count: number,
  bytes?: number,
  seed?: number,
): { docs: [string, string][]; queries: string[] };
export function eachDocument(
  count: number,
  onDocument: (name: string, text: string) => void,
  bytes?: number,
  seed?: number,
): string[];
