import { documentTerms, fold, stem, STOP_WORDS, tokens } from '../search/tokens.js';
import { lexicon } from './lexicon.js';
import { OUT_OF_THE_BOX } from './answer-type.js';

export { stem };

/** A word of a question, as matched against passages, and how much it counts. */
export interface QuestionTerm {
  /** The question's word. */
  term: string;
  /** The index's term for it (its stem). */
  stem: string;
  /** Its inverse document frequency times how much its question counts (a follow-up's earlier question, less). */
  weight: number;
  /** Stems of the indexed words it was expanded to (a typo's correction), matched for part of the weight. */
  expansions: Set<string>;
  /**
   * Stems of the words that share a sense with it in WordNet ("duplicate" and "copy",
   * "biggest" and "large"), matched for part of the weight: what a paraphrase says otherwise.
   */
  synonyms?: Set<string>;
  /** A word of the language, not a name: a paraphrase may say it otherwise (see `sayableOtherwise`). */
  word?: boolean;
  /**
   * It names one thing among its kind: an identifier (`sort_keys`, `os.path`, `--all`, `27.04`)
   * or a number. A passage without it is about another.
   */
  required?: boolean;
  /**
   * A program's name, that a document found is named after (`wget`, `scp`): a passage of another
   * document that does not hold it is about another program.
   */
  program?: boolean;
  /**
   * The question writes it in capitals (HTTP's `CONNECT`, `PATH`): only that word holds it, in
   * any case, not another of its stem ("connection", "paths").
   */
  exact?: boolean;
}

/** Whether a question's word names one thing among its kind (see `QuestionTerm.required`). */
export function isName(word: string): boolean {
  return /[._%-]/.test(word) || /^(?:\d+|[A-Z])$/.test(word);
}

/**
 * The names a question gives as a short option's value: `pipefail` of "set -o pipefail", `globstar`
 * of "shopt -s globstar". The option only says how the program is told the name; the name is what
 * is asked about, and a passage on it need not repeat the option (bench:real #33, gnu-fu-1: "-o
 * Restricts the values of optname…" answered what `set -o pipefail` changes). Option -> value,
 * both folded as the question's terms are.
 */
export function optionValues(question: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const m of question.matchAll(/(?<![\p{L}\p{N}_-])(-[a-zA-Z0-9])\s+([A-Za-z_][\w.-]*[\w])/gu)) {
    const value = m[2]!.toLowerCase();
    if (isName(value) || !isWordOfTheLanguage(value, question)) found.set(m[1]!.toLowerCase(), value);
  }
  return found;
}

/** How much a passage word that the search expanded the question's word to counts (a typo, a prefix). */
const EXPANSION_CREDIT = 0.8;
/**
 * How much a word sharing a sense with the question's word counts (see `QuestionTerm.synonyms`).
 * bench:real (#33; the run in this commit: paraphrases holding the expected text 3 % -> 7 %, no
 * other row changed); its questions replayed in process: 0.3 answered one paraphrase fewer,
 * 0.8 the same ones and one keyword question without its expected text.
 */
const SYNONYM_CREDIT = 0.5;

/**
 * Words too common in any English text to say what a question is about ("cost", "per",
 * "happen", "must"); and the words WordNet does not know, which weighed as names, that are
 * none: indefinite pronouns ("anything"), the first part of a contraction ("don" of "don't",
 * "doesn" of "doesn't") and one written without its apostrophe ("whats", "dont"). They weigh
 * this share of their inverse document frequency, which a small workspace overrates (a word
 * found nowhere weighs most). Not conjunctions and prepositions ("if", "whether", "whose"):
 * weighed so, a held-out question on curl was answered wrongly instead of refused.
 */
const GENERIC_SHARE = 0.4;
const GENERIC = new Set(
  `able about after again all also any ask back before best call can cost costs could day days did does done down each
  every find first get gets give go goes good got happen happens help just keep know last let like look make many may
  mean means might month months more most much must need needs new next now off one only other out over per put say
  says see set should show some start still stop take tell then thing things time times try two under use used using
  up very want way week weeks well work works would year years
  anything anyone anybody something someone somebody nothing nobody everything everyone everybody
  don doesn didn isn aren wasn weren hasn hadn wouldn shouldn couldn mustn needn
  whats hows wheres whos thats theres dont doesnt didnt isnt arent wasnt werent cant wont wouldnt shouldnt couldnt`.split(
    /\s+/,
  ),
);

/** Words that only shape a question after "how" ("how long is…", "how much…"), not what it is about. */
const AFTER_HOW = new Set(['much', 'many', 'long', 'often', 'soon', 'far', 'big', 'large']);

const VALUE = new Set(['value', 'values', 'setting', 'settings']);

/** Characters by the names documents call them ("Percent-signs (%)", "a tilde (~)"). */
const SYMBOL_NAMES: Record<string, string> = {
  '%': 'percent',
  '&': 'ampersand',
  '~': 'tilde',
  '*': 'asterisk',
  '|': 'pipe',
  '^': 'caret',
  $: 'dollar',
  '#': 'hash',
  '\\': 'backslash',
};
/** One of them standing alone, or quoted: not part of a name or a figure (`%j`, 50%, `a|b`). */
const SYMBOL = /(?<=^|[\s("'‘“`])([%&~*|^$#\\])(?=$|[\s)"'’”`,.;:?])/g;

/**
 * The question with each character it asks about by itself followed by its name: the tokenizer
 * keeps no lone mark, and "What happens to a % character in a crontab command?" was read as a
 * question on characters and commands (a new user's trial 18, #33).
 */
export function withSymbolsNamed(question: string): string {
  return question.replace(SYMBOL, (mark: string) => `${mark} ${SYMBOL_NAMES[mark]}`);
}

/** A request's opening words ("Explain the SLA policy", "Tell me about refunds"): what it asks for is after them. */
const REQUEST =
  /^\W*(?:please\s+)?(?:explain|describe|summari[sz]e|define|tell\s+(?:me|us)\s+about|give\s+(?:me|us)|show\s+(?:me|us))\b/i;

/** "On its own", "by itself": alone, not a word on owning or a self. */
const ALONE =
  /\b(?:on\s+(?:its|their|my|your|his|her|our)\s+own|by\s+(?:it|them|him|her|my|your|our)sel(?:f|ves))\b/gi;

/**
 * "Shipped" said of a file or its settings ("the shipped jail.conf", "Apache's shipped
 * mod_reqtimeout configuration", "as shipped"): which file, as its package brings it, in a word
 * its text does not say.
 */
const SHIPPED =
  /\bas shipped\b|\bshipped(?=\s+(?:[\w.'’-]+\s+){0,3}?(?:[\w-]+\.(?:conf|cfg|ini|example|sample)\b|conf\b|config\w*|files?\b|defaults?\b|examples?\b|samples?\b|settings?\b|values?\b|version\b))/gi;

/** "Out of the box", wherever the question says it (see answer-type.ts). */
const OUT_OF_THE_BOX_ALL = new RegExp(OUT_OF_THE_BOX, 'gi');

/** The searchable terms of a question, less the words that only make it a question. */
export function questionWords(question: string): string[] {
  // "What is the difference between X and Y?" asks about X and Y.
  const all = tokens(
    question
      .replace(REQUEST, '')
      .replace(/\b(?:the\s+)?differences?\s+between\b/i, '')
      .replace(ALONE, '')
      .replace(OUT_OF_THE_BOX_ALL, '')
      .replace(SHIPPED, ''),
  );
  const lower = question.toLowerCase();
  return all.filter(
    (t) =>
      // Not where the question says it again ("How long does a long self-test take?").
      !(
        AFTER_HOW.has(t) &&
        (lower.match(new RegExp(`\\bhow\\s+${t}\\b`, 'g'))?.length ?? 0) ===
          (lower.match(new RegExp(`\\b${t}\\b`, 'g'))?.length ?? 0)
      ) &&
      // "the default value": a default is the kind of answer asked for (answer-type.ts), "value" no more.
      !(VALUE.has(t) && new RegExp(`\\bdefault\\s+${t}\\b`).test(lower)),
  );
}

/** Words joined by hyphens, not after a letter, a hyphen or a dot (`serve-stale-ttl-max`, not `--stop-after`'s). */
const HYPHENATED = /(?<![\p{L}\p{N}_.-])[\p{L}\p{N}]+(?:-[\p{L}\p{N}]+)+(?![\p{L}\p{N}_-])/gu;

/**
 * The names a question writes as words joined by hyphens, one of which is no word of the
 * language (unbound's `cache-max-ttl`, `gpg-agent`): the index has their words
 * apart, which the options around a made-up one share ("What is the default of serve-stale-ttl-max?"
 * was answered with serve-expired-ttl's and two others' defaults: a new user's trial 26, #33).
 * Not words of the language joined ("read-only", "man-in-the-middle"), which a text may write apart,
 * nor a prefix and a word ("non-admin": a word WordNet does not know, made with a prefix), unless
 * each word has a capital inside the question (`X-Forwarded-For`).
 */
export function hyphenatedNames(question: string): string[] {
  return [...question.matchAll(HYPHENATED)]
    .filter((m) => {
      // "X-Forwarded-For", "Content-Type": words each written with a capital inside a sentence.
      if (m.index > 0 && m[0].split('-').every((part) => /^\p{Lu}/u.test(part))) return true;
      const parts = m[0].toLowerCase().split('-');
      if (parts.length === 2 && PREFIX.test(parts[0]!)) return false;
      return parts.some(
        (part) =>
          !/^\d+$/.test(part) &&
          !PREFIX.test(part) &&
          !STOP_WORDS.has(part) &&
          !isWordOfTheLanguage(part, ''),
      );
    })
    .map((m) => m[0].toLowerCase());
}

/** A prefix a word may be hyphenated after ("multi-threaded", "pre-commit", "anti-aliasing"). */
const PREFIX = /^(?:anti|auto|co|de|inter|intra|multi|non|over|post|pre|re|semi|sub|super|un|under)$/;

/**
 * Whether `text` writes the hyphenated `name` whole, in any case, as a long flag
 * (`--max-cache-ttl`) or joined by underscores (`x86_64`).
 */
export function writesWhole(text: string, name: string): boolean {
  const lower = text.toLowerCase();
  return [name, name.replace(/-/g, '_')].some((spelling) =>
    occurrences(lower, spelling).some((i) => {
      const dashes = /-*$/.exec(lower.slice(Math.max(0, i - 2), i))![0].length;
      return (
        !NAME_CHAR.test(lower[i - dashes - 1] ?? ' ') &&
        !/[-\p{L}\p{N}_]/u.test(lower[i + spelling.length] ?? ' ')
      );
    }),
  );
}

/** Whether a document's name holds the hyphenated `name` between any marks (`man-ssh-agent.pdf`, `gpg-agent.1.pdf`). */
export function fileNamed(filename: string, name: string): boolean {
  const lower = filename.toLowerCase();
  return occurrences(lower, name).some(
    (i) => !ALNUM.test(lower[i - 1] ?? ' ') && !ALNUM.test(lower[i + name.length] ?? ' '),
  );
}

/** Where `text` holds `part`, each place. */
function occurrences(text: string, part: string): number[] {
  const at: number[] = [];
  for (let i = text.indexOf(part); i >= 0; i = text.indexOf(part, i + 1)) at.push(i);
  return at;
}

const ALNUM = /[\p{L}\p{N}]/u;
const NAME_CHAR = /[\p{L}\p{N}_]/u;

/**
 * A word of the language (one WordNet knows, written in lower case) weighs this share against a
 * name (a program, a setting, a product: `autosave`, `tmux`, "Debian"): a paraphrase says the
 * first in other words, never the second, and a question about a name the documents lack
 * ("How often does gnuplot save the session with set autosave?") is not answered by a passage
 * that shares its other words. bench:real (#33; the run in this commit): no-answer questions
 * refused 90 % -> 93 %, table rows holding the expected text 77 % -> 82 %, follow-ups 56 % -> 63 %,
 * paraphrases refused 57 % -> 53 % (the one more answered, wrongly); its questions replayed in
 * process: 0.9 changed only the refusal, 0.7 and 0.6 lost a keyword and a table question.
 */
const LANGUAGE_SHARE = 0.8;

/**
 * "instead" or "rather" said alone ("And if I want UDP instead?" after rsyslog's forwarding over
 * TCP: a new user's trial 38) says that a follow-up swaps one thing for another, not what it asks
 * about: it weighs as a generic word. Not "instead of a plain list", answered by what replaces it.
 */
const SWAPS = /\b(?:instead|rather)\b(?!\s+(?:of|than)\b)/i;

/** How much of its inverse document frequency a question's word weighs. */
export function shareOf(word: string, question = ''): number {
  const generic = GENERIC.has(word) || ((word === 'instead' || word === 'rather') && SWAPS.test(question));
  return (generic ? GENERIC_SHARE : 1) * (isWordOfTheLanguage(word, question) ? LANGUAGE_SHARE : 1);
}

/**
 * A word a paraphrase may say in other words (see `QuestionTerm.word`): a word of the language,
 * not an abbreviation the question writes in capitals ("CEO", "CSV"), which names one thing.
 */
export function sayableOtherwise(word: string, question: string): boolean {
  return isWordOfTheLanguage(word, question) && !writtenInCapitals(word, question);
}

/** Whether the question writes `word` in capitals ("CEO", "CONNECT"). */
export function writtenInCapitals(word: string, question: string): boolean {
  return new RegExp(`(?<![\\p{L}\\p{N}])${word.toUpperCase()}(?![\\p{L}\\p{N}])`, 'u').test(question);
}

/** A word WordNet knows, not written with a capital inside the question's sentence ("Rich", "Debian"). */
function isWordOfTheLanguage(word: string, question: string): boolean {
  if (!/^[a-z]+$/.test(word) || !lexicon()?.knows(word)) return false;
  return !writtenAsName(word, question);
}

/**
 * Whether the question writes `word` with a capital inside its sentence ("Rich", "Debian",
 * "Bitcoin"), or one inside the word, anywhere (a directive's name: `MaxThreads`).
 */
export function writtenAsName(word: string, question: string): boolean {
  for (const m of question.matchAll(
    /(?<=[^.!?;:\s]\s+|["'(])[A-Z][a-z]+\b|(?<![\p{L}\p{N}])\p{L}*\p{Ll}\p{Lu}[\p{L}\p{N}]*/gu,
  ))
    if (fold(m[0]) === word) return true;
  return false;
}

/**
 * Whether the question writes `word` as what something is of ("sox's -G option"): a program's or a
 * project's name, found nowhere a question about another's (m4's -G) is not answered.
 */
export function writtenAsOwner(word: string, question: string): boolean {
  return owners(question, /(?![\p{L}\p{N}])/u).includes(word);
}

/** Whether the question asks for an option of `word`'s ("sox's -G option", "flac's --best"). */
export function optionOwner(word: string, question: string): boolean {
  return owners(question, /\s+--?[A-Za-z]/u).includes(word);
}

/** The names a question writes with "'s" and then `after`. */
function owners(question: string, after: RegExp): string[] {
  const shape = new RegExp(String.raw`(?<![\p{L}\p{N}])([\p{L}\p{N}]+)['’]s${after.source}`, 'gu');
  return [...question.matchAll(shape)].map((m) => fold(m[1]!));
}

/**
 * How many of a word's senses, WordNet's most frequent first, its synonyms come from (bench:real's
 * questions, #33: all of them answered no paraphrase more and cited one keyword question's file
 * first no more).
 */
const SYNONYM_SENSES = 3;

/** The stems of a question word's synonyms (see `QuestionTerm.synonyms`); none for a name or a number. */
export function synonymStems(word: string): Set<string> | undefined {
  if (!/^[a-z]{3,}$/.test(word)) return undefined;
  const own = stem(word);
  const found = (lexicon()?.synonyms(word, SYNONYM_SENSES) ?? [])
    .filter((w) => w.length >= 3 && !STOP_WORDS.has(w))
    .map(stem)
    .filter((s) => s !== own);
  return found.length ? new Set(found) : undefined;
}

/** The stems of a passage's searchable words. */
export function passageStems(text: string): Set<string> {
  return new Set(documentTerms(text));
}

const MONTHS =
  'jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?';
const MONTH = new RegExp(`\\b(?:${MONTHS})\\b`, 'i');
/** A day then its month and year ("16 Apr 2011"), or a month then its day and year ("April 16, 2011"). */
const DAY_BEFORE_MONTH = new RegExp(`^\\d{1,2}\\s+(?:${MONTHS})\\.?,?\\s+\\d{4}\\b`, 'i');
const MONTH_BEFORE_DAY = new RegExp(`\\b(?:${MONTHS})\\.?\\s+$`, 'i');

/**
 * The numbers of a text that are only ever part of a larger figure there: the 16 of
 * "1993-08-16", the 11 of "11:59:01", the 1 of "ISO 3166-1". "Debian 16" is not in that date.
 */
export function figureParts(text: string): Set<string> {
  const parts = new Set<string>();
  if (!/\d[-:/.]\d/.test(text) && !MONTH.test(text)) return parts;
  const alone = new Set<string>();
  for (const m of text.matchAll(/(?<![\p{L}\p{N}])\d+(?![\p{L}\p{N}])/gu)) {
    const before = text.slice(Math.max(0, m.index - 2), m.index);
    const after = text.slice(m.index + m[0].length, m.index + m[0].length + 2);
    // After a figure's separator ("08-16"), or before a time's ("11:59"); a day beside its month
    // ("16 Apr 2011", "April 16, 2011").
    const end = m.index + m[0].length;
    const day =
      m[0].length <= 2 &&
      (DAY_BEFORE_MONTH.test(text.slice(m.index, end + 16)) ||
        (MONTH_BEFORE_DAY.test(text.slice(Math.max(0, m.index - 12), m.index)) &&
          /^,?\s+\d{4}\b/.test(text.slice(end, end + 7))));
    (/^\d[-:/.]$/.test(before) || /^:\d$/.test(after) || day ? parts : alone).add(m[0]);
  }
  for (const n of alone) parts.delete(n);
  return parts;
}

/**
 * The share of the question's weight a passage holds, from 0 to 1: each question term it
 * contains counts its weight (an expansion of it, part of that). Rare words weigh more, so a
 * passage that shares only common words with the question scores low.
 */
export function coverage(stems: ReadonlySet<string>, terms: QuestionTerm[]): number {
  let total = 0;
  let held = 0;
  for (const t of terms) {
    total += t.weight;
    if (holdsName(stems, t.stem)) held += t.weight;
    else if (holdsAny(stems, t.expansions)) held += t.weight * EXPANSION_CREDIT;
    else if (t.synonyms && holdsAny(stems, t.synonyms)) held += t.weight * SYNONYM_CREDIT;
  }
  return total > 0 ? held / total : 0;
}

function holdsAny(stems: ReadonlySet<string>, wanted: Set<string>): boolean {
  for (const w of wanted) if (stems.has(w)) return true;
  return false;
}

/**
 * Whether a passage holds a name the question gives: as given, a long flag by its name, or a dotted name by its last
 * part where that is a name of its own (`tabulate.PRESERVE_WHITESPACE` is `PRESERVE_WHITESPACE`
 * in a text about tabulate; `json.dumps` is not any `dumps`).
 */
export function holdsName(stems: ReadonlySet<string>, name: string): boolean {
  if (stems.has(name)) return true;
  // A long flag by its name where that is an identifier of its own (`--update_to` documented as
  // `update_to : bool`); not `--null` by any "null".
  const bare = name.replace(/^--/, '');
  if (bare !== name && /[_.-]/.test(bare) && stems.has(bare)) return true;
  const last = name.slice(name.lastIndexOf('.') + 1);
  return last !== name && (last.includes('_') || last.length >= 8) && stems.has(last);
}
