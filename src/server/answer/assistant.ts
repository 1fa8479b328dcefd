import { citation, citedFilename } from '../../util/citation.js';
import { RECORD } from '../../util/record-shape.js';
import { holdsAnswerType, quantitiesOf } from './answer-type.js';
import { configBlocks } from './config-blocks.js';
import {
  groundedPassages,
  heaviestOf,
  HOW_TO,
  nameStems,
  RELEVANCE_THRESHOLD,
  scorePassages,
  type ScoredPassage,
} from './ground.js';
import {
  asSentence,
  CODE_MARK,
  DEFAULT_IN_PARENTHESES,
  followingSentences,
  isCodeLine,
  isProse,
  type Passage,
  passagesOf,
  TERM,
  wholeExample,
} from './passages.js';
import {
  figureParts,
  fileNamed,
  hyphenatedNames,
  isName,
  optionValues,
  passageStems,
  type QuestionTerm,
  questionWords,
  withSymbolsNamed,
  sayableOtherwise,
  shareOf,
  stem,
  synonymStems,
  writtenAsName,
  optionOwner,
  writtenAsOwner,
  writtenInCapitals,
  writesWhole,
} from './relevance.js';
import type { Embeddings } from '../search/embeddings/embeddings.js';
import { semanticRetrieval } from './semantic.js';
import type { Chunk, MessageRecord } from '../state/model.js';
import type { ChunkVectors } from '../search/chunk-vectors.js';
import type { SearchIndex } from '../search/fts-index.js';
import type { Hit } from '../search/hit.js';
import { indexTerms, tokens } from '../search/tokens.js';

/** Where answers are looked for: the search index, and the chunks' vectors with an embeddings endpoint. */
export interface Library {
  search: SearchIndex;
  vectors?: ChunkVectors;
}

export interface Reply {
  content: string;
  sources: string[];
  /** The chunks (ids) it drew on. */
  drawnFrom?: string[];
  /** Cut short: the generator's length cap, or its stream broke. */
  incomplete?: boolean;
}

/** How much the previous question's words count in a follow-up, against 1 for the question's own. */
const FOLLOW_UP_WEIGHT = 0.7;

/** How much a part of an identifier named in the question weighs, against a word of its own. */
const PART_SHARE = 0.5;

/** How many chunks a question's answer is looked for in. */
const CANDIDATES = 10;

/** How many chunks of the documents the previous answer drew on a follow-up is looked for in besides. */
const WITHIN_CANDIDATES = 3;

/** A pronoun standing for the previous question's subject ("What replaces it?"). */
const PRONOUN = /\b(?:it|its|they|them|their|that|this|those|these|there|one|ones)\b/i;
/** A question that goes on from the one before with a subject of its own ("And Enterprise?"). */
const GOES_ON = /^\s*(?:and|also|then|what about|how about)\b/i;

/**
 * A follow-up that asks of another subject what the question before asked ("And what about the
 * HTML report?" after "What file name does powertop use for its CSV report if I don't give
 * one?"): where its own words ask for no kind of answer, it asks for the kind that one did.
 */
const ASKS_AS_BEFORE = /^\s*(?:and\s+)?(?:what|how)\s+about\b/i;

/** Whether a question goes on from the one before it (`own`: its own words). */
const followsOn = (question: string, own: string[]) =>
  PRONOUN.test(question) || GOES_ON.test(question) || own.length <= 1;
/** What the documents of `hits` are named after (`rsync`, `rsyncd.conf` of man-rsyncd.conf.pdf). */
function namesOf(hits: Hit[]): Set<string> {
  return new Set(hits.flatMap((h) => [...nameStems(h.chunk.filename)]));
}

/** A question that asks something itself ("And how do I…?", "Is it…?"), not only of what ("And parking passes?"). */
const ASKS_ITSELF =
  /^\s*(?:(?:and|also|then|so)\s+)?(?:how|what|which|who|whom|whose|when|where|why|do|does|did|is|are|was|were|can|could|should|would|will|shall|may|might|must|has|have|had)\b/i;

/**
 * Whether a follow-up names a subject of its own ("And what about SAVEHIST?", "And Enterprise?",
 * "And parking passes?"), no pronoun standing for the one before. One that asks something itself
 * names it by a name, not only by words of the language ("And how do I connect to a port other
 * than the default?" after scp's `-r` still asks of scp).
 */
function namesItsSubject(question: string, own: string[], found: Hit[]): boolean {
  if (PRONOUN.test(question)) return false;
  // "And parking passes?", "What about SAVEHIST?": what it asks of is all it says.
  if (!ASKS_ITSELF.test(question) || ASKS_AS_BEFORE.test(question)) return own.length > 0;
  const named = namesOf(found);
  return own.some(
    (w) =>
      isName(w) ||
      writtenAsName(w, question) ||
      writtenInCapitals(w, question) ||
      // A program's name: what a document found is named after (`rsync`), not "than".
      (!sayableOtherwise(w, question) && named.has(stem(w))),
  );
}

/**
 * Whether a question names, before its first pronoun, what a document it finds is named after and
 * the question before it does not: the pronoun is that name's ("How often does vnstat flush its
 * counters…?", vnstat.conf found, after a question on PgBouncer), and the question's subject its own.
 */
function namesNewSubjectFirst(question: string, own: string[], previous: string, found: Hit[]): boolean {
  const pronoun = PRONOUN.exec(question);
  if (!pronoun) return false;
  const before = new Set(questionWords(question.slice(0, pronoun.index)));
  const earlier = new Set(questionWords(previous).map(stem));
  const named = namesOf(found);
  return own.some((w) => before.has(w) && named.has(stem(w)) && !earlier.has(stem(w)));
}

/** A quotation in a question: a message pasted into it. */
const QUOTED = /"[^"\n]{8,}"|“[^”\n]{8,}”|`[^`\n]{8,}`/g;
/** A dotted figure: an address, a version (`192.168.1.1`, `10.0.0.1`). */
const DOTTED_FIGURE = /(?<![\w.])\d+(?:\.\d+){1,}(?![\w.])/g;

/**
 * The question less the dotted figures of a message it quotes: that message's instance
 * ("nameserver 192.168.1.1 refused to do a recursive query"), which documents write with a
 * placeholder (dnsmasq's FAQ: "nameserver xxx.xxx.xxx.xxx refused…") or another example's
 * figures, so that the figure and its numbers are no words the answer must hold (a new user's
 * trial 19, #33). One asked about outside a quotation is kept.
 */
export function withoutInstances(question: string): string {
  return question.replace(QUOTED, (quoted) => quoted.replace(DOTTED_FIGURE, ''));
}

/** How many questions back a follow-up's subject is looked for. */
const SUBJECT_DEPTH = 3;

/**
 * What the question at `at` asks about: itself, read after the ones it went on from ("What does
 * it default to?" asked twice is still about the escape time asked before it).
 */
function subjectOf(history: MessageRecord[], at: number): string {
  let content = history[at]!.content;
  for (let depth = 1, i = at; depth < SUBJECT_DEPTH; depth++) {
    const asked = history[i]!.content;
    const words = questionWords(asked);
    // One that names a subject of its own is where its subject is.
    if (!followsOn(asked, words) || namesItsSubject(asked, words, [])) break;
    i = history.findLastIndex((m, j) => j < i && m.role === 'user');
    if (i < 0) break;
    content = `${history[i]!.content}\n${content}`;
  }
  return content;
}

/** What was found for a question: the candidate chunks, the question's weighted terms, the passages that answer it. */
export interface Retrieval {
  /** The chunks looked in, then (with a longer `list`) those ranked after them. */
  hits: Hit[];
  terms: QuestionTerm[];
  /** The passages the answer is made of; none when nothing answers the question. */
  passages: ScoredPassage[];
  /** The hits that hold an answering passage: what a generator is given. */
  grounded: Hit[];
  /** Per chunk (by id), its passage ranked first for the question: why it was retrieved. */
  best?: Map<string, ScoredPassage>;
}

/**
 * The passages that answer a message. A follow-up ("What replaces it?", "And Enterprise?") is
 * read with the thread's previous question, at half its weight, and prefers the files the
 * previous answer cited; a question that stands alone is read alone.
 */
export async function retrieve(
  library: Library,
  workspaceId: string,
  question: string,
  history: MessageRecord[],
  {
    threshold = RELEVANCE_THRESHOLD,
    embeddings,
    list = CANDIDATES,
  }: { threshold?: number; embeddings?: Embeddings; list?: number } = {},
): Promise<Retrieval> {
  const index = library.search.workspace(workspaceId);
  const message = withoutInstances(withSymbolsNamed(question));
  const at = history.findLastIndex((m) => m.role === 'user');
  const previous = at >= 0 ? { content: withSymbolsNamed(subjectOf(history, at)) } : undefined;
  const own = questionWords(message);
  const followUp = !!previous && followsOn(message, own);
  const byId = new Map<string, Hit>();
  // The answer is looked for in the best CANDIDATES; a longer list (the search route's) goes on
  // with the chunks ranked after them, which no answer draws on.
  const [ranked = [], withPrevious = []] = index.searchEach(
    followUp ? [message, `${message} ${previous.content}`] : [message],
    Math.max(list, CANDIDATES),
  );
  // Its subject is its own when no pronoun stands for the one before: its answer must hold it.
  const ownSubject =
    followUp &&
    (namesItsSubject(message, own, ranked.slice(0, CANDIDATES)) ||
      namesNewSubjectFirst(message, own, previous.content, ranked.slice(0, CANDIDATES)));
  for (const hit of ranked.slice(0, CANDIDATES)) byId.set(hit.chunk.id, hit);
  for (const hit of withPrevious.slice(0, CANDIDATES))
    if (!byId.has(hit.chunk.id)) byId.set(hit.chunk.id, hit);
  const answer = followUp ? history.slice(at + 1).find((m) => m.role === 'assistant') : undefined;
  // The passages the previous answer drew on are where a follow-up's answer most often is,
  // however many other chunks share its words.
  const drawnOn = new Set<string>();
  for (const id of answer?.drawnFrom ?? []) {
    const chunk = library.search.chunk(workspaceId, id);
    if (!chunk) continue;
    drawnOn.add(chunk.id);
    if (!byId.has(chunk.id))
      byId.set(chunk.id, { chunk, score: 0, terms: [], queryTerms: [], expansions: [] });
  }
  // And in the documents it drew on, where the follow-up's own words are.
  const drawnFiles = [...new Set([...drawnOn].map((id) => byId.get(id)!.chunk.fileId))];
  for (const hit of index.searchWithin(message, drawnFiles, WITHIN_CANDIDATES))
    if (!byId.has(hit.chunk.id)) byId.set(hit.chunk.id, hit);
  let hits = [...byId.values()];
  const expansions = new Map<string, Set<string>>();
  for (const hit of hits)
    for (const [queryTerm, term] of hit.expansions) {
      const set = expansions.get(queryTerm) ?? new Set<string>();
      set.add(term);
      expansions.set(queryTerm, set);
    }
  const weigh = (term: string, share: number, question: string): QuestionTerm => {
    const indexed = stem(term);
    const word = sayableOtherwise(term, question);
    // A word of the language is that word, not the start of a longer one: "undo" is not
    // "undocumented" (the search's prefixes are for names cut short: `config`, `auth`).
    const found = new Set(
      [...(expansions.get(indexed) ?? [])].filter((e) => !word || !e.startsWith(indexed)),
    );
    const idf = index.idf(indexed);
    // A word found nowhere but corrected by the search weighs what its correction does.
    const weight =
      found.size && index.documentFrequency(indexed) === 0
        ? Math.min(...[...found].map((e) => index.idf(e)))
        : idf;
    return {
      term,
      stem: indexed,
      weight: weight * share * shareOf(term, question),
      word,
      exact:
        /^[a-z]{2,}$/.test(term) && question !== question.toUpperCase() && writtenInCapitals(term, question),
      expansions: found,
      synonyms: synonymStems(term),
    };
  };
  const terms = [...new Set(own)].map((t) => weigh(t, 1, message));
  const previousWords = new Set(followUp ? questionWords(previous.content) : []);
  const previousStems = new Set([...previousWords].map(stem));
  for (const t of previousWords)
    if (!own.includes(t)) terms.push(weigh(t, FOLLOW_UP_WEIGHT, previous!.content));
  // The names a question gives (an identifier, a number) must be in what answers it; a
  // follow-up that says "it" gives those of the question before too.
  // Not a number that is part of a figure in the question (the 1 of "ISO 3166-1"): a part, as below.
  const figures = figureParts(followUp ? `${message}\n${previous.content}` : message);
  // A program the question names, that a document found is named after, is what it asks about:
  // "Which wget option limits the download speed?" is not answered by aria2c's options. So is
  // the one named before, in a follow-up that names no subject and says no "it": "And how do I
  // connect to a port other than the default?" after scp's `-r` is not answered by rsync's `--port`.
  const goesOnUnnamed = followUp && !ownSubject && !PRONOUN.test(message);
  const filesNamed = namesOf([...byId.values()]);
  // Nor a quantity the question gives with its unit ("By default, what share of a 10 TB XFS
  // filesystem may be used for inodes?": mkfs.xfs(8)'s "5% for filesystems under 50TB", a new
  // user's trial 41): the user's case, not a name; it and its unit weigh as an identifier's parts.
  const quantities = quantitiesOf(message);
  for (const t of terms) {
    t.required =
      isName(t.term) &&
      !figures.has(t.term) &&
      !quantities.has(t.term) &&
      (own.includes(t.term) || (followUp && !ownSubject));
    if (quantities.has(t.term)) t.weight *= PART_SHARE;
    t.program =
      (!t.word && filesNamed.has(t.stem) && (own.includes(t.term) || goesOnUnnamed)) ||
      // Or the one whose option the question asks about ("What does sox's -G option do?" is not
      // answered by m4's -G: a new user's trial 43, sox named only in lame(1)'s SEE ALSO).
      (own.includes(t.term) && optionOwner(t.term, message));
  }
  // "set -o pipefail" names pipefail; -o is how set is told it.
  const optioned = optionValues(followUp ? `${message}\n${previous.content}` : message);
  for (const t of terms) {
    if (!t.required || !optioned.has(t.term)) continue;
    const value = terms.find((v) => v.term === optioned.get(t.term));
    if (!value) continue;
    // Nor a name the answer must say: "pipefail: … This option is disabled by default."
    for (const said of terms)
      if (said === t || tokens(t.term).includes(said.term)) {
        said.required = false;
        said.word = true;
      }
    value.required = own.includes(value.term) || (followUp && !ownSubject);
  }
  // An identifier's parts ("27" and "04" of 27.04) say again what it says: half weight, not names.
  const parts = new Set(
    terms.filter((t) => t.required).flatMap((t) => tokens(t.term).filter((p) => p !== t.term)),
  );
  for (const t of terms)
    if (parts.has(t.term)) {
      t.required = t.program = false;
      t.weight *= PART_SHARE;
    }
  const continuing = followUp ? new Set((answer?.sources ?? []).map(citedFilename)) : undefined;
  // With an embeddings endpoint: the nearest chunks by meaning too, and each passage's similarity.
  const semantic =
    embeddings &&
    (await semanticRetrieval(
      library,
      workspaceId,
      embeddings,
      followUp ? `${previous.content}\n${message}` : message,
      hits,
      terms,
    ));
  if (semantic) hits = semantic.hits;
  const ownTerms = terms.filter((t) => own.includes(t.term));
  const input = {
    question: message,
    ...(followUp &&
      ASKS_AS_BEFORE.test(message) &&
      holdsAnswerType(message, '') === undefined && { kindOf: `${previous.content}\n${message}` }),
    hits,
    terms,
    continuing,
    drawnOn,
    said: answer?.content,
    ownTerms: ownSubject ? ownTerms : undefined,
    namedBefore: followUp && !ownSubject ? previous.content : undefined,
    followUpTerms: followUp ? ownTerms : undefined,
    // By stem: "listener" asks nothing new after "listening".
    newTerms: followUp ? ownTerms.filter((t) => !previousStems.has(t.stem)) : undefined,
    threshold,
    ...(semantic && { similarity: semantic.similarity, minSimilarity: embeddings!.minSimilarity }),
  };
  // A name the question gives that no document holds, nor anything spelled near it: the
  // documents say nothing of what it asks ("What is the ISO 4217 code for Bitcoin?" is not
  // answered by the code for no currency).
  const unknownName =
    ownTerms.some(
      (t) =>
        (t.required || writtenAsName(t.term, message) || t.exact || writtenAsOwner(t.term, message)) &&
        t.expansions.size === 0 &&
        // An identifier by its parts too (`tabulate.PRESERVE_WHITESPACE` where the text says `PRESERVE_WHITESPACE`).
        [t.stem, ...tokens(t.term).map(stem)].every((s) => index.documentFrequency(s) === 0),
    ) ||
    // Or a hyphenated one that no chunk found, nor its document's name, writes whole.
    hyphenatedNames(message).some(
      (name) => !hits.some((h) => writesWhole(h.chunk.text, name) || fileNamed(h.chunk.filename, name)),
    );
  // Or a follow-up whose pronoun stands for what the answer before found nothing on ("And what
  // happens if I set that to 0?" after a refusal): whatever holds its other words answers nothing.
  const unknownSubject =
    followUp && !ownSubject && !!answer && !answer.sources?.length && !answer.drawnFrom?.length;
  // Scored once: the answer's passages, and the chunks that hold one (what a generator is given).
  let scored = unknownName || unknownSubject ? [] : scorePassages(input);
  let passages = groundedPassages(input, scored);
  if (followUp && passages.length === 0 && !unknownName && !unknownSubject) {
    // "And parking passes?" after another subject: read with the question before, nothing
    // answers; read alone, it may. Alone but for the name "it" stands for, if it says "it": a
    // program's, which documents are named after ("And how do I stop it allowing CONNECT?" after
    // tinyproxy's port is not answered by what Privoxy allows), not the setting's the question
    // before asked about ("And how many client connections will it serve?" after Privoxy's
    // socket-timeout).
    const named = namesOf(hits);
    const names = terms.filter((t) => !own.includes(t.term) && !t.word && !isName(t.term));
    // Or, where no file is named after one, the heaviest ("Is it the default?" after the async
    // option of /etc/exports is not answered by dotenv's table of defaults).
    const filesNamed = names.filter((t) => named.has(t.stem));
    const subject = ownSubject
      ? []
      : (filesNamed.length ? filesNamed : heaviestOf(names)).map((t) => ({ ...t, required: true }));
    const alone = {
      ...input,
      terms: [...ownTerms, ...subject],
      ownTerms: undefined,
      followUpTerms: undefined,
      continuing: undefined,
      drawnOn: undefined,
    };
    scored = scorePassages(alone);
    passages = groundedPassages(alone, scored);
  }
  // A follow-up that asks how, answered only with what the previous answer said, is answered
  // with what comes next in its paragraph ("And how do I fix it?" after what error E-4102 means:
  // "Reconnect the mailbox…"). Not one that asks what that answer says ("What replaces it?").
  if (
    followUp &&
    answer &&
    HOW_TO.test(message) &&
    passages.length &&
    passages.every((p) => answer.content.includes(p.text))
  )
    passages = goingOn(passages, answer.content);
  const answering = new Set(
    [...scored.filter((p) => p.relevance >= threshold), ...passages].map((p) => p.chunk.id),
  );
  const listed = ranked.slice(CANDIDATES).filter((h) => !byId.has(h.chunk.id));
  // The answer's own passage where the chunk holds one; else the one ranked first.
  const best = new Map<string, ScoredPassage>();
  const drawnFrom = new Set(passages.map((p) => p.chunk.id));
  for (const p of [...passages, ...scored.filter((q) => !drawnFrom.has(q.chunk.id))])
    if (p.rank > (best.get(p.chunk.id)?.rank ?? -Infinity)) best.set(p.chunk.id, p);
  return {
    hits: list > hits.length ? [...hits, ...listed] : hits,
    terms,
    passages,
    grounded: hits.filter((h) => answering.has(h.chunk.id)),
    best,
  };
}

/**
 * The sentences after `said` passages in their paragraphs that the previous answer (`content`)
 * did not say, each as its passage scored; the passages themselves when there are none.
 */
function goingOn(said: ScoredPassage[], content: string): ScoredPassage[] {
  const next: ScoredPassage[] = [];
  for (const p of said) {
    const after = followingSentences(p, Infinity).find((s) => !content.includes(s.text));
    if (after && !next.some((n) => n.text === after.text))
      next.push({
        ...after,
        relevance: p.relevance,
        rank: p.rank,
        needsLead: false,
        subject: p.subject,
        exactSubject: p.exactSubject,
      });
  }
  return next.length ? next : said;
}

/** An answering sentence shorter than this is followed by the next of its paragraph, up to this length. */
const ANSWER_SPAN = 240;

/** What the assistant says when no passage answers the question: it cites nothing. */
export const NOT_FOUND =
  "I couldn't find anything about that in this workspace's documents. Try asking in other words.";

/**
 * "Not found" while `indexing` files of the workspace are still to be read: they may hold the
 * answer; else, when `failed` files could not be read, how many, and where to see why.
 */
export function notFound(indexing: number, failed = 0, nearest: string[] = []): string {
  if (indexing === 0) {
    // Where to look on: the documents nearest the question, which `kb search` shows.
    const near = nearest.length
      ? `; the nearest passages are in ${nearest.join(' and ')} (\`kb search\` shows them)`
      : '';
    const unread = failed
      ? `; ${failed === 1 ? '1 file' : `${failed} files`} could not be indexed (\`kb files list --status FAILED\` says why)`
      : '';
    return `${NOT_FOUND.slice(0, -1)}${near}${unread}.`;
  }
  const files = indexing === 1 ? '1 file is' : `${indexing} files are`;
  return `I couldn't find anything about that in this workspace's documents yet: ${files} still being indexed (\`kb files wait\` waits for ${indexing === 1 ? 'it' : 'them'}).`;
}

/** How many of the best-scored chunks a reply that finds nothing names the documents of. */
const NEAREST = 2;

/**
 * The documents (and pages) of the best-scored chunks retrieved, best first, each once: where a
 * reply that finds nothing says the nearest passages are, as `kb search` ranks them. Not the next
 * document down when the best chunks are all one's: it is no nearer than that one's others. None
 * cited: nothing there answers.
 */
export function nearestSources(hits: Hit[]): string[] {
  const files = new Map<string, Chunk>();
  for (const hit of [...hits].sort((a, b) => b.score - a.score).slice(0, NEAREST))
    if (!files.has(hit.chunk.filename)) files.set(hit.chunk.filename, hit.chunk);
  return [...files.values()].flatMap((chunk) => citations([chunk]));
}

/** An answer made of the passages that answer the question, citing their files; or "not found". */
export function extractiveAnswer(retrieval: Retrieval): Reply {
  const { passages } = retrieval;
  if (passages.length === 0) return { content: NOT_FOUND, sources: [] };
  const sources = citations(passages.map((p) => p.chunk));
  const said = new Set(passages.map((p) => `${p.chunk.id}:${p.position}`));
  const sentences: Said[] = [];
  // Chunks overlap by whole sentences: one two passages share is said once.
  const spoken = new Set<string>();
  const say = (...texts: Said[]) => {
    for (const text of texts) {
      const key =
        typeof text === 'string'
          ? text
          : 'code' in text
            ? text.code
            : 'item' in text
              ? text.item
              : `${text.chunk.id}:${text.line}`;
      if (spoken.has(key)) continue;
      spoken.add(key);
      sentences.push(text);
    }
  };
  /**
   * Passages' texts as the answer says them: sentences, or lines of code as written (and a short
   * line without a full stop right after one: `export XZ_DEFAULTS` under its setting).
   */
  const sayText = (...texts: string[]) => {
    for (const text of texts) {
      const last = sentences.at(-1);
      const afterCode = last !== undefined && typeof last !== 'string';
      const code =
        isCodeLine(text) ||
        (afterCode &&
          !/[.!?:]$/.test(text) &&
          text.split(/\s+/).length <= CODE_TAIL_WORDS &&
          CODE_MARK.test(text));
      say(code ? { code: text } : text);
    }
  };
  /**
   * What a sentence ending with a colon introduces: a list's items as items (bulleted, or each but
   * the last going on to the next: "…(the default), or" / "2 MB for views…"), the rest as text.
   */
  const sayList = (lines: string[]) => {
    let goesOn = false;
    for (const line of lines) {
      const listed: boolean = goesOn || ITEM_START.test(line) || (ITEM_GOES_ON.test(line) && isProse(line));
      if (listed) say({ item: line });
      else sayText(line);
      goesOn = listed && ITEM_GOES_ON.test(line);
    }
  };
  /** A configuration's line, said as it is written: a value pasted from an answer must work. */
  const asked = new Set(retrieval.terms.flatMap((t) => [t.term, ...tokens(t.term)]));
  const sayLine = (p: Passage) => {
    say({ chunk: p.chunk, line: p.line });
    // Inside the lines of its section and stanza (`[fs_types]`, `small = {` … `}`).
    for (const line of p.block?.lines ?? []) say({ chunk: p.chunk, line });
    for (const line of shortSection(p, asked)) say({ chunk: p.chunk, line });
  };
  const shownLeads = new Set<string>();
  for (const p of passages) {
    // Said already, by what a passage before it introduced (cron(8)'s -L list and the sentence after it).
    // A sentence, not a line of code that text names (`export XZ_DEFAULTS`).
    // Not the same sentence under another heading it is shown with ("Default: 240 seconds." of
    // BIRD's `startup hold time` after `hold time`'s).
    const lead = p.needsLead && p.lead !== undefined && !shownLeads.has(p.lead) ? p.lead : undefined;
    if (
      lead === undefined &&
      /[.!?]$/.test(p.text) &&
      sentences.some((s) => typeof s === 'string' && s.includes(p.text))
    )
      continue;
    if (lead !== undefined) shownLeads.add(lead);
    // A heading leads with a colon; a FAQ's question (marked `Q:`, it may end with a full stop), or
    // a heading ending with its own colon, as itself.
    const led = (text: string) =>
      lead === undefined
        ? text
        : `${shortLead(lead, retrieval.terms).replace(/[;,]$/, '')}${/[?:.!]$/.test(lead) ? ' ' : ': '}${text}`;
    const before = p.before && `${p.before.chunk.id}:${p.before.position}`;
    if (p.setting && p.example === undefined) {
      if (lead !== undefined && !p.block) say(`${shortLead(lead, retrieval.terms).replace(/[;,:]$/, '')}:`);
      sayLine(p);
      continue;
    }
    if (before && !said.has(before)) {
      // The sentence that states what is asked ("…lists are not efficient for this purpose."), then its answer.
      said.add(before);
      sayText(led(p.before!.text), p.text);
    } else if (p.setting && p.example !== undefined) {
      // The setting a comment describes, as the file writes it (`bantime = 10m`, `# set tabsize 8`).
      sayText(led(p.text));
      say({ code: wholeExample(p) });
    } else if (p.example !== undefined && (p.text.endsWith(':') || p.commands || p.codeOfTerm)) {
      // What a sentence introduces ("…, use:" / `-s (O/../.././(00|06|12|18)|…)`), as written under it.
      sayText(led(p.text));
      say({ code: wholeExample(p) });
    } else sayText(led(p.example ? `${p.text} ${p.example}` : narrowedRecord(p.text, retrieval.terms)));
    const known = new Set([
      ...retrieval.terms.map((t) => t.term),
      ...tokens(p.lead ?? ''),
      ...tokens(p.text),
    ]);
    for (const next of followingSentences(p, ANSWER_SPAN)) {
      const key = `${next.chunk.id}:${next.position}`;
      if (said.has(key) || !sameSubject(next.text, known)) break;
      said.add(key);
      // Not the setting a comment's sentences describe together, shown once already; the setting
      // a comment's last sentence describes, as the file writes it (`#max-clients = 1024` /
      // `max-clients = 16`).
      if (next.setting && next.example !== undefined && next.example !== p.example) {
        sayText(next.text);
        say({ code: wholeExample(next) });
      } else sayText(next.example && next.example !== p.example ? `${next.text} ${next.example}` : next.text);
    }
    // A list announced by a colon and starting right under it is shown as it is.
    const item = announcesList(p) ? undefined : itemAnswering(p, retrieval.terms, spokenText(sentences));
    if (item && !said.has(`${item.chunk.id}:${item.position}`)) {
      said.add(`${item.chunk.id}:${item.position}`);
      sayText(item.lead && TERM.test(item.lead) ? `${item.lead}: ${item.text}` : item.text);
    } else if (!item && p.text.endsWith(':') && p.example === undefined) {
      // "…has one of the following storage classes:" says nothing without what follows it.
      sayList(listAfter(p));
    }
  }
  const body = spokenText(sentences);
  const drawnFrom = [...new Set(passages.map((p) => p.chunk.id))];
  return { content: `${body}${sourcesLine(sources)}`, sources, drawnFrom };
}

/** Fields from which a row is shown by those asked for: a CSV's row of forty buries its answer. */
const WIDE_RECORD = 12;

/**
 * A row of many fields as an answer shows it: its first field, which names it, and the fields
 * whose names the question says ("name.common: Mongolia; … capital: Ulan Bator; …"); whole when
 * the question names none.
 */
function narrowedRecord(text: string, terms: QuestionTerm[]): string {
  if (!RECORD.test(text)) return text;
  const fields = text.replace(/\.$/, '').split('; ');
  if (fields.length < WIDE_RECORD) return text;
  const asked = new Set(terms.map((t) => t.stem));
  const kept = fields.map(
    (field, i) => i === 0 || indexTerms(field.slice(0, field.indexOf(': '))).some((s) => asked.has(s)),
  );
  if (!kept.slice(1).some(Boolean)) return text;
  let shown = '';
  kept.forEach((keep, i) => {
    if (keep) shown += `${i > 0 && !kept[i - 1] ? '… ' : ''}${fields[i]}; `;
  });
  return kept.at(-1) ? `${shown.slice(0, -2)}.` : `${shown}…`;
}

/**
 * A sentence of an answer, or what it shows as written: a line of a configuration file (its
 * chunk's `line`), a line of code, an item of the list a sentence introduces.
 */
type Said = string | { chunk: Chunk; line: number } | { code: string } | { item: string };

/** A line after a line of code, this short and without a full stop, goes on with it (`export XZ_DEFAULTS`). */
const CODE_TAIL_WORDS = 4;

/** Lines of a block this far apart are shown with the lines between them (`unbind C-b` between two that answer). */
const BLOCK_GAP = 3;

/**
 * An answer's text: its sentences joined, and each run of configuration lines as a block of code
 * (Markdown's fences, so a terminal shows each line as it is), with the lines of the file's block
 * between two of them.
 */
function spokenText(said: Said[]): string {
  const parts: string[] = [];
  let prose: string[] = [];
  let code: string[] = [];
  let lines: { chunk: Chunk; lines: number[] } | undefined;
  // A line once: the example a sentence gives may be the very line an answering setting is.
  const pushCode = (line: string) => {
    if (code.at(-1) !== line) code.push(line);
  };
  const endLines = () => {
    if (lines) for (const line of blockLines(lines.chunk, lines.lines)) pushCode(line);
    lines = undefined;
  };
  const endProse = () => {
    if (prose.length) parts.push(prose.join(' '));
    prose = [];
  };
  let items: string[] = [];
  const endItems = () => {
    if (items.length) parts.push(items.map((item) => `- ${item.replace(ITEM_START, '')}`).join('\n'));
    items = [];
  };
  const endCode = () => {
    endLines();
    if (!code.length) return;
    // Longer than any run of backticks in it (CommonMark), so no line of it ends the block.
    const longest = Math.max(0, ...code.flatMap((l) => (l.match(/`+/g) ?? []).map((run) => run.length)));
    const fence = '`'.repeat(Math.max(3, longest + 1));
    parts.push(`${fence}\n${code.join('\n')}\n${fence}`);
    code = [];
  };
  said.forEach((s, i) => {
    if (typeof s !== 'string' && 'item' in s) {
      endProse();
      endCode();
      items.push(s.item);
      return;
    }
    endItems();
    if (typeof s === 'string') {
      endCode();
      // A sentence that introduces the code after it keeps its colon.
      const next = said[i + 1];
      prose.push(next !== undefined && typeof next !== 'string' && s.endsWith(':') ? s : asSentence(s));
    } else if ('code' in s) {
      endProse();
      endLines();
      pushCode(s.code);
    } else {
      endProse();
      if (lines && lines.chunk.id !== s.chunk.id) endLines();
      if (lines) lines.lines.push(s.line);
      else lines = { chunk: s.chunk, lines: [s.line] };
    }
  });
  endItems();
  endCode();
  endProse();
  return parts.join('\n\n');
}

/** A section with this many settings at most is shown whole. */
const SHORT_SECTION = 6;

/**
 * The other settings of the section a setting is in, when the question names the section and it
 * is short and ends inside its chunk: what else it sets is part of the answer (mpv's
 * `[enc-a-opus]`: its bitrate, `oacopts = b=96k`, under the sample rate asked with it; a new
 * user's trial 43). Not a section the question does not name (mke2fs.conf's `[defaults]` for
 * "What is the default inode_ratio?").
 */
function shortSection(p: Passage, asked: Set<string>): number[] {
  if (!p.block || p.block.stanza || !tokens(p.block.name).every((t) => asked.has(t))) return [];
  const opening = p.block.lines[0];
  const lines = p.chunk.text.split('\n');
  const inside = configBlocks(lines).flatMap((b, line) => (b?.lines[0] === opening ? [line] : []));
  const last = inside.at(-1) ?? 0;
  const endsInChunk = lines.slice(last + 1).some((l) => l.trim() !== '');
  return inside.length <= SHORT_SECTION && endsInChunk ? inside : [];
}

/** A block's lines in the file's order, with those of the same block (no blank line) between two close ones. */
function blockLines(chunk: Chunk, lines: number[]): string[] {
  const text = chunk.text.split('\n');
  const sorted = [...new Set(lines)].sort((a, b) => a - b);
  const out: string[] = [];
  sorted.forEach((line, i) => {
    const previous = sorted[i - 1];
    if (previous !== undefined && line - previous <= BLOCK_GAP) {
      const between = text.slice(previous + 1, line);
      if (between.every((l) => l.trim() !== '')) out.push(...between);
    }
    out.push(text[line]!);
  });
  // As far left as the least indented line: a stanza's settings keep their place inside it.
  const written = out.filter((l) => l.trim());
  let indent = /^\s*/.exec(written[0] ?? '')![0];
  for (const l of written) while (!l.startsWith(indent)) indent = indent.slice(0, -1);
  return out.map((l) => (l.startsWith(indent) ? l.slice(indent.length) : l).trimEnd());
}

/** How much of the list a sentence ending with a colon introduces is shown after it. */
const LIST_SPAN = 320;

/** The lines of its chunk after a passage, up to `LIST_SPAN` characters: the list it introduces. */
function listAfter(passage: Passage): string[] {
  const lines: string[] = [];
  let total = 0;
  const all = passage.chunk.text.split('\n');
  // A comment's list is read without the comment's marks (redis.conf's `# * After 3600 seconds…`).
  const comment = /^\s*#/.test(all[passage.line] ?? '');
  // Nor the next section's heading (cron(8)'s `NOTES`).
  const headings = new Set(
    passagesOf(passage.chunk).flatMap((p) => (p.line > passage.line && p.lead ? [p.lead] : [])),
  );
  for (const raw of all.slice(endLine(passage, all) + 1)) {
    const line = comment ? raw.trim().replace(/^#+\s*/, '') : raw.trim();
    if (
      !line ||
      (headings.has(line) && SECTION_HEADING.test(line)) ||
      (lines.length > 0 && total + line.length > LIST_SPAN)
    )
      break;
    lines.push(line.length > LIST_SPAN ? `${line.slice(0, LIST_SPAN).replace(/\s+\S*$/, '')} …` : line);
    total += line.length;
  }
  return lines;
}

/** How many lines a passage's sentence may be wrapped over. */
const WRAPPED_LINES = 8;

/**
 * The line of its chunk a passage ends on: the last of a sentence wrapped over several (fail2ban's
 * jail.conf: "# Changes:  in most of the cases…" / "#           file, but provide…" / "… e.g.:",
 * whose wrapped lines had been shown as what it introduces: a new user's trial 39).
 */
function endLine(passage: Passage, lines: string[]): number {
  const squash = (text: string) =>
    text
      .replace(/^\s*#+/, '')
      .replace(/\s+/g, ' ')
      .trim();
  const tail = squash(passage.text).slice(-12);
  for (let at = passage.line; at < Math.min(lines.length, passage.line + WRAPPED_LINES); at++) {
    const line = squash(lines[at]!);
    if (line && (line.endsWith(tail) || tail.endsWith(line))) return at;
  }
  return passage.line;
}

/** A section's heading in words, not a line of code a lead may be (`export XZ_DEFAULTS`). */
const SECTION_HEADING = /^[\p{Lu}\d][\p{L}\d .,'()-]*$/u;

/** Whether a passage ends with a colon and its line with it, and a list's item starts the next line. */
function announcesList(passage: Passage): boolean {
  if (!passage.text.endsWith(':')) return false;
  const [line, next] = passage.chunk.text.split('\n').slice(passage.line, passage.line + 2);
  return (
    !!line?.trimEnd().endsWith(passage.text) && ITEM_START.test((next ?? '').trim().replace(/^#+\s*/, ''))
  );
}

/** A list's item that goes on to the next: it ends with a comma, a semicolon, "or" or "and". */
const ITEM_GOES_ON = /(?:[,;]|\s(?:or|and))$/;

/** A list's item or a definition's term, as a line starts it. */
const ITEM_START = /^(?:[•·*-]\s|\d+[.)]\s)/;
/** How many lines after a passage its list is looked in. */
const LIST_LINES = 12;

/**
 * The item of the list a passage introduces that says what the answer so far does not: after
 * "…uses color of the dot to summarize the unit state", the question's "red" is in "• Red ●
 * indicates a failed or error state". Only when the passage ends with a colon or a list starts
 * on the next line; the item that holds most of the question's weight the answer lacks (the
 * first of those that hold as much).
 */
function itemAnswering(passage: ScoredPassage, terms: QuestionTerm[], answer: string): Passage | undefined {
  const after = passagesOf(passage.chunk).filter(
    (q) => q.line > passage.line && q.line <= passage.line + LIST_LINES,
  );
  // Under a term of its own, a passage that announces no list is a definition: the terms after
  // it are the next definitions, not its items (vsftpd.conf(5): max_per_ip's text is no item of
  // max_login_fails').
  const sibling = (q: Passage) =>
    !passage.text.endsWith(':') &&
    passage.lead !== undefined &&
    TERM.test(passage.lead) &&
    q.lead !== passage.lead;
  // The next paragraph under a definition's own term goes on with it: no item either
  // (git-config(1)'s gc.auto: "Setting this to 0 disables…" after "The default value is 6700.").
  const continues = (q: Passage) => !passage.text.endsWith(':') && q.lead === passage.lead;
  // A term, not a title's word (a sentence under the heading "Troubleshooting" is no item).
  const listed = (q: Passage) =>
    ITEM_START.test(q.text) ||
    (q.lead !== undefined &&
      TERM.test(q.lead) &&
      !/^\p{Lu}\p{Ll}+$/u.test(q.lead) &&
      !sibling(q) &&
      !continues(q));
  if (
    !after.length ||
    !(passage.text.endsWith(':') || (after[0]!.line === passage.line + 1 && listed(after[0]!)))
  )
    return undefined;
  const have = passageStems(answer);
  const lacking = terms.filter((t) => !have.has(t.stem));
  if (!lacking.length) return undefined;
  let best: Passage | undefined;
  let most = 0;
  for (const q of after) {
    if (!listed(q)) continue;
    const stems = passageStems(`${q.lead ?? ''} ${q.text}`);
    const held = lacking.reduce((sum, t) => sum + (stems.has(t.stem) ? t.weight : 0), 0);
    if (held > most) [best, most] = [q, held];
  }
  return best;
}

/** Words a sentence writes in capitals to stress them: negation, modals, quantifiers. */
const STRESSED = new Set(
  'NOT NO NEVER ONLY ALWAYS MUST SHOULD CANNOT DO DOES ALL ANY NONE BOTH EITHER NEITHER VERY'.split(' '),
);

/**
 * Whether a sentence goes on about what is already said: it names nothing new (a capitalised
 * name past its first word, an identifier) beyond the question and the sentence before it.
 * "The default value is 500." goes on after HISTSIZE's sentence; "The Enterprise plan has custom
 * pricing" does not after the Growth plan's. One that opens with a pronoun goes on.
 */
function sameSubject(sentence: string, known: Set<string>): boolean {
  // "It is January 1, 1970…" after "The epoch is…": a pronoun stands for the subject before, and
  // a word that goes on from it ("So, to do this add the value: MAILDEV = any…"), or what to do
  // with it ("To disable this option, set options.retry.limit to 0.").
  if (
    /^(?:it|its|this|these|they|their|so|then|thus|therefore|to do (?:this|that|so))\b/i.test(sentence) ||
    /^to \w+ (?:(?:this|that|these) \w+|it|them)\b/i.test(sentence)
  )
    return true;
  // Not a word in capitals for stress ("should NOT be owned"), unlike a placeholder (`FILE`, `STEP`).
  const names = (sentence.replace(/^\W*\w+/, '').match(/\b[A-Z][\w-]*|\b\w+(?:[._]\w+)+/g) ?? []).filter(
    (name) => !STRESSED.has(name),
  );
  return names.every((name) => tokens(name).every((t) => known.has(t)));
}

/** A setting's other name in parentheses, not parameters: `compiler_check (CCACHE_COMPILERCHECK)`. */
const OTHER_NAME = /^[A-Z][A-Z\d]*_[A-Z\d_]*(?:\s|$)/;

/**
 * A heading as an answer names it: a function's signature by its name (`shutil.copytree()`), and
 * the parameters the question names, as the signature gives them (`math.isclose(…, rel_tol=1e-09, …)`).
 */
function shortLead(lead: string, terms: QuestionTerm[]): string {
  const signature = /^([\w.]+)\s*\((.{12,})\)/.exec(lead);
  if (!signature || DEFAULT_IN_PARENTHESES.test(lead) || OTHER_NAME.test(signature[2]!)) return lead;
  const asked = new Set(terms.filter((t) => t.required).map((t) => t.term));
  const parameters = signature[2]!.split(/,\s*/);
  const named = parameters.map((p) =>
    asked.has(/^\**([\w.]+)/.exec(p)?.[1]?.toLowerCase() ?? '') ? p : undefined,
  );
  if (!named.some(Boolean)) return `${signature[1]}()`;
  // Each run of parameters not asked about is one "…".
  const shown = named
    .filter((p, i) => p !== undefined || named[i - 1] !== undefined || i === 0)
    .map((p) => p ?? '…');
  return `${signature[1]}(${shown.join(', ')})`;
}

/** The files behind the hits, once each: what a generated answer cites. */
export function sourcesOf(hits: Hit[]): string[] {
  return citations(hits.map((h) => h.chunk));
}

/** One citation per file, in the order first drawn on, naming the pages drawn on (`manual.pdf pp. 3–4`). */
export function citations(chunks: Chunk[]): string[] {
  const pages = new Map<string, number[]>();
  for (const chunk of chunks) {
    const list = pages.get(chunk.filename) ?? [];
    if (chunk.pages)
      for (let p = chunk.pages[0]; p <= chunk.pages[1] && p - chunk.pages[0] < 1000; p++) list.push(p);
    pages.set(chunk.filename, list);
  }
  return [...pages].map(([file, list]) => citation(file, list));
}

/** The line a generated answer ends with, naming the files it drew on. */
export function sourcesLine(sources: string[]): string {
  return `\n\nSources: ${sources.map((s) => `[${s}]`).join(', ')}`;
}
