import type { Hit } from '../search/hit.js';
import { asksDefaultOnly, asksForOption, DEFAULT_VALUE, holdsAnswerType } from './answer-type.js';
import { previousAnswerContext } from './follow-up.js';
import {
  DEFAULT_IN_PARENTHESES,
  isAttributeLine,
  isTermLead,
  MAN_SECTION,
  type Passage,
  passagesOf,
  recordValues,
  settingNameOf,
  exampleSettingName,
  TERM,
} from './passages.js';
import {
  coverage,
  figureParts,
  fileNamed,
  holdsName,
  hyphenatedNames,
  passageStems,
  type QuestionTerm,
  stem,
  writesWhole,
} from './relevance.js';
import { indexTerms, tokens } from '../search/tokens.js';

/**
 * How much of a question's weight a passage must hold to answer it. Measured on the labelled
 * set (bench/answers.eval.yaml, `npm run bench`): see docs/local-service.md, "Answers".
 */
export const RELEVANCE_THRESHOLD = 0.55;
/** Passages after the best one are kept only when they rank this close to it. */
const NEAR_BEST = 0.9;
const DEFAULT = stem('default');
const MAX_PASSAGES = 3;
/** A follow-up prefers the files the previous answer cited (the subject of the conversation). */
const CONTINUITY_BONUS = 0.1;
/** And more, the very passages it drew on. */
const DRAWN_ON_BONUS = 0.25;
/** A passage under a heading that names what is asked about is about it, not just mentioning it. */
const SUBJECT_BONUS = 0.5;
/**
 * Under one heading, the sentence that says what is asked in its own words beats the ones the
 * heading alone makes match (the sentence on `dirs_exist_ok`, not the first under copytree's
 * signature).
 */
const OWN_WORDS_BONUS = 0.2;
/** Between passages that hold as much of the question, the one with fewer other words is the answer. */
const DENSITY_WEIGHT = 0.15;
/** A passage that holds the kind of answer asked for (a duration for "how long"), over one that does not. */
const ANSWER_TYPE_BONUS = 0.15;
/** A passage without the kind of answer asked for answers less of the question ("how long" → "passwords are allowed"). */
const MISSING_TYPE_SHARE = 0.75;
/**
 * Less when the default is all a question asks ("What is curl's default value for
 * --connect-timeout?"): what else a document says of the setting is no answer. bench:real and
 * bench:heldout: no question's flags or answer changed at 0.6 or 0.5; the twentieth new user's
 * trial: its absent default (curl(1) states none) refused at 0.5, answered at 0.6; the eighteenth's
 * and nineteenth's answers unchanged but for one passage fewer beside a right one.
 */
const MISSING_DEFAULT_SHARE = 0.5;
/**
 * A passage that does not answer alone counts the question's words that only the passage before
 * it under the same heading holds at this share of their weight, and is then shown after it: a
 * paraphrase often states the problem in one sentence and its answer in the next ("…lists are not
 * efficient for this purpose." / "To implement a queue, use collections.deque…"). bench:real
 * (#33; the run in this commit: paraphrases cited first 20 % -> 23 %, no other row changed); its
 * questions replayed in process: a share of 1 cited one keyword question's file first no more.
 */
const BEFORE_SHARE = 0.5;
/** A passage without an identifier or a number the question names (see `QuestionTerm.required`). */
const MISSING_NAME_SHARE = 0.5;
/**
 * A name the question gives that is not in the sentence but in the rest of its chunk counts at
 * this share of its weight, and is missing at the rest. bench:real (#33; the run in this commit:
 * identifiers cited first 95 % -> 98 %, no other question's flags changed; bench:heldout and the
 * new-user trial's answers unchanged); 1 lost four answers' expected text and a no-answer refusal.
 */
const AROUND_SHARE = 0.5;
/**
 * The words of the rest of a term's definition count at this share for its sentence that states
 * the value asked for ("The default is 600 seconds." under `--default-cache-ttl n`, whose last
 * sentence names the cached passphrase asked about). Not tuned: the share the sentence before
 * counts at (BEFORE_SHARE); bench:real and bench:heldout kept every question's flags with it (one
 * answer a right sentence longer), and the twentieth new user's trial's F4a was answered.
 */
const DEFINITION_SHARE = 0.5;

/**
 * A question on how the things it names differ, each as much as the other (not "What does X do,
 * compared with Y?", which asks about X: tried, and it answered with Y).
 */
const COMPARISON = /\bdifferences?\s+between\b|\bversus\b|\bvs\.?\s/i;
/** A question asking what a thing it names is or does ("What does %j print?"), not "what does it…". */
/**
 * A question in two parts, what a thing is or does and its default ("What does FlushAllOnReload
 * do, and what is its default?", "What is QUILT_PC for and what is its default?"): new users'
 * trials 42 (I01) and 43 (i02, i03) were answered with the default alone.
 */
const WHAT_AND_DEFAULT =
  /\bwhat\s+(?:is|are|does|do)\b[^?]*?\b(?:for|do|does|mean|means)\b[^?]*\bdefault|\bdefault\b[^?]*\band\s+what\s+(?:is|are|does|do)\b[^?]*?\b(?:for|do|mean)\b/i;
const DEFINITION_QUESTION =
  /^\W*(?:and\s+)?what\s+(?:does|do|is|are)\s+(?!(?:it|its|they|this|that|these|those)\b)/i;
/**
 * A question asking which term does something ("Which format letter makes time print…?", "What
 * option makes ls sort by size?"): the words naming the kind of term (group 1) are what a
 * definition's term is, not words its definition must say.
 */
const ASKS_FOR_TERM =
  /\b(?:which|what)\s+(?!(?:does|do|did|is|are|was|were|can|could|should|would|will)\b)((?:[\w.+-]+\s+){0,2}?(?:letters?|options?|flags?|switch(?:es)?|directives?|specifiers?|escapes?|keys?|keywords?|variables?|characters?|fields?|settings?|commands?|parameters?|arguments?))\b/i;
/**
 * The definition of a name the question asks about, over the sentences that only use the name
 * (npm run bench:real: 0.25 held one fewer than 0.5; 1 the same as 0.5).
 */
const DEFINITION_BONUS = 0.5;
/** A definition's lead names one thing by its aliases (`-u, --include-untracked, --no-include-untracked`), not more. */
const MAX_TERMS_DEFINED = 3;

/**
 * A question asking how to do something ("How can I compress a file without deleting it?"), also
 * after a sentence saying what happened ("vsftpd says 'refusing to run with writable root'. How do
 * I fix it?").
 */
export const HOW_TO = /(?:^|[.!]\s+)\W*(?:and\s+)?how\s+(?:do|can|could|should|would)\s+(?:i|you|we|one)\b/i;
/** A definition list's term that is a program's option (`‘--keep’, ‘-k’`). */
const OPTION = /^[‘'"`]?-/;
/**
 * A how-to question is most often answered by an option: an option's definition ranks this share
 * of its relevance ahead ("‘--keep’, ‘-k’: Keep (don't delete) input files…" over "By default,
 * gzip keeps the original file name…"). bench:real's questions replayed in process (#33): 0.2 and
 * 0.4 answered one paraphrase more with its expected text and changed no other row.
 */
const OPTION_SHARE = 0.2;
/**
 * The headings under which a troubleshooting guide states a problem, and says what to do about it
 * ("Symptom" / "Solution", "Problem" / "Workaround", "Cause" / "Resolution": podman's
 * troubleshooting.md, a new user's trial 41). For a how-to question, a passage under the first
 * ranks at PROBLEM_SHARE of its rank (set on that trial's question: at 0.5 the "Solution"'s
 * `loginctl enable-linger` answers; no bench:real question has such headings), one under the
 * second as one that says what to run.
 */
const STATES_PROBLEM = /^(?:symptoms?|problems?|issues?|causes?|errors?)\s*:?$/i;
const SOLVES = /^(?:solutions?|workarounds?|resolutions?|fix(?:es)?|remed(?:y|ies))\s*:?$/i;
const PROBLEM_SHARE = 0.5;
/**
 * So is a sentence that introduces what to run (tinc's README.Debian: "To enable and start a net,
 * call:" / `systemctl enable tinc@<netname>`), over one that says as many of the question's words
 * and shows nothing to do (a new user's trial 30, q62).
 */
const instructs = (passage: Passage): boolean => passage.example !== undefined && passage.text.endsWith(':');
/**
 * A heading of one capitalised word ("Benefits") over prose: the sentence under it is not a
 * definition of it, and reads better without it ("Parental leave is sixteen weeks…").
 */
const TITLE_WORD = /^[A-Z][a-z]+$/;
/** A heading that is an option's or a setting's name (`--slurp/-s`, `renumber-windows [on | off]`). */
const SETTING_LEAD = /^[‘'"`]?(?:-|[a-z][a-z0-9]*(?:[-_][a-z0-9]+)+\b)/;
const SETTING_LEAD_LENGTH = 48;
/** A heading that is a name alone, or with the type of its value: `Canonicalization (string)`, `MaxRtrAdvInterval seconds`. */
const NAME_LEAD = /^[A-Za-z][\w.-]*(?:\s+\([\w\s|,-]+\)|\s+[a-z]+)?$/;

/**
 * A sentence whose subject is the one before it, or that goes on from it ("And even if…"), or
 * that does something to it ("Turning it on gives…"), or says it again ("In other words, it will
 * prevent restic from crossing filesystem boundaries"): shown after it.
 */
const PRONOUN_LED =
  /^(?:\p{L}+ly,\s+)?(?:this|that|it|these|they|and|but)\b|^\p{L}+ing\s+(?:it|this|them)\b|^in other words\b/iu;
/**
 * A sentence that names its subject by its kind, wherever in it ("The default value of this macro
 * is 1 billion"): the name is the one the sentence before gives it, which it is shown after.
 */
const NAMED_BY_KIND =
  /\b(?:this|these|such)\s+(?:macros?|options?|flags?|functions?|methods?|class|classes|commands?|variables?|settings?|parameters?|arguments?|modes?|directives?|fields?|keys?|features?|pragmas?|modules?|properties|property|attributes?|limits?|programs?)\b/i;

/** A heading's section number: `7.6.9. `, `2 `. */
const SECTION_NUMBER = /^\s*(?:\d{1,3}\.)*\d{1,3}\.?\s+/;

/**
 * A sentence that names its subject by its heading's kind ("This option may be useful if…", "Use
 * of this algorithm is recommended…": HAProxy's `leastconn`, a new user's trial 39), or only as
 * "it" ("Turning it on gives…", ldirectord(8)'s "…you will want to set this to no" under
 * `cleanstop = yes | no`, a new user's trial 42): it says nothing without it.
 */
const REFERS_BACK =
  /^\p{L}+ing\s+(?:it|this|them)\b|\b(?:set|turn|switch)\s+(?:it|this)\s+(?:to|on|off)\b|\b(?:enable|disable)\s+(?:it|this)\s*[.,;]|^(?:(?:the\s+)?(?:use|effect|purpose)\s+of\s+)?(?:this|these|such)\s+(?:options?|flags?|functions?|methods?|class|classes|commands?|variables?|settings?|parameters?|arguments?|modes?|directives?|fields?|keys?|features?|algorithms?|polic(?:y|ies))\b/iu;

/** A default stated without what it is the default of ("The default is prohibit-password.", "Defaults to 10."). */
const SUBJECTLESS_DEFAULT = /^(?:the\s+)?default(?:\s+value)?\s+(?:is|was)\b|^defaults?\s+to\b/i;

export interface ScoredPassage extends Passage {
  /** The share of the question's weight it holds (see `coverage`). */
  relevance: number;
  rank: number;
  /**
   * It holds part of the question only through its heading, or it defines its heading's term: shown
   * with it (`work_mem: The default is 4MB.`, "‘--keep’, ‘-k’: Keep (don't delete) input files").
   */
  needsLead: boolean;
  /** The share of the question's weight its heading holds: how much it is about what is asked. */
  subject: number;
  /** That share, by the share of its heading's words asked: how much it is about nothing else. */
  exactSubject: number;
  /** The passage before it under its heading, which holds part of the question it answers: shown before it. */
  before?: Passage;
  /** It holds the kind of answer the question asks for (undefined: the question asks for none). */
  typed?: boolean;
  /** It holds every name the question gives (see NAMES_HELD_SHARE). */
  holdsNames?: boolean;
}

export interface GroundingInput {
  question: string;
  /**
   * The words that say what kind of answer is asked (see holdsAnswerType), when not the question's:
   * a follow-up's that asks of another subject what the question before asked.
   */
  kindOf?: string;
  hits: Hit[];
  terms: QuestionTerm[];
  /** The files the previous answer cited, when the question follows up on it. */
  continuing?: Set<string>;
  /** The chunks (ids) the previous answer drew on, when the question follows up on it. */
  drawnOn?: Set<string>;
  /** The previous answer's text: a passage it already said is not news to a follow-up. */
  said?: string;
  /**
   * A follow-up's own words: a passage that holds none of them only answers the question
   * before it again ("And parking passes?" after the fire drill), so it does not count by words.
   */
  ownTerms?: QuestionTerm[];
  threshold?: number;
  /**
   * The question before, when a follow-up's pronoun stands for what it named: its hyphenated names
   * are this one's too ("Is it enabled by default?" after do-ip6).
   */
  namedBefore?: string;
  /** A follow-up's own words, with or without a pronoun for the subject before (see previousAnswerContext). */
  followUpTerms?: QuestionTerm[];
  /**
   * Of those, the ones the question before did not say: what the follow-up newly asks. A
   * sentence of the passages the previous answer drew on that holds none of them is no nearer
   * its answer than any other ("And which command does it use to mail logs by default?" after
   * the default state file was answered with the state file's lock).
   */
  newTerms?: QuestionTerm[];
  /** Per passage text, its cosine with the question (with an embeddings endpoint). */
  similarity?: Map<string, number>;
  /** The cosine at which a passage answers by meaning alone. */
  minSimilarity?: number;
}

/**
 * The passages of the hits that answer the question, scored; each text once (chunks overlap, so
 * a passage met again, or inside a longer one, is dropped), best first.
 */
export function scorePassages(input: GroundingInput): ScoredPassage[] {
  const { question, hits, continuing } = input;
  const kindOf = input.kindOf ?? question;
  // "What is the difference between bisect_left and bisect_right?": each is answered on its own.
  const compared = COMPARISON.test(question) ? input.terms.filter((t) => t.required) : [];
  // Hyphenated names (`cache-max-ttl`) are names too, held where written whole (see hyphenatedNames).
  const hyphenated = [
    ...new Set([...hyphenatedNames(question), ...hyphenatedNames(input.namedBefore ?? '')]),
  ];
  const all: ScoredPassage[] = [];
  const defined = definedPhrase(question);
  const names = input.terms.filter((t) => !t.word || t.required);
  // The names a passage holds to answer at NAMES_HELD_SHARE: not a conjunction or a preposition
  // that WordNet does not list, which a paraphrase need not say ("if", "without": FRR's "…will
  // detect failures only after 900 milliseconds without receiving packets" was refused for its
  // "if", a new user's trial 40).
  const namesToHold = names.filter((t) => !FUNCTION_WORDS.has(t.term));
  // "What is the default value of sslVersionMin?" asks what a thing it names has, not what it is;
  // so does "What is the default sslVersionMin?", which asks for a kind of answer (a default).
  const asksAttribute =
    (!!defined && names.length > 0 && !names.some((t) => defined.includes(t.stem))) ||
    holdsAnswerType(kindOf, '') !== undefined;
  const asksDefinition = DEFINITION_QUESTION.test(question) && !asksAttribute;
  const termKind = ASKS_FOR_TERM.exec(question)?.[1];
  const termKindStems = termKind ? indexTerms(termKind) : [];
  const howTo = HOW_TO.test(question);
  const optionAsked = asksForOption(kindOf);
  const asksDefinitionToo = WHAT_AND_DEFAULT.test(question);
  const defaultOnly = asksDefaultOnly(kindOf);
  const threshold = input.threshold ?? RELEVANCE_THRESHOLD;
  const followUpTerms = input.followUpTerms ?? [];
  const numbers = input.terms.filter((t) => t.required && /^\d+$/.test(t.stem)).map((t) => t.stem);
  const inPreviousAnswer = followUpTerms.length
    ? previousAnswerContext(hits, input.drawnOn, input.said)
    : () => false;
  const exact = input.terms.filter((t) => t.exact);
  /** The names a follow-up keeps from the question before: what "it" stands for. */
  const carriedNames = input.followUpTerms
    ? input.terms.filter((t) => !t.word && !input.followUpTerms!.includes(t))
    : [];
  // A heading's words, and a sentence's as the one before the next, are read once. A word asked
  // in capitals is held by that word alone ("CONNECT", not "connection").
  const exactly = (stems: Set<string>, text: string) => {
    for (const t of exact) if (stems.has(t.stem) && !tokens(text).includes(t.term)) stems.delete(t.stem);
    return stems;
  };
  const stemsOf = onceEach((text) => exactly(passageStems(text), text));
  // A heading names what its passages are about by its words as written: a name in CamelCase
  // there is that name, not each of its words (`ConnectPort` is no heading on ports).
  const headingStemsOf = onceEach((text) => exactly(new Set(indexTerms(text)), text));
  // A term holds the names it gives whole: a word is no term of a snake_case identifier it is a
  // part of (`flush` of unbound-control(8)'s `flush_bogus`, beside `flush name`: a new user's
  // trial 28). Not the parts of an identifier the question gives: it asks by them
  // (`.EXTRA_PREREQS`).
  const askedParts = new Set(
    (question.match(SNAKE_CASE) ?? []).flatMap((id) => id.toLowerCase().split('_').map(stem)),
  );
  /** The stems of a text that are only parts of its snake_case identifiers (see askedParts). */
  const partsOnlyOf = onceEach((text) => {
    const ids = text.match(SNAKE_CASE);
    if (!ids) return new Set<string>();
    const alone = new Set(indexTerms(text.replace(SNAKE_CASE, ' ')));
    return new Set(
      ids
        .flatMap((id) => id.toLowerCase().split('_').map(stem))
        .filter((part) => !alone.has(part) && !askedParts.has(part)),
    );
  });
  const without = (stems: ReadonlySet<string>, parts: ReadonlySet<string>) =>
    parts.size ? new Set([...stems].filter((s) => !parts.has(s))) : stems;
  const asksPrograms = input.terms.some((t) => t.program);
  for (const hit of hits) {
    const passages = passagesOf(hit.chunk);
    const chunkStems = asksPrograms ? stemsOf(hit.chunk.text) : new Set<string>();
    for (const [at, passage] of passages.entries()) {
      // Copies: a number held only inside a figure is taken out of them below.
      // A setting's comment shows the settings of its group with it (rsyslog.conf's "Set the default
      // permissions for all log files." / `$FileOwner root` … `$FileCreateMode 0640`): they are its too.
      const shown = passage.example
        ? [passage.text, passage.example, ...(passage.setting ? settingsOfGroup(passage) : [])].join(' ')
        : passage.text;
      const own = new Set(stemsOf(shown));
      // A row of a line's subject ("Default: 5") says what the line's first sentence does
      // ("maxRetries number (optional) - Maximum number of retries."): those words are its own.
      if (passage.rowOfSubject)
        for (const p of passages)
          if (p.line === passage.line && p.position < passage.position)
            for (const s of stemsOf(p.text)) own.add(s);
      // The value a configuration file sets is its default.
      // Not one inside a stanza: that is the stanza's (mke2fs.conf's `small = {` … `}`).
      const statesDefault = !!passage.setting && !passage.block?.stanza;
      if (statesDefault) own.add(DEFAULT);
      const leadStems = passage.lead ? new Set(headingStemsOf(passage.lead)) : undefined;
      const termStems = leadStems && without(leadStems, partsOnlyOf(passage.lead!));
      // Nor does a sentence say a word it writes only inside such an identifier ("Other record
      // types can be removed using flush_type or flush_zone." says nothing of `flush`).
      const wholeOwn = without(own, partsOnlyOf(shown));
      // What a reader knows around the sentence: its heading, and the document it is in.
      // And, for a row of a list, the sentence that says what the list is.
      const stems = new Set([
        ...own,
        ...(leadStems ?? []),
        ...(passage.intro ? stemsOf(passage.intro) : []),
        ...nameStems(passage.chunk.filename),
      ]);
      // A number the question names is not held as part of a date or a time there ("Debian 16"
      // is not in "1993-08-16").
      const parts = numbers.length ? figureParts(`${passage.lead ?? ''}\n${passage.text}`) : undefined;
      for (const n of numbers) if (parts?.has(n)) for (const set of [own, leadStems, stems]) set?.delete(n);
      // The kind of answer asked for, in the sentence or in its heading ("(5) SQLITE_BUSY").
      const typedText = holdsAnswerType(kindOf, shown, statesDefault);
      // Not by its section number ("7.6.9. max-client-connections" holds no count).
      const typedLead =
        typedText === false &&
        !!passage.lead &&
        holdsAnswerType(
          kindOf,
          passage.lead.replace(SECTION_NUMBER, ''),
          DEFAULT_IN_PARENTHESES.test(passage.lead),
        ) === true;
      // A definition's term is of the kind of term asked for ("format letter": `M`), whatever
      // else the question's words seem to ask ("maximum" a magnitude).
      const definesKind = termKindStems.length > 0 && !!passage.defines && TERM.test(passage.lead!);
      // Or, the first sentence of a term's definition, with the default it leaves to a later one
      // (smartd's "-i N" / "Sets the interval … to N seconds" … "The default is 1800 seconds.";
      // see valueUnder).
      const typedUnder =
        typedText === false &&
        !!passage.lead &&
        passages[at - 1]?.lead !== passage.lead &&
        !/\d/.test(passage.text) &&
        passages.some(
          (p) =>
            p.lead === passage.lead &&
            p.position > passage.position &&
            DEFAULT_VALUE.test(p.text) &&
            holdsAnswerType(kindOf, `${shown} ${p.text}`) === true,
        );
      const typed =
        definesKind || (typedText === undefined ? undefined : typedText || typedLead || typedUnder);
      const ownHeld = !input.ownTerms?.length || coverage(stems, input.ownTerms) > 0;
      // A passage on one of the names compared is weighed without the others.
      const on = compared.filter((t) => holdsName(stems, t.stem));
      // Nor are the words naming that kind what its definition must say.
      // A name among them is whose terms they are: "Which wget option…" is not answered by aria2c's.
      const kindless = definesKind
        ? input.terms.filter((t) => t.program || !termKindStems.includes(t.stem))
        : input.terms;
      const terms =
        on.length > 0 && compared.length > 1
          ? kindless.filter((t) => !compared.includes(t) || on.includes(t))
          : kindless;
      // A passage without the identifier or number the question names is about something else
      // ("Ubuntu 27.04" is not 13.04; json.dumps's ignore_nan is none of its other options).
      const required = terms.filter((t) => t.required);
      // The name asked about: those the question gives, or else its heaviest word ("What does
      // the globstar shell option do?").
      const subjectNames = required.length ? required : heaviestOf(terms);
      // The names it gives, identifiers or words that are no word of the language (`iburst`).
      const givenNames = terms.filter((t) => t.required || t.word === false);
      const documentStems = nameStems(passage.chunk.filename);
      // A program's document is one named after it or a name it begins (rsyncd.conf is rsync's).
      const ofDocument = (t: QuestionTerm) =>
        documentStems.has(t.stem) || (!!t.program && [...documentStems].some((s) => s.startsWith(t.stem)));
      // "This matches the Command method .requiredOption()." says what only the sentence before names.
      const pronounLed = PRONOUN_LED.test(passage.text);
      const namedByKind = NAMED_BY_KIND.test(passage.text);
      const previous = previousUnderLead(passages, at);
      // "The default value of this macro is…" holds the macro the sentence before names, as its own;
      // so does "It returns FAIL if…" after '"wpa_cli wps_check_pin <PIN>" can be used…' (a new
      // user's trial 36).
      const namedBefore =
        (namedByKind || pronounLed) && previous
          ? required.filter((t) => !holdsName(stems, t.stem) && holdsName(stemsOf(previous.text), t.stem))
          : [];
      // With its parts (`sqlite`, `max`, `length` of `sqlite_max_length`).
      for (const t of namedBefore) for (const part of [t.stem, ...indexTerms(t.term)]) stems.add(part);
      const alone = coverage(stems, terms);
      const attributeLine = isAttributeLine(passage);
      // An attribute on a line of its own right under its term's text (`-p<path>` / "Path to find
      // control sockets." / `Default: /var/run/hostapd`) is shown after it; not after another
      // attribute (mutt's "Type: number" / "Default: 5").
      const underText = attributeLine && !!previous && !isAttributeLine(previous);
      // "What is QUILT_PC for and what is its default?": the default's sentence after the first of
      // its term's definition, which says what the term is.
      const definitionFirst =
        asksDefinitionToo && typed === true && !passage.defines ? definitionOf(passages, at) : undefined;
      const before =
        definitionFirst ??
        (alone < threshold || pronounLed || namedBefore.length || underText ? previous : undefined);
      const joined = before ? coverage(new Set([...stems, ...stemsOf(before.text)]), terms) : 0;
      // An identifier the sentence leaves to the text around it (the example above it:
      // `console.log(test_data, log_locals=True)` / "Note the log_locals argument, which…"). Not a
      // number: one elsewhere in the chunk is as often another figure's part (a date, a page).
      const around = required.filter(
        (t) =>
          !/^\d+$/.test(t.stem) &&
          !holdsName(stems, t.stem) &&
          holdsName(stemsOf(passage.chunk.text), t.stem),
      );
      const withAround = around.length
        ? coverage(new Set([...stems, ...around.map((t) => t.stem)]), terms)
        : 0;
      // The sentence of a definition that states the value asked for, with the definition's words.
      // Of a term's (an option's, a setting's), not of a section's under a title; or of the comment
      // that describes a setting, its sentences together (hostapd.conf's "Maximum number of
      // stations allowed in station table." … "(default: 2007)" / `max_num_sta=255`).
      const definitionWords =
        typedText !== true
          ? []
          : passage.lead && isTermLead(passage.lead)
            ? passages.filter((p) => p !== passage && p.lead === passage.lead).map((p) => p.text)
            : passage.setting && passage.exampleGoesOn
              ? passages
                  .filter((p) => p !== passage && p.exampleGoesOn === passage.exampleGoesOn)
                  .map((p) => p.text)
              : [];
      // A follow-up's own words only: the question before's are there for what "it" stands for.
      const borrowable = (input.followUpTerms ?? terms).map((t) => t.stem);
      const borrowed = definitionWords.flatMap((t) => borrowable.filter((b) => stemsOf(t).has(b)));
      const whole = definitionWords.length ? coverage(new Set([...stems, ...borrowed]), terms) : 0;
      const held = Math.max(
        alone,
        alone + BEFORE_SHARE * (joined - alone),
        alone + AROUND_SHARE * (withAround - alone),
        // A default on a line of its own (`Default: /var/run/hostapd`) says nothing without them.
        alone + (attributeLine ? 1 : DEFINITION_SHARE) * (whole - alone),
      );
      // A setting's comment is about its setting: another name asked for that its text only
      // mentions (root_unlock_time's "…the same as of the `unlock_time` option.") is missing.
      const setsName = (
        passage.setting
          ? (settingNameOf(passage.example ?? passage.text) ?? exampleSettingName(passage))
          : carriedNames.length
            ? exampleSettingName(passage)
            : undefined
      )?.toLowerCase();
      // A follow-up's setting is the one the question before named ("Which value of it is the
      // safest?" after appendfsync is not answered by no-appendfsync-on-rewrite's comment).
      const namesAsked = setsName
        ? (required.length ? required : carriedNames).filter(
            (t) => !nameStems(passage.chunk.filename).has(t.stem),
          )
        : [];
      // As the question writes it too (`server.document-root`, which its terms cut to `server.document`).
      const another =
        namesAsked.length > 0 &&
        !namesAsked.some(
          (t) =>
            t.stem === setsName ||
            (!!setsName && setsName.startsWith(t.stem) && writesWhole(question, setsName)),
        )
          ? 1
          : 0;
      // Written in the passage, its lead, the line shown with it, or its document's name (gpg-agent.1.pdf).
      const unwritten = hyphenated.filter(
        (n) =>
          !writesWhole(passage.text, n) &&
          !writesWhole(passage.lead ?? '', n) &&
          !writesWhole(passage.example ?? '', n) &&
          !fileNamed(passage.chunk.filename, n),
      ).length;
      // The document's own name is where the others are asked, not one of them (nginx's
      // proxy_params for its X-Forwarded-For header, lighttpd.conf for its server.document-root: a
      // new user's trials 33 and 28).
      // A program's name in the chunk is enough: a manual of many programs is under its section
      // (gnu-coreutils.txt's ‘stat’ for stat's `%o`).
      const otherProgram = terms.filter(
        (t) => t.program && !t.required && !ofDocument(t) && !holdsName(chunkStems, t.stem),
      );
      const elsewhere = [...required.filter((t) => !ofDocument(t)), ...otherProgram];
      const missing =
        elsewhere.filter((t) => !holdsName(stems, t.stem)).length -
        AROUND_SHARE * around.filter((t) => !ofDocument(t)).length +
        another +
        unwritten;
      // Two names asked about together ("bisect_left and bisect_right") are seldom in one sentence.
      const named = missing
        ? MISSING_NAME_SHARE ** (missing / Math.max(1, elsewhere.length + hyphenated.length))
        : 1;
      const typeShare = typed === false ? (defaultOnly ? MISSING_DEFAULT_SHARE : MISSING_TYPE_SHARE) : 1;
      const lexical = ownHeld ? held * typeShare * named : 0;
      // The definition of a name the question asks about ("What does %j print?": ‘%j’ / "day of
      // year") answers it, though it says none of the question's other words.
      // Not a line on several terms at once ("%f, %h, %l, %p, %P: The output of these directives
      // is quoted…"): that is what they share, not what one of them is.
      const definition =
        asksDefinition &&
        !!passage.defines &&
        subjectNames.length > 0 &&
        passage.lead!.split(',').length <= MAX_TERMS_DEFINED &&
        // The names it does not give are its document's ("What does Tor's ControlPort option
        // do?", tor.html's `ControlPort …`).
        subjectNames.some((t) => holdsName(termStems!, t.stem)) &&
        subjectNames.every((t) => holdsName(termStems!, t.stem) || ofDocument(t)) &&
        // Nor the definition of another program's name (m4's `-G` for sox's).
        otherProgram.length === 0 &&
        // Nor is the definition of the document's own name one of another name the question gives
        // (ntp.conf(5)'s FILES entry `/etc/ntpsec/ntp.conf` for "What does iburst do in
        // ntp.conf?": a new user's trial 28).
        (givenNames.every(ofDocument) ||
          givenNames.some((t) => holdsName(termStems!, t.stem) && !ofDocument(t)));
      // Where the previous answer was, its subject goes without saying: the follow-up's own
      // words, in the sentence itself, decide.
      const followed = inPreviousAnswer(passage) ? coverage(own, followUpTerms) * typeShare * named : 0;
      const relevance = Math.max(
        lexical,
        followed,
        byMeaning(input, passage.text),
        definition ? threshold : 0,
      );
      if (relevance === 0) continue;
      const matched = terms.filter((t) => own.has(t.stem)).length;
      const density = own.size ? matched / own.size : 0;
      // A table's row is about what its own values name ("codename: Woody"), besides its header;
      // its figures are what it says of that ("resolution: 3 business days" is not about rule 3).
      // Not when it lacks the kind of answer asked for ("How much is Growth?" is not answered by
      // an add-on's row naming the plan it comes with).
      const values = typed === false ? undefined : recordValues(passage.text);
      const subject = Math.max(
        termStems ? coverage(termStems, terms) : 0,
        values ? coverage(new Set([...passageStems(values)].filter((s) => !/^\d/.test(s))), terms) : 0,
      );
      const exactSubject = passage.lead ? subject * askedShare(passage.lead, input.terms) : 0;
      const rank =
        relevance * (1 + DENSITY_WEIGHT * density) +
        SUBJECT_BONUS * subject +
        OWN_WORDS_BONUS * coverage(wholeOwn, terms) +
        (continuing?.has(passage.chunk.filename) ? CONTINUITY_BONUS : 0) +
        (input.drawnOn?.has(passage.chunk.id) &&
        !input.said?.includes(passage.text) &&
        (!input.newTerms?.length || holdsAny(own, input.newTerms))
          ? DRAWN_ON_BONUS
          : 0) +
        (typed ? ANSWER_TYPE_BONUS : 0) +
        (definition || (defined && saysWhatItIs(passage.text, defined)) ? DEFINITION_BONUS : 0) +
        (howTo &&
        ((passage.defines && OPTION.test(passage.lead!)) ||
          instructs(passage) ||
          SOLVES.test(passage.lead ?? ''))
          ? OPTION_SHARE * relevance
          : 0);
      // A how-to question is not answered by the problem a troubleshooting guide states ("Symptom:
      // …all containers … are stopped and are not kept running.") but by what it says to do.
      const solving = howTo && STATES_PROBLEM.test(passage.lead ?? '') ? PROBLEM_SHARE : 1;
      // Shown with its heading when the heading holds part of the question, or the kind of
      // answer asked for ("(5) SQLITE_BUSY" for its number, "NEWS for rsync 3.2.3" for a version).
      const needsLead =
        !!leadStems &&
        (coverage(new Set([...own, ...leadStems]), terms) > coverage(own, terms) ||
          typedLead ||
          // A how-to question is answered by the option it is under (one option's line, not a
          // listing of several: gzip's `-f, --force force overwrite … -h, --help give this help`),
          // unless it says itself what to use ("To schedule…, use:" / `-s (O/../.././…)`).
          (howTo &&
            passage.example === undefined &&
            SETTING_LEAD.test(passage.lead!) &&
            passage.lead!.length <= SETTING_LEAD_LENGTH) ||
          (!!passage.defines && !TITLE_WORD.test(passage.lead!) && !MAN_SECTION.test(passage.lead!)) ||
          // A later sentence of an option's definition, on its line, says with it what it is of
          // (powertop(8): "-C, --csv[=filename]: If a filename is not specified then the default
          // name powertop.csv is used.").
          (OPTION.test(passage.lead!) &&
            passage.lead!.length <= SETTING_LEAD_LENGTH &&
            passage.example === undefined &&
            passages.some((p) => p.lead === passage.lead && p.line === passage.line && p.defines)) ||
          // "Which setting selects…?" is answered by the setting a sentence is under, its name alone
          // on the line that heads it (opendkim.conf(5)'s `Canonicalization (string)` over "The
          // recognized values are relaxed and simple…": a new user's trial 40).
          (optionAsked && NAME_LEAD.test(passage.lead!)) ||
          // "Default: 5" says nothing without what it is the default of.
          !!passage.rowOfSubject ||
          attributeLine ||
          REFERS_BACK.test(passage.text) ||
          SUBJECTLESS_DEFAULT.test(passage.text));
      all.push({
        ...passage,
        relevance,
        rank: rank * solving,
        needsLead,
        subject,
        exactSubject,
        ...(before &&
          (definitionFirst || joined > alone || pronounLed || namedBefore.length > 0 || underText) && {
            before,
          }),
        ...(typed !== undefined && { typed }),
        // Every name, one of them what it is about (see isAbout), not all in passing ("Normally,
        // logrotate is run as a daily cron job." is no answer on cron's mail).
        ...(namesToHold.length > 0 &&
          namesToHold.every((t) => holdsName(stems, t.stem)) &&
          namesToHold.some((t) => isAbout(passage, leadStems, t.stem)) && { holdsNames: true }),
      });
    }
  }
  // Of two copies of a sentence (chunks overlap), the one its chunk goes on after: what it
  // introduces ("…Redis will save the DB:") is there.
  // Between two that rank alike, the one under the heading that names the question more exactly
  // (BIRD's `hold time`, not `startup hold time`, for "the default BGP hold time").
  all.sort(
    (a, b) =>
      b.rank - a.rank ||
      b.exactSubject - a.exactSubject ||
      b.text.length - a.text.length ||
      (a.text === b.text ? linesAfter(b) - linesAfter(a) : 0),
  );
  const kept: ScoredPassage[] = [];
  // A copy is under the same heading: "Default: 240 seconds." under BIRD's `hold time` is not the
  // one under `startup hold time` (a new user's trial 42, K10: the first was dropped as the
  // second's copy). Nor a setting alone that another passage shows as its example (a chunk's
  // overlap cut it from its comment).
  const copies = (k: Passage, p: Passage) =>
    k.text.includes(p.text) && (k.lead === p.lead || k.lead === undefined || p.lead === undefined);
  for (const p of all)
    if (!kept.some((k) => copies(k, p) || (p.setting && k.example === p.text))) kept.push(p);
  return kept;
}

/**
 * Whether a passage is about a name: its heading holds it, or its document's name does (or
 * begins with it: sudoers(5) is sudo's, crontab(5) cron's), or the setting it describes, or, a
 * table's row, its own values.
 */
function isAbout(passage: Passage, leadStems: Set<string> | undefined, name: string): boolean {
  if (leadStems && holdsName(leadStems, name)) return true;
  const document = nameStems(passage.chunk.filename);
  if (holdsName(document, name) || (name.length >= 3 && [...document].some((s) => s.startsWith(name))))
    return true;
  // A setting's description is about the setting (`#net.ipv4.ip_forward=1` under its comment).
  if (passage.setting && passage.example !== undefined && holdsName(passageStems(passage.example), name))
    return true;
  const values = recordValues(passage.text);
  return values !== undefined && holdsName(passageStems(values), name);
}

/**
 * Of the passages, those about the name the question is about, where the documents define it: a
 * passage is under it (`maxchange offset start ignore`, `3.163. mail_check`). What is under it or
 * holds it answers it, not another directive's "The default value is 6." beside it (a new user's
 * trial 32: chrony's maxchange, whose entry states no default, was answered with minsamples',
 * maxsamples' and ntsrefresh's defaults).
 */
function aboutDefinedNames(terms: QuestionTerm[], scored: ScoredPassage[]): ScoredPassage[] {
  const defines = (lead: string, name: string) =>
    lead
      .replace(SECTION_NUMBER, '')
      .toLowerCase()
      .split(/[\s,[(=]/)[0] === name;
  // The question's heaviest word, no word of the language: what it is about (not "plugin" of a
  // question on collectd's gauges, under "Plugin curl_jolokia").
  const defined = heaviestOf(terms).filter(
    (t) => !t.word && scored.some((p) => p.lead !== undefined && defines(p.lead, t.term)),
  );
  if (!defined.length) return scored;
  // Or one that writes another name the question gives (the log_locals argument of console.log).
  const names = terms.filter((t) => !t.word && (t.required || defined.includes(t)));
  return scored.filter((p) => {
    const text = passageStems(p.text);
    const lead = p.lead === undefined ? undefined : passageStems(p.lead);
    return (
      names.some((t) => holdsName(text, t.stem) || (!!lead && holdsName(lead, t.stem))) ||
      defined.some((t) => isAbout(p, lead, t.stem))
    );
  });
}

/** How many of a group's settings under one comment are read as the comment's: a few short lines, no listing. */
const GROUP_SETTINGS = 8;

/** The settings after the first under a setting's comment (see Passage.exampleGoesOn), when they are a few. */
function settingsOfGroup(passage: Passage): string[] {
  const more = passage.exampleGoesOn ?? [];
  return more.length < GROUP_SETTINGS ? more : [];
}

/** Whether a passage's stems hold one of `terms`. */
const holdsAny = (stems: ReadonlySet<string>, terms: QuestionTerm[]) => terms.some((t) => stems.has(t.stem));

/** How many lines of its chunk follow a passage's line. */
function linesAfter(p: Passage): number {
  let lines = 0;
  for (let at = p.chunk.text.indexOf('\n'); at !== -1; at = p.chunk.text.indexOf('\n', at + 1)) lines++;
  return lines - p.line;
}

/**
 * The passages an answer is made of, in document order: the best one when it holds enough of
 * the question, and up to two more that rank close to it. None when nothing does: the answer
 * is then "not found", citing nothing.
 */
export function groundedPassages(
  input: GroundingInput,
  scored: ScoredPassage[] = scorePassages(input),
): ScoredPassage[] {
  const threshold = input.threshold ?? RELEVANCE_THRESHOLD;
  // Asked what a name has (its default, a figure), not what a kind of thing of it is ("Which
  // LogFormat code logs the time taken…?": `%D`, in a table that does not say LogFormat).
  if (holdsAnswerType(input.kindOf ?? input.question, '') !== undefined)
    scored = aboutDefinedNames(input.terms, scored);
  // A follow-up is answered by the heaviest word it newly asks, where a passage that answers
  // holds it ("And how do I remove it again?" after how runit is told of a new service: a new
  // user's trial 36). The heaviest: not "if" of "What happens if I set it to None?".
  const newTerms = input.newTerms?.length ? heaviestOf(input.newTerms) : [];
  if (newTerms.length) {
    const holdsNew = (p: ScoredPassage) => holdsAny(passageStems(`${p.lead ?? ''} ${p.text}`), newTerms);
    if (scored.some((p) => p.relevance >= threshold && holdsNew(p))) scored = scored.filter(holdsNew);
  }
  const best = scored[0];
  const paraphrased = best?.holdsNames && best.typed !== false;
  if (!best || best.relevance < threshold * (paraphrased ? NAMES_HELD_SHARE : 1)) return [];
  // A name the question gives that the best passage's document is named after ("What does tar -x
  // do?", man-tar.pdf): another document's passage not about it is about something else (grep's
  // -x). A document named after it or a name it begins (rsyncd.conf is rsync's) is about it.
  const bestNamedAfter = input.terms.filter((t) => nameStems(best.chunk.filename).has(t.stem));
  const holdsBestNames = (p: ScoredPassage) =>
    p.chunk.fileId === best.chunk.fileId ||
    bestNamedAfter.every(
      (t) =>
        isAbout(p, p.lead ? passageStems(p.lead) : undefined, t.stem) || passageStems(p.text).has(t.stem),
    );
  // Passages near the best join it, unless they are about something else than it is: under
  // another heading that names less of the question ("hash_mem_multiplier: … twice the usual
  // work_mem" beside work_mem's own default), or, in its file, names it less exactly (a sibling:
  // `bantime.increment` beside `bantime`). Another file's may hold what the best's file lacks (the
  // held-out benchmark's git-revert `-m` beside git-log's).
  const chosen = scored
    .filter(
      (p) =>
        (p === best || p.relevance >= threshold) &&
        p.rank >= best.rank * NEAR_BEST &&
        holdsBestNames(p) &&
        // Another term's attribute ("mail_check_recent: Default: yes" beside mail_check's) is not.
        (p === best ||
          p.lead === best.lead ||
          (p.subject >= best.subject &&
            (p.exactSubject >= best.exactSubject || p.chunk.fileId !== best.chunk.fileId) &&
            !p.attribute &&
            !p.rowOfSubject)),
    )
    .slice(0, MAX_PASSAGES);
  // What the best passage leaves to the passage after it: its default's figure, its answer.
  for (const after of [
    valueUnder(best),
    answerUnder(best) ?? sentenceUnderName(best, input.terms) ?? sentenceAfter(best, input.terms),
  ])
    if (after && !chosen.some((p) => p.text === after.text))
      chosen.push({
        ...after,
        relevance: best.relevance,
        rank: best.rank,
        needsLead: false,
        subject: best.subject,
        exactSubject: best.exactSubject,
      });
  for (const name of comparedNames(input.question, input.terms)) {
    if (chosen.some((p) => isOn(p, name))) continue;
    const on = scored.find((p) => p.relevance >= threshold && isOn(p, name));
    if (on) chosen.push(on);
  }
  const fileOrder = [...new Set(chosen.map((p) => p.chunk.fileId))];
  return chosen.sort(
    (a, b) =>
      fileOrder.indexOf(a.chunk.fileId) - fileOrder.indexOf(b.chunk.fileId) ||
      chunkNumber(a) - chunkNumber(b) ||
      a.position - b.position,
  );
}

/** The stems of the question's words and of their parts (`mod` and `userdir` of `mod_userdir`). */
function askedStems(terms: QuestionTerm[]): Set<string> {
  return new Set(terms.flatMap((t) => [t.stem, ...indexTerms(t.term)]));
}

/** The share of a heading's words (its identifiers' parts, not its numbers) that the question holds. */
function askedShare(lead: string, terms: QuestionTerm[]): number {
  const words = lead.toLowerCase().match(/\p{L}[\p{L}\p{N}]*/gu) ?? [];
  if (!words.length) return 0;
  const asked = askedStems(terms);
  return words.filter((w) => asked.has(stem(w))).length / words.length;
}

/**
 * The default a setting's definition leaves to a later sentence under its term, when the best
 * passage gives the kind of answer asked for by its unit alone ("timestamp_timeout: Number of
 * minutes that can elapse before sudo will ask for a password again." … "The default is 15."):
 * the figure the question asks for is that one.
 */
function valueUnder(best: ScoredPassage): Passage | undefined {
  if (!best.typed || /\d/.test(best.text)) return undefined;
  // Under its term, or later in the comment that describes its setting ("Maximum number of
  // stations allowed in station table." … "(default: 2007)" / `max_num_sta=255`, hostapd.conf).
  const same = best.lead
    ? (p: Passage) => p.lead === best.lead
    : best.setting && best.example !== undefined
      ? (p: Passage) => p.setting === true && p.example === best.example && p.line === best.line
      : undefined;
  return (
    same &&
    passagesOf(best.chunk).find(
      (p) =>
        same(p) && p.position > best.position && (DEFAULT_VALUE.test(p.text) || DEFAULT_NOTE.test(p.text)),
    )
  );
}

/** A default noted in parentheses: "(default: 2007)", "(default 5)". */
const DEFAULT_NOTE = /\(default:? [^()]*\d[^()]*\)/i;

/** A line of fewer words without an end mark is a heading already (see passagesOf). */
const HEADING_WORDS = 8;
/** A row or a `Label: value` line (not a quotation holding a colon: `it says "cd: command not found"`). */
const LABELLED = /^[^:"'‘“]{1,40}: /;
/** The share of a heading's words that begin with a letter. */
const WORDY_SHARE = 0.75;

/**
 * What the line under the best passage says, when that passage is a line of its own without an
 * end mark and no record: a heading too long to be read as one by its shape, such as a FAQ's
 * question written as a Markdown heading (`#### When I try to use 'cd' with sudo it says "cd:
 * command not found"`), which restates the question best and answers nothing by itself.
 */
function answerUnder(best: ScoredPassage): Passage | undefined {
  const text = best.text;
  const words = text.split(/\s+/);
  if (
    // A term's definition is none (ninja(1)'s `-k N keep going until N jobs fail … [default=1]`).
    best.defines ||
    /[.!?:;,]["'’”)\]]?$/.test(text) ||
    LABELLED.test(text) ||
    words.length < HEADING_WORDS ||
    // Words, not code or a format's fields (`%n %s %b %f …`).
    words.filter((w) => /^["'‘“(]?\p{L}/u.test(w)).length < WORDY_SHARE * words.length
  )
    return undefined;
  const passages = passagesOf(best.chunk);
  if (passages.filter((p) => p.line === best.line).length !== 1) return undefined;
  return passages.find((p) => p.line === best.line + 1);
}

/** A line naming what the question names under a label ("Module: mod_userdir"): of a few words. */
const NAME_LINE_WORDS = 3;

/**
 * The first sentence under the best passage that says something of what it names, when that
 * passage is a line that only names what the question names, under a label: lighttpd's
 * "Module: mod_userdir" had answered "What does lighttpd's mod_userdir do?" alone (a new user's
 * trial 26), its description's first sentence some lines below.
 */
function sentenceUnderName(best: ScoredPassage, terms: QuestionTerm[]): Passage | undefined {
  if (/[.!?]$/.test(best.text) || !LABELLED.test(best.text)) return undefined;
  const named = best.text.replace(LABELLED, '');
  if (named.split(/\s+/).length > NAME_LINE_WORDS || askedShare(named, terms) < 1) return undefined;
  const asked = askedStems(terms);
  return passagesOf(best.chunk).find(
    (p) =>
      p.line > best.line &&
      /[.!?]$/.test(p.text) &&
      !LABELLED.test(p.text) &&
      p.text.split(/\s+/).length >= HEADING_WORDS &&
      [...passageStems(p.text)].some((s) => asked.has(s)),
  );
}

/**
 * The words of the question the best passage does not say weigh this share of its heaviest word at
 * least, and the sentence after it says one that weighs this share of theirs (see sentenceAfter).
 */
const AFTER_WEIGHT_SHARE = 0.3;
const AFTER_MISSING_SHARE = 0.8;

/**
 * The sentence after the best passage in its paragraph, when it says one of the question's
 * heaviest words that the best does not say, nor its heading or its document's name: what the best
 * sentence leads up to ("Once you have started ZNC you can connect with your favorite IRC-client to
 * ZNC." / "You should use username:password as the server password", asked what to put as the server
 * password; QEMU's savevm, then "Use loadvm to restore a VM snapshot…", asked which command restores
 * one: a new user's trial 41).
 */
function sentenceAfter(best: ScoredPassage, terms: QuestionTerm[]): Passage | undefined {
  if (!/[.!?]["')\]]?$/.test(best.text) || best.example !== undefined || best.setting) return undefined;
  const next = passagesOf(best.chunk).find((p) => p.position === best.position + 1);
  if (!next || next.line !== best.line || !/[.!?]["')\]]?$/.test(next.text)) return undefined;
  const held = new Set([
    ...passageStems(`${best.lead ?? ''} ${best.text}`),
    ...nameStems(best.chunk.filename),
  ]);
  const missing = terms.filter((t) => !held.has(t.stem));
  if (!missing.length) return undefined;
  const heaviestMissing = Math.max(...missing.map((t) => t.weight));
  if (heaviestMissing < Math.max(...terms.map((t) => t.weight)) * AFTER_WEIGHT_SHARE) return undefined;
  const said = passageStems(next.text);
  return missing.some((t) => t.weight >= heaviestMissing * AFTER_MISSING_SHARE && said.has(t.stem))
    ? next
    : undefined;
}

/**
 * A passage that holds every name the question gives (a program, a module, an identifier: its
 * words that are no word of the language) and the kind of answer it asks for, and misses only
 * words of the language, answers at this share of the threshold: a paraphrase says those
 * otherwise ("diagnostic logs" for debugging's log files), while a question about something the
 * documents lack misses its name ("zram", "ignore_nan"). The names held by what the passage is
 * about (its heading, its document's name), not in passing by its sentence alone: "Normally,
 * logrotate is run as a daily cron job." answered a question on cron's mail (bench:real after:
 * gnu-para-9, wrong, refused instead; no other flag changed). bench:real's questions replayed in
 * process (#33): 0.7 answered 5 paraphrases refused before (2 with their expected text, 1 more
 * citing the right file first, 2 citing another), no no-answer question; 0.6 and 0.5 only added
 * wrong answers, 0.75 answered one fewer.
 */
const NAMES_HELD_SHARE = 0.7;

/** Conjunctions and prepositions WordNet does not list, which weigh as names (see relevance.ts's GENERIC). */
const FUNCTION_WORDS = new Set(
  'if whether unless until till although though because whereas while whilst without within upon onto into via whose whom despite during except throughout toward towards amongst'.split(
    ' ',
  ),
);

/**
 * The names a question on a difference compares, one each side of its "and" ("between fnmatch()
 * and fnmatchcase() in the fnmatch module"): the identifiers it gives, or else each side's
 * heaviest word. None for another question.
 */
export function comparedNames(question: string, terms: QuestionTerm[]): QuestionTerm[] {
  if (!COMPARISON.test(question)) return [];
  const required = terms.filter((t) => t.required);
  if (required.length >= 2) return required;
  const sides = question
    .slice(question.search(COMPARISON))
    .replace(COMPARISON, '')
    .split(/\band\b|\bversus\b|\bvs\.?\s/i);
  if (sides.length !== 2) return [];
  const names = sides.map((side) => {
    const words = new Set(passageStems(side));
    const on = terms.filter((t) => words.has(t.stem));
    return on.length ? heaviestOf(on)[0] : undefined;
  });
  return names[0] && names[1] && names[0] !== names[1] ? [names[0], names[1]] : [];
}

/**
 * Whether a passage is on a name: its sentence holds it, or its heading is that name (the last
 * part of a dotted heading: `fnmatch.fnmatchcase(…)` is on fnmatchcase, not on fnmatch).
 */
function isOn(passage: ScoredPassage, name: QuestionTerm): boolean {
  const lead = name.stem.includes('.')
    ? passage.lead
    : passage.lead?.replace(/\b\w+(?:\.\w+)+/g, (dotted) => dotted.slice(dotted.lastIndexOf('.') + 1));
  return holdsName(passageStems(`${lead ?? ''} ${passage.text}`), name.stem);
}

/**
 * A passage's relevance by its similarity to the question, on the scale of `coverage`: from the
 * threshold at `minSimilarity` up to 1 at a cosine of 1; 0 below it.
 */
function byMeaning(input: GroundingInput, text: string): number {
  const cos = input.similarity?.get(text);
  const min = input.minSimilarity ?? 1;
  if (cos === undefined || cos < min || min >= 1) return 0;
  const threshold = input.threshold ?? RELEVANCE_THRESHOLD;
  return threshold + ((cos - min) * (1 - threshold)) / (1 - min);
}

const names = new Map<string, Set<string>>();

/** A snake_case identifier (`flush_bogus`, `cas_hits`). */
const SNAKE_CASE = /[\p{L}\p{N}]+(?:_[\p{L}\p{N}]+)+/gu;

const RC_FILE = /^\.?([A-Za-z][A-Za-z0-9_-]+)rc$/;
/** A file's name written with `_` for its dot: a name and an extension of letters (`krb5_conf`). */
const FILE_NAME_OF_PAGE = /^[A-Za-z][A-Za-z0-9]*_[a-z]{1,5}$/;
/** A program's name and its major version, as a package writes it (`exim4`, `python3`). */
const VERSIONED = /^([a-z]{3,})\d{1,2}$/;

/** The stems of a file's name, less its extension (`data-debian.csv` is about Debian), and the name itself. */
export function nameStems(filename: string): Set<string> {
  let stems = names.get(filename);
  if (!stems) {
    if (names.size > 10_000) names.clear();
    stems = passageStems(filename.replace(/\.[a-z0-9]+$/i, ''));
    // The file's name as a name asked about ("the default maxmemory-policy in redis.conf"),
    // less its extensions too ("chrony.conf" of chrony.conf.5.pdf).
    const base = filename.slice(filename.lastIndexOf('/') + 1);
    const parts = base.split('.');
    // After a prefix too: fail2ban-jail.conf is jail.conf's (a new user's trial 39).
    const prefixed = parts[0]!.split('-');
    for (let k = 0; k < prefixed.length; k++)
      for (let n = 2; n <= parts.length; n++)
        stems.add(stem([prefixed.slice(k).join('-'), ...parts.slice(1, n)].join('.')));
    // An identifier after a prefix (`fq_codel` of tc-fq_codel.8.pdf, the page of tc's fq_codel);
    // and, where a page's name could hold no dot, a file's name with its dots written as
    // underscores (Sphinx's kdc_conf.html is kdc.conf's page: a new user's trial 28).
    for (const part of parts[0]!.split('-'))
      if (part.includes('_')) {
        stems.add(part.toLowerCase());
        if (FILE_NAME_OF_PAGE.test(part)) stems.add(stem(part.toLowerCase().replaceAll('_', '.')));
      }
    // A program's rc file is its configuration: wgetrc is wget's, .bashrc bash's.
    const program = RC_FILE.exec(base)?.[1];
    if (program) stems.add(stem(program.toLowerCase()));
    // And a program's versioned name is the program's (exim4/README.Debian is exim's).
    for (const s of [...stems]) {
      const name = VERSIONED.exec(s)?.[1];
      if (name) stems.add(stem(name));
    }
    names.set(filename, stems);
  }
  return stems;
}

function chunkNumber(p: Passage): number {
  return Number(p.chunk.id.slice(p.chunk.id.lastIndexOf(':') + 1)) || 0;
}

/**
 * What a "What is X?" question asks about, up to the words that place it ("the epoch" of "What is
 * the epoch in the time module?", "name mangling" of "What is name mangling in Python classes?"), as
 * stems; undefined for another question.
 */
function definedPhrase(question: string): string[] | undefined {
  const asked =
    /^\W*what\s+(?:is|are)\s+(?:an?\s+|the\s+)?(.+?)(?:\s+(?:in|of|for|on|at|with|when|if|from)\b.*)?\W*$/i.exec(
      question,
    );
  const words = asked && indexTerms(asked[1]!);
  return words?.length && !PRONOUNS.test(asked![1]!) ? words : undefined;
}
const PRONOUNS = /^(?:it|its|they|this|that|these|those)\b/i;

/** Whether a sentence says what the phrase is ("The epoch is the point where…", "Representation error refers to…"). */
function saysWhatItIs(text: string, phrase: string[]): boolean {
  const subject = /^(?:the\s+|an?\s+)?(.+?)\s+(?:is|are|refers\s+to|means)\b/i.exec(text);
  if (!subject) return false;
  const words = indexTerms(subject[1]!);
  return words.length === phrase.length && words.every((w, i) => w === phrase[i]);
}

/** The first passage of the run under the heading `passages[at]` is under, when it is not that one. */
function definitionOf(passages: Passage[], at: number): Passage | undefined {
  const lead = passages[at]!.lead;
  let first: Passage | undefined;
  for (let i = at - 1; i >= 0 && lead !== undefined && passages[i]!.lead === lead; i--) first = passages[i];
  return first;
}

/** The passage before `passages[at]` when it is under the same heading, in its paragraph or the one before. */
function previousUnderLead(passages: Passage[], at: number): Passage | undefined {
  const passage = passages[at]!;
  const previous = passages[at - 1];
  return previous && previous.lead === passage.lead && previous.line >= passage.line - 1
    ? previous
    : undefined;
}

/** The question's terms that weigh most (one, unless several weigh alike). */
export function heaviestOf(terms: QuestionTerm[]): QuestionTerm[] {
  const most = Math.max(...terms.map((t) => t.weight));
  return terms.filter((t) => t.weight === most);
}

/** `read`, reading each text once: the sets it gives are shared, and not to be changed. */
function onceEach(read: (text: string) => Set<string>): (text: string) => ReadonlySet<string> {
  const done = new Map<string, Set<string>>();
  return (text) => {
    let stems = done.get(text);
    if (!stems) done.set(text, (stems = read(text)));
    return stems;
  };
}
