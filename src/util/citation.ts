/**
 * How an answer cites a document: its name, and for a document with pages the pages drawn on
 * (`manual.pdf p. 3`, `manual.pdf pp. 3–4`, `manual.pdf pp. 2, 5–6`).
 */
export function citation(filename: string, pages: Iterable<number> = []): string {
  const sorted = [...new Set(pages)].sort((a, b) => a - b);
  if (sorted.length === 0) return filename;
  if (sorted.length === 1) return `${filename} p. ${sorted[0]}`;
  const runs: string[] = [];
  let start = sorted[0]!;
  let end = start;
  for (const page of [...sorted.slice(1), Number.NaN]) {
    if (page === end + 1) {
      end = page;
      continue;
    }
    runs.push(start === end ? String(start) : `${start}–${end}`);
    start = end = page;
  }
  return `${filename} pp. ${runs.join(', ')}`;
}

const PAGES = / pp?\. \d+(?:[–-]\d+)?(?:, \d+(?:[–-]\d+)?)*$/;

/** The file a citation names (what `citation` made, or a plain file name). */
export function citedFilename(cited: string): string {
  return cited.replace(PAGES, '');
}
