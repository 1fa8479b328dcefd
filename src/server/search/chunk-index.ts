import { stem as porter2 } from 'porter2';
import { withinEdits } from '../../util/edit-distance.js';
import type { Chunk } from '../state/model.js';

export { withinEdits };

export interface Hit {
  chunk: Chunk;
  score: number;
  /** The indexed terms the chunk matched (a query term, or what it expanded to). */
  terms: string[];
  /** The query terms behind them. */
  queryTerms: string[];
  /** Query terms found under another word (a typo's correction, a prefix): [query term, indexed term]. */
  expansions: [queryTerm: string, term: string][];
}

/** Words that say nothing of a text's subject; "s" and "t" are what is left of "Rich's" and "don't". */
const STOP_WORDS = new Set(
  'a an and are as at be but by can do does for from has have how i in is it its me my of on or our s so t that the their them there these this to was we what when where which who why will with you your'.split(
    ' ',
  ),
);

/** Case- and accent-insensitive form ("zoe" finds "Zoë"). */
export function fold(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLocaleLowerCase('und');
}

/** The searchable words of a text: folded words and numbers, without stop words. */
export function tokens(text: string): string[] {
  return words(text).filter((w) => !STOP_WORDS.has(w));
}

/** The index's terms of a text: its searchable words, stemmed. */
export function indexTerms(text: string): string[] {
  return tokens(text).map(stem);
}

/**
 * A word's stem (Porter2, the Snowball English stemmer): "released" and "release", "prices" and
 * "priced" meet. Identifiers are kept as written (`sort_keys`, `--all`, `%j`), and numbers.
 */
export function stem(word: string): string {
  return /[^a-z]/.test(word) ? word : porter2(word);
}

/** The folded words and numbers of a text, stop words included, then its identifiers whole. */
function words(text: string): string[] {
  // ASCII text (most of it) takes the cheaper expression; they split it alike.
  const split: string[] = /[^\x00-\x7f]/.test(text)
    ? (fold(text).match(/[\p{L}\p{N}]+/gu) ?? [])
    : (text.toLowerCase().match(/[a-z0-9]+/g) ?? []);
  return /[._%-]|\b[B-HJ-Z]\b/.test(text) ? split.concat(identifiers(text)) : split;
}

/**
 * Identifiers as written, besides their parts: `snake_case`, `dotted.names` and versions (`20.04`; folded), long
 * flags (`--almost-all`), and, keeping their case since it changes their meaning, short flags
 * (`-A`), format codes (`%j`, `%H`) and a capital letter standing alone (struct's format
 * character `H`, a grade, a key; not the words "A" and "I"). A question naming one then finds it before its parts used apart.
 */
const IDENTIFIER =
  /(?<![\w.-])(?:[A-Za-z_][\w]*(?:[._][\w]+)+|\d+(?:\.\d+)+(?![.\d])|--[A-Za-z0-9][\w-]*)|(?<![\w-])-[A-Za-z](?![\w-])|(?<![\w%])%[A-Za-z](?!\w)|(?<![\w'’.-])[B-HJ-Z](?![\w'’-])/g;

function identifiers(text: string): string[] {
  const found = text.match(IDENTIFIER);
  if (!found) return [];
  return found.map((id) => (/^(?:-[A-Za-z]|%[A-Za-z]|[A-Z])$/.test(id) ? id : id.toLowerCase()));
}

// BM25 with the usual constants.
const K1 = 1.2;
const B = 0.75;
/** A posting is chunkNumber * TF_SLOTS + term frequency (capped), one number per chunk and term. */
const TF_SLOTS = 1024;
/** A file name's words count as this many occurrences in each of its chunks. */
const FILENAME_WEIGHT = 2;
/** Expanded terms count for less than the words typed. */
const PREFIX_WEIGHT = 0.375;
const FUZZY_WEIGHT = 0.45;
/** At most this many expansions per query term, the most common first. */
const MAX_EXPANSIONS = 16;
/**
 * How much the rest of a chunk's file counts towards its score: for each word asked that the
 * chunk lacks and another chunk of its file holds, this share of that word's best score in the
 * file. A document that holds every word asked, spread over its chunks, beats one chunk elsewhere
 * that holds two of them by chance; and since each word counts once, however often the file
 * holds it, a long file cannot outweigh a short one that answers (it once added up every chunk).
 * Set by `npm run bench:real` (#33): from 0.5 to 0.25, kb search's recall@1 went from 76% to 80%
 * and @5 from 86% to 92%; 0.1 and 0 measured the same as 0.25 (bench:answers alike at all three).
 */
const FILE_EVIDENCE = 0.25;
/** Query terms beyond this many are not tracked for file evidence (a bit each). */
const TRACKED_TERMS = 30;

interface Lookup {
  queryTerm: string;
  term: string;
  weight: number;
}

/**
 * A workspace's search index (BM25) over the chunks of its COMPLETED, non-deleted files, built
 * to stay small and fast at tens of thousands of documents: a term's postings are plain numbers
 * (8 bytes per chunk it occurs in), chunk text is the caller's and is not copied, and a query
 * costs the postings of its own terms. Removed chunks are skipped until the dead outnumber the
 * living, then the postings are rewritten without them.
 */
export class ChunkIndex {
  /** Term -> postings: a growing array, or (restored and not added to since) a slice of the image. */
  #terms = new Map<string, number[] | Float64Array>();
  /** By chunk number; undefined once removed. */
  #chunks: (Chunk | undefined)[] = [];
  #lengths: number[] = [];
  /** By chunk number: the number of its file, so that a file's chunks can add up their evidence. */
  #fileOf: number[] = [];
  #fileCount = 0;
  /** File id -> its chunk numbers, the stamp it was indexed under, and its number. */
  readonly #files = new Map<string, { numbers: number[]; stamp: string; number: number }>();
  /** The numbers of files whose parts are still being added: not found yet. */
  readonly #hidden = new Set<number>();
  #live = 0;
  #liveLength = 0;
  #scores = new Float64Array(0);
  /** Per chunk touched by a query: a bit per query term it holds. */
  #held = new Uint32Array(0);

  /** Indexes a file's chunks, replacing what the file had. `stamp` says which version they are. */
  add(chunks: Chunk[], stamp = ''): void {
    if (chunks.length === 0) return;
    this.remove(chunks[0]!.fileId);
    this.append(chunks);
    this.reveal(chunks[0]!.fileId, stamp);
  }

  /**
   * Adds chunks to a file being indexed in parts (a large document, a slice at a time): they
   * are not found until `reveal`. The first part starts the file anew.
   */
  append(chunks: Chunk[]): void {
    if (chunks.length === 0) return;
    const fileId = chunks[0]!.fileId;
    let file = this.#files.get(fileId);
    if (!file || !this.#hidden.has(file.number)) {
      this.remove(fileId);
      file = { numbers: [], stamp: '', number: this.#fileCount++ };
      this.#files.set(fileId, file);
      this.#hidden.add(file.number);
    }
    const nameTerms = indexTerms(chunks[0]!.filename);
    const terms = this.#terms;
    for (const chunk of chunks) {
      const n = this.#chunks.length;
      const first = n * TF_SLOTS;
      const cap = first + TF_SLOTS - 1;
      const text = words(chunk.text);
      let length = nameTerms.length * FILENAME_WEIGHT;
      // Counted straight into the postings: a term met again in this chunk bumps the posting
      // it already has here (the last one of its list), up to the cap.
      for (let i = 0; i < text.length + nameTerms.length; i++) {
        const named = i >= text.length;
        const word = named ? nameTerms[i - text.length]! : text[i]!;
        if (!named && STOP_WORDS.has(word)) continue;
        const term = named ? word : stem(word);
        const times = named ? FILENAME_WEIGHT : 1;
        if (!named) length++;
        let list = terms.get(term);
        if (list === undefined) {
          terms.set(term, [first + times]);
          continue;
        }
        if (!Array.isArray(list)) terms.set(term, (list = Array.from(list)));
        const last = list.length - 1;
        const posting = list[last]!;
        if (posting >= first) list[last] = posting + times > cap ? cap : posting + times;
        else list.push(first + times);
      }
      this.#chunks.push(chunk);
      this.#lengths.push(length);
      this.#fileOf.push(file.number);
      this.#live++;
      this.#liveLength += length;
      file.numbers.push(n);
    }
  }

  /** Makes a file added in parts searchable, under `stamp`. */
  reveal(fileId: string, stamp: string): void {
    const file = this.#files.get(fileId);
    if (!file) return;
    file.stamp = stamp;
    this.#hidden.delete(file.number);
  }

  remove(fileId: string): void {
    const file = this.#files.get(fileId);
    if (!file) return;
    for (const n of file.numbers) {
      this.#chunks[n] = undefined;
      this.#live--;
      this.#liveLength -= this.#lengths[n]!;
    }
    this.#files.delete(fileId);
    this.#hidden.delete(file.number);
    const dead = this.#chunks.length - this.#live;
    if (dead > 256 && dead > this.#live) this.#compact();
  }

  has(fileId: string): boolean {
    return this.#files.has(fileId);
  }

  /** Whether the file's parts are still being added. */
  isHidden(fileId: string): boolean {
    const file = this.#files.get(fileId);
    return !!file && this.#hidden.has(file.number);
  }

  /** The stamp a file was indexed under, if it is indexed (and searchable). */
  stampOf(fileId: string): string | undefined {
    const file = this.#files.get(fileId);
    return file && !this.#hidden.has(file.number) ? file.stamp : undefined;
  }

  /** How many searchable chunks hold a term. */
  documentFrequency(term: string): number {
    const postings = this.#terms.get(term);
    if (!postings) return 0;
    if (postings.length === this.#live && !this.#hidden.size) return postings.length;
    let count = 0;
    for (const posting of postings) {
      const n = Math.floor(posting / TF_SLOTS);
      if (this.#chunks[n] !== undefined && !this.#hidden.has(this.#fileOf[n]!)) count++;
    }
    return count;
  }

  /** A term's inverse document frequency, as BM25 weighs it (a term found nowhere weighs most). */
  idf(term: string): number {
    const df = this.documentFrequency(term);
    return Math.log(1 + (this.#live - df + 0.5) / (df + 0.5));
  }

  get chunkCount(): number {
    return this.#live;
  }

  /** The best `limit` chunks for `query`, best first. */
  search(query: string, limit = 5): Hit[] {
    const queryTerms = [...new Set(indexTerms(query))];
    if (queryTerms.length === 0 || this.#live === 0) return [];
    // Exact terms first: expansion multiplies the postings to read with the vocabulary's size,
    // so it is used only when exact terms find too little.
    const exact = queryTerms.map((t) => ({ queryTerm: t, term: t, weight: 1 }));
    const hits = this.#rank(exact, limit);
    return hits.length >= limit ? hits : this.#rank(this.#expand(queryTerms), limit);
  }

  #expand(queryTerms: string[]): Lookup[] {
    const lookups: Lookup[] = [];
    for (const queryTerm of queryTerms) {
      lookups.push({ queryTerm, term: queryTerm, weight: 1 });
      if (queryTerm.length <= 3) continue;
      const maxEdits = queryTerm.length > 5 ? Math.max(1, Math.floor(queryTerm.length * 0.2)) : 0;
      const found: { term: string; weight: number; df: number }[] = [];
      for (const [term, postings] of this.#terms) {
        if (term === queryTerm) continue;
        if (term.startsWith(queryTerm)) found.push({ term, weight: PREFIX_WEIGHT, df: postings.length });
        else if (maxEdits && withinEdits(queryTerm, term, maxEdits))
          found.push({ term, weight: FUZZY_WEIGHT, df: postings.length });
      }
      found.sort((a, b) => b.df - a.df);
      for (const { term, weight } of found.slice(0, MAX_EXPANSIONS))
        lookups.push({ queryTerm, term, weight });
    }
    return lookups;
  }

  #rank(lookups: Lookup[], limit: number): Hit[] {
    if (this.#scores.length < this.#chunks.length) {
      this.#scores = new Float64Array(this.#chunks.length * 2);
      this.#held = new Uint32Array(this.#chunks.length * 2);
    }
    const scores = this.#scores;
    const held = this.#held;
    const touched: number[] = [];
    const average = this.#liveLength / this.#live;
    const hidden = this.#hidden.size ? this.#hidden : undefined;
    const queryTerms = [...new Set(lookups.map((l) => l.queryTerm))].slice(0, TRACKED_TERMS);
    // Per file touched: each query term's best score in one of its chunks.
    const best = new Map<number, Float64Array>();
    for (const { queryTerm, term, weight } of lookups) {
      const postings = this.#terms.get(term);
      if (!postings) continue;
      const q = queryTerms.indexOf(queryTerm);
      const idf = Math.log(1 + (this.#live - postings.length + 0.5) / (postings.length + 0.5));
      const w = idf * weight * (K1 + 1);
      for (const posting of postings) {
        const n = Math.floor(posting / TF_SLOTS);
        const f = this.#fileOf[n]!;
        if (this.#chunks[n] === undefined || hidden?.has(f)) continue;
        const tf = posting - n * TF_SLOTS;
        if (scores[n] === 0) touched.push(n);
        const score = (w * tf) / (tf + K1 * (1 - B + (B * this.#lengths[n]!) / average));
        scores[n] = scores[n]! + score;
        if (q < 0) continue;
        held[n] = held[n]! | (1 << q);
        let bests = best.get(f);
        if (!bests) best.set(f, (bests = new Float64Array(queryTerms.length)));
        if (score > bests[q]!) bests[q] = score;
      }
    }
    const evidence = (n: number) => {
      const bests = best.get(this.#fileOf[n]!);
      let sum = 0;
      if (bests) for (let q = 0; q < bests.length; q++) if (!(held[n]! & (1 << q))) sum += bests[q]!;
      return FILE_EVIDENCE * sum;
    };
    for (const n of touched) scores[n] = scores[n]! + evidence(n);
    // The best `limit`, kept sorted as they are found (limit is small).
    const top: number[] = [];
    for (const n of touched) {
      const score = scores[n]!;
      if (top.length === limit && score <= scores[top[limit - 1]!]!) continue;
      let at = top.length;
      while (at > 0 && scores[top[at - 1]!]! < score) at--;
      top.splice(at, 0, n);
      if (top.length > limit) top.pop();
    }
    const hits = top.map((n) => {
      const matched = lookups.filter((l) => this.#contains(l.term, n));
      return {
        chunk: this.#chunks[n]!,
        score: scores[n]!,
        terms: [...new Set(matched.map((l) => l.term))],
        queryTerms: [...new Set(matched.map((l) => l.queryTerm))],
        expansions: matched
          .filter((l) => l.term !== l.queryTerm)
          .map((l) => [l.queryTerm, l.term] as [string, string]),
      };
    });
    for (const n of touched) {
      scores[n] = 0;
      held[n] = 0;
    }
    return hits;
  }

  /** Whether chunk `n` holds `term` (postings are in chunk-number order). */
  #contains(term: string, n: number): boolean {
    const postings = this.#terms.get(term);
    if (!postings) return false;
    let lo = 0;
    let hi = postings.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const at = Math.floor(postings[mid]! / TF_SLOTS);
      if (at === n) return true;
      if (at < n) lo = mid + 1;
      else hi = mid - 1;
    }
    return false;
  }

  /** Renumbers the living chunks from 0, dropping the postings of removed ones. */
  #compact(): void {
    const renumbered = new Map<number, number>();
    const chunks: Chunk[] = [];
    const lengths: number[] = [];
    const fileOf: number[] = [];
    this.#chunks.forEach((chunk, n) => {
      if (!chunk) return;
      renumbered.set(n, chunks.length);
      chunks.push(chunk);
      lengths.push(this.#lengths[n]!);
      fileOf.push(this.#fileOf[n]!);
    });
    const terms = new Map<string, number[]>();
    for (const [term, postings] of this.#terms) {
      const kept: number[] = [];
      for (const posting of postings) {
        const n = Math.floor(posting / TF_SLOTS);
        const to = renumbered.get(n);
        if (to !== undefined) kept.push(to * TF_SLOTS + (posting - n * TF_SLOTS));
      }
      if (kept.length) terms.set(term, kept);
    }
    for (const file of this.#files.values()) file.numbers = file.numbers.map((n) => renumbered.get(n)!);
    this.#terms = terms;
    this.#chunks = chunks;
    this.#lengths = lengths;
    this.#fileOf = fileOf;
  }
}
