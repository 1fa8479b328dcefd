import type { Chunk } from '../model.js';

/** A sentence, or a row of a table or a data file, that an answer can be made of. */
export interface Passage {
  text: string;
  chunk: Chunk;
  /** Its place in the chunk: answers keep a document's order. */
  position: number;
  /** The heading it is under, or the question it answers (in a FAQ): words it is about without saying them. */
  lead?: string;
}

/** Sentence ends (a full stop, ! or ? and a space) and line ends. */
const BOUNDARY = /(?<=[.!?])[ \t]+|\n+/;

/**
 * The passages of a chunk that can stand as an answer: not a question (a FAQ's: it becomes the
 * lead of the sentences that answer it), not a heading (a short line without an end mark or a
 * `name: value`; it leads what follows), not a fragment of two words.
 */
export function passagesOf(chunk: Chunk): Passage[] {
  const out: Passage[] = [];
  let lead: string | undefined;
  chunk.text.split(BOUNDARY).forEach((raw, position) => {
    const text = raw.trim();
    if (!text) return;
    if (text.endsWith('?')) {
      lead = text;
      return;
    }
    const words = text.split(/\s+/).length;
    const row = text.includes(': ');
    if (!row && !/[.!]["')\]]?$/.test(text) && words < 8) {
      lead = text;
      return;
    }
    if (words < 3) return;
    out.push(lead === undefined ? { text, chunk, position } : { text, chunk, position, lead });
  });
  return out;
}

/** The passage as an answer's sentence: ends with a full stop. */
export function asSentence(text: string): string {
  return /[.!?]["')\]]?$/.test(text) ? text : `${text}.`;
}
