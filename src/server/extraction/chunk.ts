import type { Section } from './formats.js';

/** A passage of a document, and the pages it spans where the document has pages. */
export interface TextChunk {
  text: string;
  pages?: [first: number, last: number];
}

/**
 * Splits sections into chunks of about `size` characters along paragraph and sentence
 * boundaries, each starting with the whole sentences that end the one before, up to `overlap`
 * characters of them (a chunk never starts mid-sentence). A chunk
 * knows the pages its text came from; a new page starts a new chunk, so that a citation names
 * the page a passage is on rather than its neighbours too.
 */
export function chunkSections(sections: Section[], size = 800, overlap = 200): TextChunk[] {
  const chunks: TextChunk[] = [];
  let current = '';
  let first: number | undefined;
  let last: number | undefined;
  const push = () => {
    chunks.push(first === undefined ? { text: current } : { text: current, pages: [first, last!] });
  };
  for (const section of sections) {
    if (current && section.page !== last) {
      push();
      current = '';
      first = undefined;
    }
    for (const sentence of sentencesOf(section.text)) {
      if (current && current.length + sentence.length + 1 > size) {
        push();
        current = overlapOf(current, overlap);
        first = current ? last : undefined;
      }
      if (sentence.length > size) {
        for (let i = 0; i < sentence.length; i += size - overlap) {
          if (current) push();
          current = sentence.slice(i, i + size);
          first = last = section.page;
        }
        continue;
      }
      current = current ? `${current}\n${sentence}` : sentence;
      first ??= section.page;
      last = section.page;
    }
  }
  if (current) push();
  return chunks;
}

/** The last whole sentences (or lines) of a chunk that fit in `overlap` characters. */
function overlapOf(chunk: string, overlap: number): string {
  // A chunk's sentences are joined by line ends.
  let start = chunk.length;
  for (;;) {
    const at = chunk.lastIndexOf('\n', start - 1);
    if (at < 0 || chunk.length - at - 1 > overlap) break;
    start = at;
  }
  return start < chunk.length ? chunk.slice(start + 1) : '';
}

/** The sentences and lines of a text, one at a time (a document of any size makes no array of them). */
function* sentencesOf(text: string): Generator<string> {
  const boundary = /(?<=[.!?])[ \t]+|\n+/g;
  let start = 0;
  for (;;) {
    const match = boundary.exec(text);
    const end = match ? match.index : text.length;
    const sentence = text.slice(start, end).trim();
    if (sentence) yield sentence;
    if (!match) return;
    start = boundary.lastIndex;
  }
}

/** Chunks of plain text. */
export function chunkText(text: string, size = 800, overlap = 200): string[] {
  return chunkSections([{ text }], size, overlap).map((c) => c.text);
}
