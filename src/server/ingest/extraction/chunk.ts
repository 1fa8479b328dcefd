import type { HeadingMark, Section } from './formats.js';
import type { IndexedTerms } from '../../state/model.js';
import { isOptionLine } from '../../../util/option-line.js';
import { isCodeShaped } from '../../../util/code-shape.js';
import { isAdmonition } from '../../../util/admonition.js';
import { RECORD } from '../../../util/record-shape.js';
import { QUESTION_LENGTH, SENTENCE_END, UNFINISHED } from '../../../util/sentence-end.js';

/** A passage of a document, and the pages it spans where the document has pages. */
export interface TextChunk {
  text: string;
  pages?: [first: number, last: number];
  /** Its terms for the search index, made with it (in the worker, off kb serve's event loop). */
  indexed?: IndexedTerms;
}

/** A sentence, and whether it starts a paragraph (a line of its section). */
interface Sentence {
  text: string;
  opens: boolean;
  /** Its line is a heading (of this level), or none, by the document's markup (undefined: by its shape). */
  heading?: HeadingMark;
  /** How many definition lists its line is in (see Section.depths). */
  depth?: number;
  /** Its line is a question, read whole (see isQuestion). */
  asks?: boolean;
  /** Not its line's first sentence, on a comment's line: that line's comment marks (`## `). */
  marks?: string;
}

/**
 * Splits sections into chunks of about `size` characters along paragraph and sentence
 * boundaries, each starting with the whole sentences that end the one before, up to `overlap`
 * characters of them (a chunk never starts mid-sentence). A chunk keeps its paragraphs: the
 * sentences of one are joined by spaces, paragraphs by line ends. A chunk knows the pages its
 * text came from; a new page starts a new chunk, so that a citation names the page a passage is
 * on rather than its neighbours too.
 */
export function chunkSections(sections: Section[], size = 800, overlap = 200): TextChunk[] {
  const chunks: TextChunk[] = [];
  let current: Sentence[] = [];
  let length = 0;
  let first: number | undefined;
  let last: number | undefined;
  const push = () => {
    const text = joined(current);
    chunks.push(first === undefined ? { text } : { text, pages: [first, last!] });
  };
  /** How many sentences of `current` are the heading it starts with, and nothing after it yet. */
  let lead = 0;
  /** How many sentences of `current` are the heading it starts with, whatever came after. */
  let headed = 0;
  const start = (sentences: Sentence[], leads = 0, heads = leads) => {
    current = sentences;
    lead = leads;
    headed = heads;
    length = sentences.reduce((n, s) => n + s.text.length + 1, 0);
  };
  /**
   * The headings the text is under, the innermost last, each with its depth in definition lists:
   * each chunk starts with the innermost, so that its sentences keep their subject. A method's
   * signature (a `<dt>`) heads its definition; the class's text after the method's list is under
   * the class again, not the method.
   */
  const under: { sentence: Sentence; depth: number }[] = [];
  const saidAgain = headingsSaidAgain(sections);
  /**
   * A heading the document says again (a release's `### ENHANCEMENTS:`) says what its text is
   * about only with the headings of lower levels it is under (`# NEWS for rsync 3.2.3`): those,
   * outermost first, up to one said once, as many as a quarter of a chunk holds.
   */
  const outer = (innermost: Sentence) => {
    const kept: Sentence[] = [];
    let length = 0;
    let said = innermost;
    for (let i = under.length - 2; i >= 0 && saidAgain.has(said.text); i--) {
      const { sentence } = under[i]!;
      if (typeof sentence.heading !== 'number') continue;
      length += sentence.text.length + 1;
      if (length > size / 4) break;
      kept.unshift(sentence);
      said = sentence;
    }
    return kept;
  };
  let heading: Sentence | undefined;
  /** The option whose definition the text is (`-L, --location`): each chunk of it starts with it too. */
  let term: Sentence | undefined;
  /** The last sentence read: a line after one that ends with a colon is what that one introduces. */
  let before: Sentence | undefined;
  /** The first sentence of the last line read. */
  let line: Sentence | undefined;
  /** What a chunk starts with, less what it keeps of the chunk before (`kept`). */
  const leads = (kept: Sentence[]) =>
    [...(heading ? outer(heading) : []), heading && repeated(heading, size), term].filter(
      (s): s is Sentence => !!s && !kept.some((k) => k.text === s.text),
    );
  for (const section of sections) {
    if (current.length && section.page !== last) {
      push();
      // A new page goes on under the heading and the option it was under (curl.1's -L, pp. 36-37).
      const lead = leads([]);
      start(lead, lead.length);
      first = undefined;
    }
    for (const sentence of sentencesOf(section.text, section.headings, section.depths)) {
      if (current.length && length + sentence.text.length + 1 > size) {
        // A comment at the chunk's end goes on to the next whole, with what it describes under it
        // (OpenVPN's server.conf: "# Configure server mode and supply a VPN subnet…" / `server
        // 10.8.0.0 255.255.255.0`).
        const comment = commentAtEnd(current, headed, size);
        if (comment) current = current.slice(0, -comment.length);
        push();
        const kept = comment ?? overlapOf(current, overlap);
        const heads = leads(kept);
        start([...heads, ...kept], kept.length ? 0 : heads.length, heads.length);
        first = current.length ? last : undefined;
      }
      if (sentence.opens) {
        const depth = sentence.depth ?? 0;
        // Out of a definition list: its term heads no more.
        while (under.length && under.at(-1)!.depth > depth) under.pop();
        // Where markup tells code from headings (HTML's <pre>), it alone does.
        const introduced =
          !section.headings && !!before && (before.text.endsWith(':') || UNFINISHED.test(before.text));
        // Nor is the line under an option its heading: it is the option's definition, however
        // short (gpg-agent(1)'s `--debug-all` / "Same as --debug=0xffffffff").
        const defining = !section.headings && !!before && before === term;
        // Nor is an item of a list of values in capitals, each with what it does (xinetd.conf(5)'s
        // "HOST logs the remote host address", "DURATION logs the duration of a service session"):
        // nor, once the next item shows it is one, the item before.
        const listed =
          !section.headings && VALUE_ITEM.test(sentence.text) && VALUE_ITEM.test(line?.text ?? '');
        if (listed && under.at(-1)?.sentence === line) under.pop();
        line = sentence;
        if (
          sentence.heading ??
          (!introduced &&
            !defining &&
            !listed &&
            // A comment's question ("# fork: Should a new process be forked for this protocol?") is
            // what the comment says of its setting, no heading (sslh's example.cfg).
            ((sentence.asks && !/^[#;]/.test(sentence.text)) || isHeading(sentence.text)))
        ) {
          const level = sentence.heading;
          // A heading goes on under those of lower levels, and one without a level under any with one.
          const below = (u: { sentence: Sentence; depth: number }) =>
            u.depth > depth ||
            (u.depth === depth &&
              (typeof u.sentence.heading !== 'number' ||
                (typeof level === 'number' && u.sentence.heading >= level)));
          while (under.length && below(under.at(-1)!)) under.pop();
          under.push({ sentence, depth });
          term = undefined;
        } else if (isOptionLine(sentence.text)) term = sentence;
        // An option written with its definition on its line ends the one before (hdparm(8)'s `-S
        // Put the drive into idle…` under `--repair-sector`, which had led its text: a new user's
        // trial 41), and leads the chunks its definition goes on into, as an option's line does.
        else if (OPTION_AND_TEXT.test(sentence.text))
          term = { text: OPTION_AND_TEXT.exec(sentence.text)![1]!, opens: true };
        heading = under.at(-1)?.sentence;
        // A chunk that starts with a new heading or option is under that one, not the one before.
        if (lead && current.length === lead) {
          const now = leads([]).filter((s) => s.text !== sentence.text);
          start(now, now.length);
        }
      }
      before = sentence;
      if (sentence.text.length > size) {
        for (let i = 0; i < sentence.text.length; i += size - overlap) {
          if (current.length) push();
          start([{ text: sentence.text.slice(i, i + size), opens: true }]);
          first = last = section.page;
        }
        continue;
      }
      // A heading a chunk starts with is a line of its own, whatever sentence follows it.
      current.push(current.length === lead && lead ? { ...sentence, opens: true } : sentence);
      lead = 0;
      length += sentence.text.length + 1;
      first ??= section.page;
      last = section.page;
    }
  }
  if (current.length) push();
  return chunks;
}

/** Most heading texts a document's count keeps: a document of any size makes no larger set. */
const HEADINGS_COUNTED = 10_000;

/** The texts of the headings by level (see HeadingMark) that a document gives more than once. */
function headingsSaidAgain(sections: Section[]): Set<string> {
  const seen = new Set<string>();
  const again = new Set<string>();
  for (const { text, headings } of sections) {
    if (!headings?.some((h) => typeof h === 'number')) continue;
    let start = 0;
    for (let line = 0; start <= text.length && line < headings.length; line++) {
      const end = text.indexOf('\n', start);
      const stop = end === -1 ? text.length : end;
      if (typeof headings[line] === 'number') {
        const heading = text.slice(start, stop).trim();
        if (seen.has(heading)) again.add(heading);
        else if (seen.size < HEADINGS_COUNTED) seen.add(heading);
      }
      start = stop + 1;
    }
  }
  return again;
}

/** An option and what it does, on one line: `-h Print program usage and exit`. */
const OPTION_AND_TEXT = /^(--?[A-Za-z0-9][\w-]*)\s+\p{L}/u;

/**
 * A line that heads what follows: short and without an end mark, or a function's signature; but
 * not an option or a code a definition list defines (`‘%o’`, `-a, --all`, `-s ca_key`), which
 * heads only its definition, nor a line at a shell's prompt, nor an item of a list. A line after one ending with a colon
 * ("Example:") is not one either: it is what that line introduces.
 */
function isHeading(text: string): boolean {
  if (/^[‘'"`%$-]/.test(text) && !text.includes(' ')) return false;
  // An item of a list (haproxy's intro.txt: "- Server load balancing (via load balancers)").
  if (/^[-*•+]\s/.test(text)) return false;
  if (isOptionLine(text) || isCodeShaped(text) || isAdmonition(text) || /^(?:\$|#|>>>) /.test(text))
    return false;
  // Nor an option and what it does on one line (varnishncsa(1)'s `-h Print program usage and exit`):
  // its own definition, however short.
  if (OPTION_AND_TEXT.test(text)) return false;
  // Nor an example's sentence ("E.g., create a 10 kibibyte file: hdparm --fallocate 10 temp_file").
  if (/^(?:e\.g\.|i\.e\.)/i.test(text)) return false;
  // Nor an assignment, an example's (cron's `FOOBAR = this is a long blanky example`); a setting's
  // name alone is one (systemd's `HandleLidSwitch=`, `SystemMaxUse=, SystemKeepFree=`).
  if (/^[A-Za-z_][\w.-]*\s*=\s*[^\s,]/.test(text)) return false;
  // Nor a setting commented out (wpa_supplicant.conf's `#update_config=1`, ocserv.conf's
  // `#persistent-cookies = true`): it had headed every chunk after it.
  if (/^[#;]+\s*[A-Za-z_][\w.-]*\s*=/.test(text)) return false;
  // Nor a line of an example: a command run with its options (curl(1)'s `curl --limit-rate 10M
  // https://example.com`, at the top of a page), an address, an armoured key's boundary
  // (`-----END CERTIFICATE-----`).
  if (COMMAND_LINE.test(text) || /\w:\/\//.test(text) || PEM_BOUNDARY.test(text)) return false;
  // Words, not code or a figure (`}`, `61184`), nor an aside ("(contributed by brian d foy)").
  if (!/\p{L}\p{L}/u.test(text) || /^\(.*\)$/.test(text)) return false;
  return (!/[.!?:;,]$/.test(text) && text.split(' ').length <= 10) || /^[\w.]+\s*\(.*\)$/.test(text);
}

/** A value in capitals and, in lower case, what it does or means (`HOST logs the remote host address`). */
const VALUE_ITEM = /^[A-Z][A-Z0-9_]+\s+\p{Ll}+\s+\p{Ll}/u;

/** A command in lower case and, after it, an option (`curl --limit-rate 10M`, `tar -xf a.tar`). */
const COMMAND_LINE = /^[a-z][\w.+-]*\s(?:.*\s)?--?[A-Za-z]/;
/** The boundary of a key, certificate or signature in PEM's armour (RFC 7468). */
const PEM_BOUNDARY = /^-{5}(?:BEGIN|END) [A-Z0-9 ]+-{5}$/;

/**
 * A line that asks a question, of a few sentences at most ("3.5. Using NTS?", "When I paste text,
 * each line gets indented. Why?"): read whole, a FAQ's heading, as kb's answers read it.
 */
function isQuestion(line: string): boolean {
  return line.endsWith('?') && line.length <= QUESTION_LENGTH && /\p{L}\p{L}/u.test(line);
}

/**
 * A heading as a chunk under it starts: whole when short; a long signature by its name
 * (`subprocess.run()` for its 300 characters of parameters), so that the sentences on its
 * parameters in later chunks still say what they are about; another long heading, not at all.
 */
function repeated(heading: Sentence, size: number): Sentence | undefined {
  if (heading.text.length < size / 4) return heading;
  const signature = /^([\w.]+)\s*\(/.exec(heading.text);
  return signature ? { text: `${signature[1]}()`, opens: true } : undefined;
}

/** Sentences as text: a space within a paragraph, a line end between paragraphs. */
function joined(sentences: Sentence[]): string {
  return sentences.map((s, i) => (i === 0 ? s.text : `${s.opens ? '\n' : ' '}${s.text}`)).join('');
}

/** The last whole sentences of a chunk that fit in `overlap` characters. */
function overlapOf(sentences: Sentence[], overlap: number): Sentence[] {
  let start = sentences.length;
  let total = 0;
  while (start > 0 && total + sentences[start - 1]!.text.length + 1 <= overlap) {
    start--;
    total += sentences[start]!.text.length + 1;
  }
  // Its first sentence starts a line: inside a comment's line, with that line's marks, so that
  // it is read as the comment it is (monitrc's "If the process is not running, Monit will
  // restart" / "## it by default.").
  return sentences
    .slice(start)
    .map((s, i) => (i === 0 ? { ...s, text: `${s.opens ? '' : (s.marks ?? '')}${s.text}`, opens: true } : s));
}

/**
 * The comment the sentences end with, from the start of its first line, where it is at most half
 * a chunk and something before it is more than the chunk's heading: its last paragraph (squid.conf
 * writes a setting's comment in paragraphs apart by empty `#` lines, `#Default:` and the default
 * last: they go on together). A setting commented out alone under an empty `#` goes with the
 * paragraph above it, which says what it is (pdns.conf's `# webserver-port	Port of webserver/API
 * to listen on` / `#` / `# webserver-port=8081`).
 */
function commentAtEnd(sentences: Sentence[], heading: number, size: number): Sentence[] | undefined {
  let at = paragraphStart(sentences, sentences.length, heading);
  if (sentences.slice(at).every((s) => !s.opens || COMMENTED_SETTING.test(s.text))) {
    let above = at;
    while (above > heading && EMPTY_COMMENT.test(sentences[above - 1]!.text)) above--;
    // From the line after the setting above, which ends that one's block.
    if (above < at) at = paragraphStart(sentences, above, heading, true);
  }
  const comment = sentences.slice(at);
  if (!comment.length || at <= heading) return undefined;
  return comment.reduce((n, s) => n + s.text.length + 1, 0) <= size / 2 ? comment : undefined;
}

/**
 * Where the comment paragraph ending before `end` starts: the first sentence of its first line;
 * `afterSetting`, after a setting commented out above it.
 */
function paragraphStart(sentences: Sentence[], end: number, heading: number, afterSetting = false): number {
  let at = end;
  while (
    at > heading &&
    !(afterSetting && COMMENTED_SETTING.test(sentences[at - 1]!.text)) &&
    (sentences[at - 1]!.opens
      ? COMMENT_MARKS.test(sentences[at - 1]!.text) || COMMENT_LABEL.test(sentences[at - 1]!.text)
      : !!sentences[at - 1]!.marks)
  )
    at--;
  while (at < end && !sentences[at]!.opens) at++;
  return at;
}

/** A comment's marks at the start of its line: `# `, `## `. */
const COMMENT_MARKS = /^[ \t]*#+[ \t]+/;
/** A comment's label for the line under it, its mark and its word together: squid.conf's `#Default:`. */
const COMMENT_LABEL = /^[ \t]*#+\S[^:]*:$/;
/** An empty comment line: `#`. */
const EMPTY_COMMENT = /^[ \t]*#+[ \t]*$/;
/** A setting commented out: `# webserver-port=8081`. */
const COMMENTED_SETTING = /^[ \t]*#+[ \t]*[\w.-]+[ \t]*=/;

/** A line's section number: `2. `, `3.3.5. `. */
const SECTION_NUMBER = /^[ \t]*(?:\d{1,3}\.)+[ \t]+/;

/**
 * The sentences of a text, one at a time (a document of any size makes no array of them); a line
 * its markup makes a heading is one, whatever its marks ("(28) … that I expect. Is this a bug?"),
 * and so is a record.
 */
function* sentencesOf(text: string, headings?: HeadingMark[], depths?: number[]): Generator<Sentence> {
  const boundary = new RegExp(SENTENCE_END.source, 'gu');
  /** The next sentence end at or after where the text is read (found once, however far ahead). */
  let next: { index: number; after: number } | undefined;
  const endAfter = (from: number) => {
    if (next && next.index >= from) return next;
    boundary.lastIndex = from;
    const match = boundary.exec(text);
    next = match ? { index: match.index, after: boundary.lastIndex } : { index: Infinity, after: Infinity };
    return next;
  };
  for (let start = 0, line = 0; start <= text.length; line++) {
    const newline = text.indexOf('\n', start);
    const end = newline === -1 ? text.length : newline;
    const heading = headings?.[line];
    const trimmed = text.slice(start, end).trim();
    const asks = !heading && isQuestion(trimmed);
    const whole = heading || asks || RECORD.test(trimmed);
    let opens = true;
    // A section's number ("2. Quick introduction…", "3.3.5. Basic features") ends no sentence.
    const numbered = whole ? undefined : SECTION_NUMBER.exec(text.slice(start, end));
    const marks = COMMENT_MARKS.exec(text.slice(start, end))?.[0].trimStart();
    for (let from = start; from < end;) {
      const match = whole ? undefined : endAfter(opens && numbered ? start + numbered[0].length : from);
      const stop = match && match.index < end ? match.index : end;
      const sentence = text.slice(from, stop).trim();
      if (sentence) {
        const depth = depths?.[line];
        yield {
          text: sentence,
          opens,
          ...(heading !== undefined && { heading }),
          ...(depth !== undefined && { depth }),
          ...(asks && { asks }),
          ...(!opens && marks && { marks }),
        };
        opens = false;
      }
      from = stop === end ? end : match!.after;
    }
    start = end + 1;
  }
}

/** Chunks of plain text. */
export function chunkText(text: string, size = 800, overlap = 200): string[] {
  return chunkSections([{ text }], size, overlap).map((c) => c.text);
}
