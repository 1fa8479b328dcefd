import { fold, indexTerms, stem, STOP_WORDS, tokens, TOKENIZER_VERSION, words } from './tokens.js';
import { withinEdits } from '../../util/edit-distance.js';
import type { Chunk } from '../state/model.js';
import type { Hit } from './hit.js';

export type { Hit };
export { fold, indexTerms, stem, tokens, TOKENIZER_VERSION, withinEdits };

/** What a snapshot of one workspace's index holds; `restore` checks it before trusting it. */
export interface IndexImage {
  /** Per file, in chunk-number order: its id, the stamp it was indexed under, its chunk count. */
  files: [fileId: string, stamp: string, chunks: number][];
  /** Per term: the term and how many postings it has (its slice of `postings`). */
  terms: [term: string, count: number][];
  /** Token count per chunk number. */
  lengths: Uint32Array;
  /** Every term's postings, one after another. */
  postings: Float64Array;
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

  /**
   * The index as an image to store; `restore` rebuilds it without tokenizing any text again.
   * Only searchable files are in it, numbered anew in file order so that each file's chunks are
   * one run (the parts of a file added a slice at a time may lie between other files' chunks).
   */
  image(): IndexImage {
    const renumber = new Int32Array(this.#chunks.length).fill(-1);
    const files: IndexImage['files'] = [];
    const lengths: number[] = [];
    let same = true;
    for (const [fileId, file] of this.#files) {
      if (this.#hidden.has(file.number)) continue;
      files.push([fileId, file.stamp, file.numbers.length]);
      for (const n of file.numbers) {
        if (n !== lengths.length) same = false;
        renumber[n] = lengths.length;
        lengths.push(this.#lengths[n]!);
      }
    }
    // Usually every chunk keeps its number: the postings are copied as they are.
    if (same && lengths.length === this.#chunks.length) return this.#imageAsIs(files, lengths);
    const terms: IndexImage['terms'] = [];
    const lists: Float64Array[] = [];
    let total = 0;
    for (const [term, postings] of this.#terms) {
      const kept = new Float64Array(postings.length);
      let k = 0;
      let sorted = true;
      for (const posting of postings) {
        const n = Math.floor(posting / TF_SLOTS);
        const to = renumber[n]!;
        if (to < 0) continue;
        const mapped = to * TF_SLOTS + (posting - n * TF_SLOTS);
        if (k > 0 && mapped < kept[k - 1]!) sorted = false;
        kept[k++] = mapped;
      }
      if (k === 0) continue;
      const list = kept.subarray(0, k);
      if (!sorted) list.sort();
      terms.push([term, k]);
      lists.push(list);
      total += k;
    }
    const postings = new Float64Array(total);
    let at = 0;
    for (const list of lists) {
      postings.set(list, at);
      at += list.length;
    }
    return { files, terms, lengths: Uint32Array.from(lengths), postings };
  }

  #imageAsIs(files: IndexImage['files'], lengths: number[]): IndexImage {
    const terms: IndexImage['terms'] = [];
    let total = 0;
    for (const [term, postings] of this.#terms) {
      terms.push([term, postings.length]);
      total += postings.length;
    }
    const postings = new Float64Array(total);
    let at = 0;
    for (const list of this.#terms.values()) {
      postings.set(list, at);
      at += list.length;
    }
    return { files, terms, lengths: Uint32Array.from(lengths), postings };
  }

  /**
   * An index from a stored image. A file is taken from the image only when `current` gives its
   * chunks under the same stamp and count; the others' chunks are left out, for the caller to
   * index again. Throws when the image does not hold together.
   */
  static restore(
    image: IndexImage,
    current: (fileId: string) => { chunks: Chunk[]; stamp: string } | undefined,
  ): ChunkIndex {
    const index = new ChunkIndex();
    const total = image.files.reduce((sum, [, , count]) => sum + count, 0);
    if (total !== image.lengths.length) throw new Error('chunk counts do not match the lengths');
    if (image.terms.reduce((sum, [, count]) => sum + count, 0) !== image.postings.length)
      throw new Error('term counts do not match the postings');
    const chunks: (Chunk | undefined)[] = new Array<Chunk | undefined>(total).fill(undefined);
    const fileOf: number[] = [];
    let n = 0;
    for (const [fileId, stamp, count] of image.files) {
      const now = current(fileId);
      const numbers = Array.from({ length: count }, (_, i) => n + i);
      for (let i = 0; i < count; i++) fileOf.push(index.#fileCount);
      index.#fileCount++;
      if (now && now.stamp === stamp && now.chunks.length === count) {
        numbers.forEach((number, i) => (chunks[number] = now.chunks[i]));
        index.#files.set(fileId, { numbers, stamp, number: index.#fileCount - 1 });
        index.#live += count;
        for (const number of numbers) index.#liveLength += image.lengths[number]!;
      }
      n += count;
    }
    index.#chunks = chunks;
    index.#lengths = Array.from(image.lengths);
    index.#fileOf = fileOf;
    let at = 0;
    for (const [term, count] of image.terms) {
      const postings = image.postings.subarray(at, at + count);
      at += count;
      let previous = -1;
      for (const posting of postings) {
        const number = Math.floor(posting / TF_SLOTS);
        if (!(posting >= 0) || number >= total || number <= previous)
          throw new Error(`bad postings for "${term}"`);
        previous = number;
      }
      index.#terms.set(term, postings);
    }
    if (total - index.#live > 256 && total - index.#live > index.#live) index.#compact();
    return index;
  }
}
