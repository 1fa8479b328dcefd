/** Types for bench/real/questions.js: the labelled questions of the real-documents benchmark. */

export const KINDS: string[];

export interface Turn {
  question: string;
  file: string[];
  page: number[];
  expect: string[];
}

export interface Question {
  id: string;
  kind: string;
  source: string;
  turns: Turn[];
}

/** Every question of `files` (YAML), checked against the corpus; each malformed one named in `skipped`. */
export function loadQuestions(
  files: string[],
  corpusFiles: string[],
): { questions: Question[]; skipped: string[] };
