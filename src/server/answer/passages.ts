import { isOptionLine, unquoted } from '../../util/option-line.js';
import { LABEL_ROW, TERM_COLON_ITEM, TERM_ITEM } from '../../util/term-item.js';
import { isCodeShaped } from '../../util/code-shape.js';
import { isAdmonition } from '../../util/admonition.js';
import { leavesQuoteOpen } from '../../util/open-quote.js';
import { DEFAULT_VALUE } from './answer-type.js';
import { RECORD } from '../../util/record-shape.js';
import { QUESTION_LENGTH, SENTENCE_END, UNFINISHED } from '../../util/sentence-end.js';
import { STOP_WORDS } from '../search/tokens.js';
import type { Chunk } from '../state/model.js';
import { configBlocks, isBlockLine, type ConfigBlock } from './config-blocks.js';

/** A sentence, or a row of a table or a data file, that an answer can be made of. */
export interface Passage {
  text: string;
  chunk: Chunk;
  /** Its place in the chunk: answers keep a document's order. */
  position: number;
  /** The line (paragraph) of the chunk it is in. */
  line: number;
  /** The heading it is under, or the question it answers (in a FAQ): words it is about without saying them. */
  lead?: string;
  /** It is the definition of the term its lead is (`‘%j’` / "day of year (001..366)"). */
  defines?: boolean;
  /** The example it introduces ("…you should use:" / `yaml.safe_load(stream)`): what it says to use. */
  example?: string;
  /**
   * The example's lines after its first (`wg genkey | tee …` under `umask 077`): shown with it, not
   * matched against a question (a long example's many words would make its sentence hold anything).
   */
  exampleGoesOn?: string[];
  /** Its example is the value a configuration file sets (`bantime = 10m`): the file's default. */
  setting?: boolean;
  /** The sentence that introduces the list or table it is a row of ("…valid strftime() substitutions:"). */
  intro?: string;
  /** Its example is the command its comment says what it does (see `commented`). */
  commands?: boolean;
  /** Its example is what the term it defines is, written as code (see `definedAbove`). */
  codeOfTerm?: boolean;
  /** It is a comment's label (`#Default:`): no passage without the line under it as its example. */
  labels?: boolean;
  /** It is an attribute of its lead on a line of its own (`Default: 5` under "3.163. mail_check"). */
  attribute?: boolean;
  /** It is a short row of what its line's first sentence names ("maxRetries … Maximum number of retries. Default: 5"). */
  rowOfSubject?: boolean;
  /** The section or stanza of a configuration file its setting is in (its lead is their names). */
  block?: ConfigBlock;
}

/**
 * An identifier (with an underscore, or in capitals) and a number, or any name and a number
 * written with a leading zero (an octal mode: `0600`): a setting's line, never a page's.
 */
const NAMED_NUMBER = /^(?:[A-Za-z]\w*_\w+|[A-Z][A-Z0-9]{2,})\s+\d+$|^\S+\s+0\d+$/;

/**
 * A paragraph's sentences, the yes or no it starts with joined to the sentence after it (chrony's
 * FAQ: "No. The chronyc program…"): alone, too short to be a passage, it was lost from the answer
 * to "Does chrony support Windows?" (a new user's trial 26).
 */
function sentencesOf(paragraph: string): string[] {
  const sentences = paragraph.split(SENTENCE_END);
  if (sentences.length > 1 && /^\s*(?:yes|no)[.!]$/i.test(sentences[0]!))
    sentences.splice(0, 2, `${sentences[0]} ${sentences[1]}`);
  // A short parenthesis after a sentence is that sentence's ("…larger than that. (default: 2007)").
  for (let i = sentences.length - 1; i > 0; i--)
    if (PARENTHESIS.test(sentences[i]!)) sentences.splice(i - 1, 2, `${sentences[i - 1]} ${sentences[i]}`);
  return sentences;
}
/**
 * A short parenthesis alone: `(default: 2007)`; or a note up to a line long, no sentence of its
 * own (corosync.conf(5)'s "(default is token timeout / knet_pong_count)" after knet_ping_timeout's
 * last sentence: alone, it answered for the token's default in a new user's trial 31).
 */
const PARENTHESIS = /^\((?:[^()]{1,40}|[^().!?]{41,80})\)$/;

/** A section's number at a line's start: `1. `, `4.1. `. */
const SECTION_NUMBER = /^\s*(?:\d{1,3}\.)+\d{0,3}\s+\S/;

/** Whether a line is a numbered section's title, prose (not another numbered line) under it. */
function numberedTitle(line: string, next: string): boolean {
  const title = line.trim();
  return (
    SECTION_NUMBER.test(title) &&
    title.length <= QUESTION_LENGTH &&
    !/[.!:;,]["')\]]?$/.test(title) &&
    !SECTION_NUMBER.test(next) &&
    /[.!?:]["')\]]?$/.test(next.trim())
  );
}

/** A line shaped as an entry of a table of contents or an index, not as prose. */
const ENTRY = [
  // a section number alone, or a title ending in a page number (after dot leaders or not)
  /^(?:\d+\.)*\d+\.?$/,
  /(?:\.{3,}|\s)\d{1,4}$/,
  // a bullet and a numbered section, as a contents list rendered as text writes it (chrony's FAQ:
  // `o 4. Issues with chronyc`, `? 4.1. I keep getting the error 506…`)
  /^[o?*•+-]\s+(?:\d{1,3}\.)+\d{0,3}\s+\S/,
  // an info menu's entry, an info index's entry and its line
  /^\* [^:]+::/,
  /^\* .{1,80}: .{1,80}\.$/,
  /^\(line +\d+\)$/,
];

/**
 * A definition list's term and its definition on one line: a name (`HISTSIZE`, `globstar`,
 * `--all`) or a format code (varnishncsa(1)'s `%D`, `%{X}T`), then a sentence.
 */
const TERM_LINE =
  /^([A-Z][A-Z0-9]*_[A-Z0-9_]+|[A-Z]{3,}[A-Z0-9]*|[a-z][a-z0-9_]*[_a-z0-9]|--?[A-Za-z][\w-]*|%(?:\{[^{}\s]+\})?[A-Za-z])\s+([A-Z][a-z]+\b.*\s.*\s.*)$/;

/** What an option does, in lower case and four words or more, after it on its line (captured). */
const OPTION_TEXT = String.raw`([a-z]+\b[^|]*\s[^|]*\s[^|]*\s[^|]*)`;

/**
 * A short option and what it does in lower case, as GNU's man pages print it on one line when the
 * option fits in the indent (ls(1): `-S sort by file size, largest first`), its argument in
 * capitals before it (ninja(1): `-k N keep going until N jobs fail…`); not its arguments
 * (ssh-keygen(1)'s `-t dsa | ecdsa | … | rsa`).
 */
const SHORT_OPTION_LINE = new RegExp(String.raw`^(-[A-Za-z0-9](?:\s+[A-Z][A-Z_]*)?)\s+${OPTION_TEXT}$`);
/**
 * A long option, its argument, and what it does in lower case, as `--help` prints them and
 * postgrey(8) lists them (`--max-age=N delete entries older than N days … (default: 35)`). With its
 * argument: without, it is as often a sentence's subject (stat(1)'s "--terse is equivalent to the
 * following FORMAT:").
 */
const LONG_OPTION_LINE = new RegExp(String.raw`^(--[A-Za-z][\w-]*=\S+)\s+${OPTION_TEXT}$`);

/**
 * A status code and what it means, in a few words ("1 Some files differ.", "2 Fatal error."): a
 * man page's table of exit codes. Not a longer line after a number (a verse, a numbered step).
 * bench:real's questions replayed in process (#33): tar's exit code 1 cited from its page; no
 * other row changed.
 */
const CODE_LINE = /^(\d{1,3})\s+([A-Z][a-z]+(?:\s+\S+){1,5})$/;

/**
 * An option, a colon and what it does (htop's README: `--enable-hwloc: enable hwloc support for
 * CPU affinity; disables affinity support`), its rows under it (`default: no`).
 */
const OPTION_COLON_LINE = /^(--?[A-Za-z][\w-]*(?:=\S+)?):\s+(\p{L}\S*(?:\s+\S+){2,})$/u;

/** A line that is a definition list's entry: its term, and the definition after it (see TERM_LINE). */
function termLine(text: string): { term: string; definition: string } | undefined {
  const entry =
    TERM_LINE.exec(text) ??
    SHORT_OPTION_LINE.exec(text) ??
    LONG_OPTION_LINE.exec(text) ??
    CODE_LINE.exec(text) ??
    OPTION_COLON_LINE.exec(text);
  return entry && !STOP_WORDS.has(entry[1]!) ? { term: entry[1]!, definition: entry[2]! } : undefined;
}

/** Whether a sentence of a line comes after three words or more of it. */
const afterProse = (paragraph: string, sentence: string): boolean =>
  paragraph.slice(0, paragraph.lastIndexOf(sentence)).trim().split(/\s+/).length >= 3;

/** A FAQ's question marked as one: `Q:`, `Q)`, `Q3:`. */
const FAQ_QUESTION = /^(?:[*•·-]\s+)?Q\d*[:)]\s+\S/;
/** A FAQ's answer marked as one (`A:`, `A)`, `* A:`). */
const FAQ_ANSWER = /^(?:[*•·-]\s+)?A\d*[:)]\s+\S/;
/** How many lines a FAQ's marked question may go on over before its answer. */
const FAQ_QUESTION_LINES = 3;

/** A term in lower case, a colon and what it is: `always: fsync after every write…`. */
const COLON_ITEM = new RegExp(String.raw`^${TERM_COLON_ITEM}(.*)$`, 'u');
function colonItem(text: string): { term: string; definition: string } | undefined {
  const item = COLON_ITEM.exec(text);
  return item && !STOP_WORDS.has(item[1]!) ? { term: item[1]!, definition: item[2]! } : undefined;
}

/** A man page's section (man-pages(7)): a heading of its own, not a name a definition list defines. */
export const MAN_SECTION =
  /^(?:NAME|SYNOPSIS|CONFIGURATION|DESCRIPTION|OPTIONS|EXIT STATUS|RETURN VALUE|ERRORS|ENVIRONMENT|FILES|ATTRIBUTES|VERSIONS|STANDARDS|CONFORMING TO|HISTORY|NOTES|CAVEATS|BUGS|EXAMPLES?|AUTHORS?|REPORTING BUGS|COPYRIGHT|SEE ALSO)$/;

/** A term a definition list defines: options, format codes, names, quoted or not (`‘-a’, ‘--all’`). */
export const TERM = /^[‘'"`]?[-%$\w.=[\]<>]+[’'"`]?(?:,\s*[‘'"`]?[-%$\w.=[\]<>]+[’'"`]?)*$/;

/**
 * A directive named in CamelCase and the syntax of its value, as a manual heads its definition:
 * Tor's `ControlPort [address:]port|unix:path|auto [flags]`, `Sandbox 0|1`. Its brackets and bars
 * are no code's.
 */
const DIRECTIVE_SYNTAX = /^[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+(?:\s+[\w[\]<>{}|:./*-]+){1,4}$/;

/**
 * A configuration directive and the kind of value it takes, as a reference heads it (cupsd.conf(5):
 * `MaxJobTime seconds`, `JobKillDelay seconds`): a name in CamelCase, then a word or two in lower case.
 */
const DIRECTIVE = /^[A-Z][a-z]+(?:[A-Z][a-z0-9]*)+(?: [a-z][\w-]*(?:\|[a-z][\w-]*)*){1,2}$/;

/** A term that is an option or a format code (`-0`, `'--null'`, `%P`), not a word. */
const OPTION_LIKE = /^[‘'"`]?[-%+]/;

/** A parameter as a Python docstring lists it (`update_to : bool, optional`): the term of the line under it. */
const PARAMETER = /^[\w.]+ : [\w .,|[\]]{1,60}$/;

/** A passage's example with the lines it goes on over (see `Passage.exampleGoesOn`). */
export const wholeExample = (p: Passage): string => [p.example, ...(p.exampleGoesOn ?? [])].join('\n');

/** A line that only closes a block or a list an example opened (`}`, `);`). */
const CLOSES = /^[)\]}]+[;,]?$/;
/** The lines an example's open quoted string may go on over: a stray quote takes no page with it. */
const MAX_QUOTED_LINES = 12;
/** Whether an example leaves a quoted string open, and may go on over the line under it. */
const quoteGoesOn = (p: Passage): boolean =>
  (p.exampleGoesOn?.length ?? 0) < MAX_QUOTED_LINES && leavesQuoteOpen(wholeExample(p));
/** The lines an example's open block (`options {`) may go on over. */
const MAX_BLOCK_LINES = 40;
/**
 * Whether an example leaves a block open, its lines the block's whatever they look like (BIND's
 * `options {` / `recursion no;` … `};`: a new user's trial 39).
 */
const blockGoesOn = (p: Passage): boolean => {
  if ((p.exampleGoesOn?.length ?? 0) >= MAX_BLOCK_LINES) return false;
  const code = wholeExample(p);
  return (code.match(/\{/g)?.length ?? 0) > (code.match(/\}/g)?.length ?? 0);
};

/** An interpreter's or a shell's prompt: a line of an example, not a sentence to quote. */
const CODE = /^(?:>>>|\.\.\.|\$ |# )/;
/**
 * A comment in a configuration file or a script that reads as a sentence ("# ip_hash ensures the
 * same backend is used for client reconnects."), not a command at a root prompt ("# apt-get install x").
 */
const COMMENT = /^#+\s+["'“‘]?\p{L}[^#]*\s\S+\s\S+\s[^#]*(?:[.!?]|\s["'“‘]\w+["'”’])$/u;
/** A comment that introduces the commented-out line under it ("# The default is:" / "# maxmemory-policy noeviction"). */
const INTRODUCING_COMMENT = /^#+\s+["'“‘]?\p{L}[^#]*\s\S+\s[^#]*:$/u;
/** An item of a list in a comment (redis.conf's `#   * After 3600 seconds (an hour) if…`): its mark and bullet. */
const COMMENT_ITEM = /^#+\s+[*•+-]\s+(?=["'“‘(]?\p{L})/u;
/** A comment's item of a term and what it is (pgbouncer.ini's `;;   transaction  - after transaction finishes`). */
const COMMENT_TERM_ITEM = new RegExp(String.raw`^#+\s+${TERM_ITEM}`, 'u');
/** A line of marks around a section's name (`#### SNAPSHOTTING ####`, `=== Logging ===`). */
const BANNER = /^([#=*-])\1{3,}\s*(\S.*?)\s*\1{4,}$/u;
/** A comment mark alone on its line: a blank line inside a comment. */
const BLANK_COMMENT = /^#+$/;
const CONTINUATION = /^(?:\||['"`](?:\s|$))/;
/** A format's token: a letter or a name after its mark (`:method`, `%h`, `%>s`, `$remote_addr`). */
const FORMAT_TOKEN = /^["'[(]?(?::[a-z][\w-]*(?:\[[\w-]+\])?|%[<>]?[A-Za-z{]\S*|\$[a-z_]\w*)["')\]]?$/;
/** Code's punctuation: a line dense with it and without a sentence's end is code, not prose. */
const CODE_MARKS = /[=(){}[\]<>;"]/g;

function isCode(text: string): boolean {
  // A command's continuation: it begins with a pipe, or a quote that closes an argument (`' | postsuper -d -`).
  if (CONTINUATION.test(text)) return true;
  if (/[.!?]["')\]]?$/.test(text)) return false;
  // A block's opening or closing line (`upstream php {`, `}`, `</Plugin>`), a line of code and what
  // it gives (`semver.valid('a.b.c') // null`).
  if (/[{}]$/.test(text) || isCodeShaped(text)) return true;
  // A format of tokens each led by its mark (morgan's `:method :url :status`, `%h %l %u %t`).
  const words = text.split(/\s+/);
  if (words.filter((w) => FORMAT_TOKEN.test(w)).length >= Math.max(3, words.length / 2)) return true;
  // Words quoted in prose are its words ('only allowed values are "true", "false", and "inetd"').
  const unquoted = text.replace(QUOTED_WORD, ' ');
  const own = isProse(unquoted) ? unquoted : text;
  return (withoutAsides(own).match(CODE_MARKS)?.length ?? 0) >= Math.max(3, text.length * 0.08);
}

/** A word or a few quoted, after a space or at the start, before a comma, a space or the end. */
const QUOTED_WORD = /(?<!\S)["“][\p{L}\p{N} ._-]{1,30}["”](?=[,;:.]?(?:\s|$))/gu;

/**
 * A parenthesis of words after a space, as prose writes one: `(Fast (limited port) scan)`, `(0
 * means infinity)`, not `f(x)`.
 */
const ASIDE = /\s\([\p{L}\p{N}][\p{L}\p{N} ,'’-]*\)/gu;

/** A line less its asides, innermost first: what is left of code's marks is code's. */
function withoutAsides(text: string): string {
  let left = text;
  for (let before = ''; before !== left;) [before, left] = [left, left.replace(ASIDE, '')];
  return left;
}

/**
 * A record's values, less the names of its columns (undefined for another passage): a record
 * names what it is about in its own values (`Woody`), as a heading does for prose; its
 * columns' names are in every row alike.
 */
export function recordValues(text: string): string | undefined {
  if (!RECORD.test(text)) return undefined;
  return text
    .split('; ')
    .map((field) => field.slice(field.indexOf(': ') + 2))
    .join('; ');
}

/** A function's signature (`json.dumps(obj, *, sort_keys=False)`): the subject of what follows it. */
const SIGNATURE = /^[\w.]+\s*\(.*\)(?:\s*->\s*\S.*)?$/;
/**
 * A setting's name and its default in parentheses, as Postfix's manuals head each parameter
 * (`postscreen_cache_retention_time (7d)`, `postscreen_greet_wait (normal: 6s, overload: 2s)`): no
 * function's signature, a space before its parenthesis and a figure inside.
 */
export const DEFAULT_IN_PARENTHESES = /^[\w.-]+ \([^()]*\d[^()]*\)$/;

/**
 * A heading that names a term (an option, a setting, a parameter, a function: `--default-cache-ttl
 * n`, `keepAliveTimeout`, `redact (Array | Object):`), not a section's title: what is under it is
 * that term's definition.
 */
export function isTermLead(lead: string): boolean {
  const name = lead.replace(/:$/, '');
  return (
    TERM.test(name) ||
    OPTION_LIKE.test(name) ||
    SIGNATURE.test(name) ||
    DIRECTIVE.test(name) ||
    PARAMETER.test(name) ||
    SYNTAX_LINE.test(lead) ||
    NAME_AND_KIND.test(name)
  );
}

/** A name written as one (a capital inside it, `_`, `.`) and the kind of thing it is: `MaxRequestWorkers Directive`. */
const NAME_AND_KIND =
  /^(?=\S*(?:\p{Ll}\p{Lu}|[_.$]))[\p{L}\p{N}_.$:-]+ (?:directive|option|variable|function|method|class|property|setting|parameter|command|attribute|field|macro)$/iu;

/**
 * An option's line with nothing of code but its syntax's marks (`-x, --max-connection-per-server=<NUM>`):
 * no quoted string, brace or spaced assignment, as a Lua comment has (`--Component "share.example.com"`,
 * `--s2s_insecure_domains = { "insecure.example" }`), but for the choices argparse lists in braces
 * (certbot's `--key-type {rsa,ecdsa}`, a new user's trial 41). An info manual quotes it whole
 * (`'--default-cache-ttl N'`, a new user's trial 40).
 */
const isOptionSyntax = (text: string) =>
  isOptionLine(unquoted(text)) && !/["'`{};]|\s=\s/.test(unquoted(text).replace(CHOICES, ''));
/** The values an option may take, as argparse's `--help` lists them: `--key-type {rsa,ecdsa}`. */
const CHOICES = /\{[\w.-]+(?:,[\w.-]+)+\}/g;
/**
 * A directive's name and the syntax of its value, a placeholder in angle brackets among its marks
 * (slapd.conf(5)'s `sizelimit {<integer>|unlimited}`, `serverID <integer> [<URL>]`): it heads the
 * directive's definition, whatever its brackets (a new user's trial 28).
 */
const PLACEHOLDER_SYNTAX = /^[A-Za-z][\w.-]*(?:\s+[\w.=:/,|*[\]{}<>-]+){1,4}$/;
const isPlaceholderSyntax = (text: string) => PLACEHOLDER_SYNTAX.test(text) && /<[\w-]+>/.test(text);

/**
 * A setting and a value alone on a line, a figure or a truth value (`seed-ratio=1.0`,
 * `ftp-pasv=true`); not a name and the kind of value it takes (fio(1)'s `iodepth=int`), nor
 * names without values (`SystemMaxUse=, …`).
 */
const SETTING_WITH_VALUE = /^[A-Za-z_][\w.-]*=(?:\d[^\s,]*|true|false|yes|no|on|off)$/i;

/** A note of the version a thing came or changed in: "New in version 3.12.", "Changed in version 3.4: …". */
const VERSION_NOTE =
  /^(?:new|added|changed|deprecated|removed)\s+(?:in|since)\s+(?:version\s+)?v?\d+(?:\.\d+)*\b/i;

function isEntry(line: string): boolean {
  // A setting: a name and its number (login.defs's `PASS_WARN_AGE 7`, `UMASK 022`), no title and its page.
  if (NAMED_NUMBER.test(line)) return false;
  if (ENTRY.some((re) => re.test(line))) return true;
  if (/[.!?]["')\]]?$/.test(line)) return false;
  // A term and the places it is treated ("upper, String Functions, Range Functions"); not a name
  // and its values ("AFL-2.1: Academic Free License v2.1, true, false").
  if (/^[^,]{1,60}: /.test(line)) return false;
  const parts = line.split(/,\s+/);
  return parts.length >= 3 && parts.every((p) => p.split(/\s+/).length <= 6);
}

/**
 * Whether a chunk is shaped as navigation: a table of contents, a back-of-book index, a menu.
 * Most of its lines are entries; it names what is elsewhere and answers nothing itself.
 */
export function isNavigation(text: string): boolean {
  const lines = text.split('\n');
  return navigationLines(lines).size === lines.length;
}

/**
 * The lines of a chunk shaped as navigation (most of its lines entries) that are navigation: all
 * of them; or, where prose stands outside its runs of entries one under the other, those runs
 * alone (GNU sed's manual: the end of the section on exit statuses, then the next chapter's "*
 * Menu:" and its entries, in one chunk). None in another chunk.
 */
function navigationLines(raw: string[]): Set<number> {
  const lines = raw.map((l) => l.trim());
  const examples = exampleLines(lines);
  const counted = lines.filter((l, i) => l && !examples.has(i));
  if (counted.length < 5) return new Set();
  const entries = counted.filter(isEntry).length;
  // Prose among them (a verse numbered "41 …", an example's output "4.0") is not navigation.
  const isProseLine = (l: string) => !isEntry(l) && l.split(' ').length >= 6 && /[.!?:]["')\]]?$/.test(l);
  const prose = counted.filter(isProseLine).length;
  if (entries < NAVIGATION_SHARE * counted.length || prose >= PROSE_SHARE * counted.length) return new Set();
  // Runs of entries, blank lines inside them.
  const inRuns = new Set<number>();
  let run: number[] = [];
  const close = () => {
    if (run.filter((i) => lines[i]).length >= NAVIGATION_RUN) for (const i of run) inRuns.add(i);
    run = [];
  };
  lines.forEach((l, i) => {
    if (!l || (isEntry(l) && !examples.has(i))) run.push(i);
    else close();
  });
  close();
  const proseOutside = lines.some((l, i) => !inRuns.has(i) && !examples.has(i) && isProseLine(l));
  return proseOutside && inRuns.size > 0 ? inRuns : new Set(lines.keys());
}
const NAVIGATION_SHARE = 0.5;
/** Entries one under the other that are navigation inside a chunk of prose: a menu's, a contents list's. */
const NAVIGATION_RUN = 5;

/**
 * The lines of an example in a text: a line at an interpreter's prompt and what it prints
 * (`[3, 4, 5, 6, 7]`, `7`: no letters, or shaped as code), which is shaped as entries.
 */
function exampleLines(lines: string[]): Set<number> {
  const out = new Set<number>();
  let example = false;
  lines.forEach((line, i) => {
    example = CODE.test(line) || (example && (!/\p{L}/u.test(line) || isCode(line)));
    if (example) out.add(i);
  });
  return out;
}
const PROSE_SHARE = 0.25;

const navigation = new WeakMap<Chunk, Set<number>>();

/**
 * The passages of a chunk that can stand as an answer (none in a chunk shaped as navigation): not a question (a FAQ's: it becomes the
 * lead of the sentences that answer it), not a heading (a short line without an end mark or a
 * `name: value`; it leads what follows), not a fragment of two words.
 */
export function passagesOf(chunk: Chunk): Passage[] {
  const out: Passage[] = [];
  // A configuration file's settings (`;SaveInterval 5`) are not a contents list's entries.
  const lines = chunk.text.split('\n');
  let nav = navigation.get(chunk);
  if (nav === undefined)
    navigation.set(chunk, (nav = isConfigFile(chunk.filename) ? new Set() : navigationLines(lines)));
  if (nav.size === lines.length) return out;
  let lead: string | undefined;
  let leadLine = -2;
  /** The lines of the FAQ's marked question that leads, while it may go on (see FAQ_QUESTION_LINES). */
  let questionLines = 0;
  let example = false;
  let position = 0;
  /** The line before this one, less blank comment lines: where what introduces an example is. */
  let previous = -1;
  /** The line of the last attribute row of a term (see `attribute`), and of the last passage under the lead. */
  let attributeLine = -2;
  /** The last of them that is a short "Label: value" row (`attributeRow`). */
  let attributeRowLine = -2;
  /** The line of the last term of a definition list that heads the line under it (see `isTermLine`). */
  let termAt = -2;
  let underLeadLine = -2;
  /** A configuration comment's item of a term and a colon, and the last line of the comment it goes on over. */
  let commentItem: { term: string; line: number } | undefined;
  const config = isConfigFile(chunk.filename) || (!DOCUMENT.test(chunk.filename) && setsOnly(lines));
  if (config) hashComments(lines);
  joinWrappedComments(lines);
  joinContinuedLines(lines);
  joinLabelLines(lines);
  joinInterrupted(lines);
  const blocks = config ? configBlocks(lines) : undefined;
  /** The places in `out` of comments that describe the setting under them (see `describing`). */
  const describedAt = new Set<number>();
  /** The passage whose example the last line was (see `introduced`), and that line. */
  let shownUntil: { passage: Passage; line: number } | undefined;
  /** The comment whose group of settings the last setting was, and that setting's line. */
  let group: { passage: Passage; line: number } | undefined;
  /** The comment whose example is the setting commented out on the last line, and that line. */
  let commentedSetting: { passage: Passage; line: number } | undefined;
  lines.forEach((paragraph, line) => {
    if (BLANK_COMMENT.test(paragraph.trim()) || nav.has(line)) return;
    // A section's or a stanza's own line is where its settings are, shown with them.
    if (config && isBlockLine(paragraph)) return;
    const before = previous;
    previous = line;
    /** The line before ends with a colon: it introduces this one. */
    const colonBefore = !!lines[before]?.trimEnd().endsWith(':');
    const firstOfLine = position + 1;
    /** What the line's first sentence names ("maxRetries number (optional)"), for its short rows. */
    let lineSubject: string | undefined;
    /**
     * The line is a numbered section's title, of any length, prose under it (newsboat's FAQ: "1. I
     * get errors like "`color01' is not a valid color"" / "Numbers that start with zero…"); not a
     * numbered step, another under it.
     */
    const titled = numberedTitle(paragraph, lines[line + 1] ?? '');
    // A FAQ's question in several sentences ("4.6. When I paste text…, each line gets indented
    // further than the last. Why? And how can I stop this?") leads what follows, whole: none of
    // its sentences answers it.
    // So does one a FAQ marks as its question (`Q:`, `Q)`), however it ends (lftp's FAQ: 'Q: lftp
    // hangs in "Making data connection" state.').
    const asked = paragraph.trim();
    const record = RECORD.test(asked);
    // A marked question broken over lines (rng-tools' '* Q: "I don't have a /dev/hwrng, and I am
    // NOT using udev or devfs.' / 'How do I get one?"') goes on until its answer.
    if (
      questionLines > 0 &&
      questionLines < FAQ_QUESTION_LINES &&
      leadLine === line - 1 &&
      !FAQ_ANSWER.test(asked) &&
      !FAQ_QUESTION.test(asked) &&
      `${lead} ${asked}`.length <= QUESTION_LENGTH
    ) {
      questionLines++;
      lead = `${lead} ${asked}`;
      leadLine = line;
      return;
    }
    questionLines = 0;
    if (
      !record &&
      asked.length <= QUESTION_LENGTH &&
      ((asked.endsWith('?') && asked.split(SENTENCE_END).length > 1) || FAQ_QUESTION.test(asked))
    ) {
      position++;
      lead = asked;
      leadLine = line;
      if (FAQ_QUESTION.test(asked)) questionLines = 1;
      return;
    }
    // A configuration file's comment listing names each with an empty value (pgbouncer.ini's
    // `;;   pool_size= reserve_pool= max_db_connections=`, the rows of "connect string params:")
    // says what may be written, and heads nothing.
    if (config && NAME_LIST_COMMENT.test(asked)) return;
    // Whether the line before was the lead itself: a term defines only the line right under it.
    const fresh = leadLine === line - 1;
    // A term of a definition list, its definition in lower case on the line under it
    // (`unban <IP> ... <IP>` / "unbans <IP> (in all jails and database)"), is one, its ellipsis
    // no sentence's end, and heads that definition; not a line of the example above it
    // (`"index.htm", "default.htm" )`).
    const term =
      !record &&
      shownUntil?.line !== line - 1 &&
      isTermLine(asked) &&
      isDefinitionLine(lines[line + 1]?.trim() ?? '') &&
      // Two rows of a label and its value one under the other are rows of a list (cron's
      // README.Debian: `user crontabs: …` / `log file: …`), not a term and its definition.
      !(LABEL_ROW.test(asked) && LABEL_ROW.test(lines[line + 1]!.trim()));
    // A configuration comment's item of a term and a colon is what the term is, whole ("Slow, Safest.").
    const colonItemLine =
      config && COMMENT_LINE.test(paragraph) && COLON_ITEM.test(asked.replace(/^#+\s*/, ''));
    for (const raw of record || term || colonItemLine ? [paragraph] : sentencesOf(paragraph)) {
      position++;
      // A quoted string an example leaves open holds the line under it whole, whatever it is (a
      // jq program's lines, a `#` comment among them: postsuper(1)'s `postqueue -j | jq -r '`);
      // so does a block it leaves open.
      if (
        position === firstOfLine &&
        shownUntil?.line === line - 1 &&
        (quoteGoesOn(shownUntil.passage) ||
          // Not into a sentence: a block the chunk does not close ends at the prose after it.
          (blockGoesOn(shownUntil.passage) && !(isSentence(paragraph.trim()) && isProse(paragraph.trim()))))
      ) {
        (shownUntil.passage.exampleGoesOn ??= []).push(paragraph.trim());
        shownUntil.line = line;
        break;
      }
      // A section's banner (`#### SNAPSHOTTING ####`) heads it by its words.
      let text = unbracketed(raw.trim()).replace(BANNER, '$2');
      // A configuration file's comment that is a sentence says what the line under it does: it
      // stands alone, not under the line before it; so does an item of a comment's list.
      const item = COMMENT_ITEM.exec(text);
      // And one without a full stop right above a setting, which it describes (sysctl.conf's
      // "# Uncomment the next line to enable packet forwarding for IPv4" / `#net.ipv4.ip_forward=1`).
      // Or with a blank comment line between them, above one set by a space (local.cf's "#   Set
      // the threshold … (default: 5.0)" / "#" / "# required_score 5.0").
      const describing =
        config &&
        position === firstOfLine &&
        DESCRIBING_COMMENT.test(text) &&
        !COMMENT_TERM_ITEM.test(text) &&
        !isCommentedSetting(text) &&
        settingAfter(lines, line);
      // And so is every sentence after the first of a comment's line (its marks are the line's).
      const comment =
        !!item ||
        colonItemLine ||
        COMMENT_TERM_ITEM.test(text) ||
        COMMENT.test(text) ||
        INTRODUCING_COMMENT.test(text) ||
        describing ||
        (position !== firstOfLine && COMMENT_LINE.test(paragraph) && /[.!?]["')\]]?$/.test(text));
      if (item) text = text.slice(item[0].length);
      else if (comment) text = text.replace(/^#+\s+/, '');
      // A comment's label for the commented-out line under it (squid's "#Default:" / "# cache_mem
      // 256 MB"): a passage once that line is its example.
      const label = position === firstOfLine ? COMMENT_LABEL.exec(text) : null;
      if (label) {
        out.push({
          text: `${label[1]}:`,
          chunk,
          position,
          line,
          ...(lead !== undefined && { lead }),
          labels: true,
        });
        continue;
      }
      // A comment's default on a line of its own under the sentence it ends ("# The login shell to
      // be used for all new users." / "# Default: DSHELL=/bin/bash", adduser.conf): shown with it.
      const stated = config && position === firstOfLine ? COMMENT_DEFAULT.exec(text) : null;
      const said = out.at(-1);
      if (stated && said?.line === before && said.example === undefined && !said.setting) {
        said.example = stated[1]!;
        continue;
      }
      // A setting commented out under the comment sentence that describes it (nanorc's "## Use
      // this tab size instead of the default…" / "# set tabsize 8"; e2scrub.conf's "…the snapshot
      // will be of this size." / "# snap_size_mb=256"): the default, as the file writes it.
      if (
        config &&
        position === firstOfLine &&
        (COMMENTED_DIRECTIVE.test(text) || COMMENTED_ASSIGNMENT.test(text)) &&
        said?.line === before &&
        said.example === undefined &&
        !said.setting &&
        (/[.!?]$/.test(said.text) || describedAt.has(out.length - 1))
      ) {
        said.example = text;
        said.setting = true;
        commentedSetting = { passage: said, line };
        continue;
      }
      // A definition list as a PDF or a man page prints it: the term, then its definition on the
      // same line ("HISTSIZE The maximum number of commands…", "globstar If set, the pattern…").
      // So does a configuration comment's item of a term, a colon and what it is (redis.conf's
      // `# always: fsync after every write…`).
      const entry =
        position === firstOfLine
          ? (termLine(text) ?? (config && comment ? colonItem(text) : undefined))
          : undefined;
      if (entry) {
        lead = entry.term;
        leadLine = line - 1;
        text = entry.definition;
      }
      // The comment lines right under a comment's item go on with it (snmpd.conf's "#
      // agentaddress: The IP address and port number that the agent will listen on." / "#   By
      // default the agent listens … on the default SNMP port (161).": a new user's trial 40).
      if (config && comment && position === firstOfLine)
        commentItem = entry
          ? { term: entry.term, line }
          : commentItem?.line === line - 1 && !item
            ? { ...commentItem, line }
            : undefined;
      if (term) {
        lead = text;
        leadLine = termAt = line;
        example = false;
        continue;
      }
      // An example (at a prompt, or shaped as code) and its output ("3", "4.0" under it) are
      // neither what answers nor what heads it; a number alone elsewhere may be a term ("4").
      const output = example && !/\p{L}/u.test(text);
      // "Output:" under an example labels what the example prints: the example goes on.
      const labelsOutput = example && OUTPUT_LABEL.test(text);
      example = !!text && (CODE.test(text) || output || labelsOutput || isCode(text));
      // An example goes on over the lines right under it (`$ umask 077` / `$ wg genkey | tee …`),
      // to its block's closing line; not into a comment (squid.conf's `#  TAG: …`).
      if (
        text &&
        position === firstOfLine &&
        shownUntil?.line === line - 1 &&
        !text.startsWith('#') &&
        (CODE.test(text) || isCode(text) || CLOSES.test(text) || PLACEHOLDER_COMMAND.test(text))
      ) {
        (shownUntil.passage.exampleGoesOn ??= []).push(text.replace(CODE, '').trim());
        shownUntil.line = line;
        continue;
      }
      // Code is what the sentence before introduces when it ends with a colon ("…with --halt soon,fail=1:").
      if (
        text &&
        (CODE.test(text) || isCode(text)) &&
        (introduced(out, before, text, colonBefore ? /:$/ : INTRODUCES) ||
          commented(out, before, lines, text) ||
          definedAbove(out, before, lines, text))
      )
        shownUntil = { passage: out.at(-1)!, line };
      if (!text || CODE.test(text) || output || labelsOutput) continue;
      // A name and its value (`PASS_WARN_AGE 7`) under the comment that defined that name further
      // up (login.defs describes its settings in a block above them): that definition's value.
      const valued = position === firstOfLine && !comment ? NAMED_VALUE.exec(text) : null;
      if (valued && setByDefinition(out, valued[1]!, text)) continue;
      // A configuration file's setting is the value of the comment above that names it, and no heading.
      // In a configuration file, one written as a name and its value too (`port 1194`, `;proto tcp`).
      // Elsewhere, not a list of settings' names (systemd's `SystemMaxUse=, SystemKeepFree=`), nor
      // a sentence that begins with one ("SystemMaxUse= and RuntimeMaxUse= control how much…").
      const setting =
        position === firstOfLine &&
        !comment &&
        (config || (!PLACEHOLDER_LINE.test(text) && !TERM.test(text) && !isSentence(text)))
          ? (SETTING.exec(text) ?? (config && isSpacedSetting(text) ? SPACED_SETTING.exec(text) : null))
          : null;
      if (setting) {
        // The setting itself right under its default commented out (ocserv.conf's `#max-clients =
        // 1024` / `max-clients = 16`): what the file sets, shown with it (a new user's trial 36).
        if (
          config &&
          commentedSetting?.line === line - 1 &&
          settingNameOf(commentedSetting.passage.example ?? '') === setting[1]
        ) {
          (commentedSetting.passage.exampleGoesOn ??= []).push(text);
          continue;
        }
        // One no comment describes, in a configuration file, says its default itself
        // (`#shared_buffers = 128MB  # min 128kB`).
        if (valueOf(out, before, text, setting[1]!, commentStart(lines, before))) continue;
        // The settings right under the first of a group its comment says what they do go on
        // with it (rsyslog.conf's "Set the default permissions for all log files." / `$FileOwner
        // root` … `$Umask 0022`).
        if (config && group?.line === line - 1) {
          (group.passage.exampleGoesOn ??= []).push(text);
          group.line = line;
          continue;
        }
        // Under a comment's list of terms (`;;   session  - after client disconnects (default)`),
        // the setting is what the sentence introducing the list says (pgbouncer.ini's pool_mode).
        const said = listIntroAbove(out, lines, before) ?? out.at(-1);
        const above = !!said && (said.line === before || said !== out.at(-1)) && said.example === undefined;
        const sentenceAbove =
          above &&
          !said.setting &&
          COMMENT_LINE.test(lines[said.line]!) &&
          // With its parenthesis ("…larger than that. (default: 2007)").
          /[.!?](?: \([^()]*\))?$/.test(said.text);
        if (config && above && (describedAt.has(out.length - 1) || sentenceAbove || said !== out.at(-1))) {
          said!.example = text;
          said!.setting = true;
          // The list's terms are the setting's values: led by its name.
          if (said !== out.at(-1))
            for (const item of out)
              if (item.line > said!.line && item.line <= before) item.lead ??= setting[1];
          if (sentenceAbove) {
            group = { passage: said!, line };
            // So is each of the comment's sentences: they describe it together (OpenVPN's
            // server.conf: "Configure server mode and supply a VPN subnet…" … "See the man page
            // for more info." / `server 10.8.0.0 255.255.255.0`).
            describesTogether(out, said!, commentStart(lines, said!.line));
          }
        } else if (config) {
          const block = blocks?.[line];
          out.push({
            text: text.replace(/^[#;]/, ''),
            chunk,
            position,
            line,
            setting: true,
            ...(block && { lead: block.name, block }),
          });
        }
        continue;
      }
      if (isAdmonition(text)) continue;
      if (text.endsWith('?') || SIGNATURE.test(text) || PARAMETER.test(text)) {
        lead = text;
        leadLine = line;
        continue;
      }
      // Not an option's line, however many marks its syntax has (cmake's `-L[A][H]`, aria2c's
      // `-x, --max-connection-per-server=<NUM>`): it heads its definition.
      if (
        isCode(text) &&
        !PLACEHOLDER_LINE.test(text) &&
        !isOptionSyntax(text) &&
        !DIRECTIVE_SYNTAX.test(text) &&
        !isPlaceholderSyntax(text)
      )
        continue;
      const words = text.split(/\s+/).length;
      // An option's syntax (`cache-max-ttl: <seconds>`) is no row: it heads the option's text; nor
      // is a directive with its default in parentheses (munin.conf(5)'s `htmldir path (Default:
      // /var/cache/munin/www)` over "Directory for HTML pages and graphs.": a new user's trial 41).
      const row = text.replace(PARENTHESES, '').includes(': ') && !SYNTAX_LINE.test(text);
      // A term's attribute on a row of its own ("• Units: pools", "Default: 2") says one thing of
      // it, not what it is: its definition is the line after its rows (varnishd(1)'s thread_pools).
      // So is its version note ("New in version 3.12.", Sphinx's versionadded): when it came, not
      // what it is or does (CMake's `--fresh` was defined as "New in version 3.24.").
      const versionNote = position === firstOfLine && VERSION_NOTE.test(text);
      const attributeRow = versionNote || (row && LINE_ROW.test(text.replace(/^[-*•]\s+/, '')));
      const afterAttributes =
        !row && !versionNote && attributeRowLine === line - 1 && position === firstOfLine;
      // Under a term (an option, a format code, a name), a short line is its definition:
      // "‘%j’ / day of year (001…366)", "‘-a’ / do not ignore entries starting with .".
      const defines =
        !!entry ||
        (termAt === line - 1 && position === firstOfLine && !attributeRow && !SYNTAX_LINE.test(text)) ||
        ((fresh || afterAttributes) &&
          !attributeRow &&
          lead !== undefined &&
          (TERM.test(lead) ||
            // An option with its argument (curl(1)'s `--retry-max-time <seconds>`), a directive
            // with its value's syntax (Tor's `ControlPort [address:]port|unix:path|auto [flags]`).
            isOptionSyntax(lead) ||
            DIRECTIVE_SYNTAX.test(lead) ||
            isPlaceholderSyntax(lead) ||
            PARAMETER.test(lead) ||
            DIRECTIVE.test(lead) ||
            SYNTAX_LINE.test(lead) ||
            PLACEHOLDER_LINE.test(lead)) &&
          words >= 2 &&
          position === firstOfLine &&
          // Another option is no definition (ssh-keygen's `-t dsa | …` under `verify-time=timestamp`,
          // stunnel's `sslVersionMin = SSL_VERSION` under `sslVersionMax = SSL_VERSION`).
          !isOptionLine(text) &&
          !PLACEHOLDER_LINE.test(text) &&
          // Nor the next directive's line after the attributes of one (freshclam.conf(5)'s
          // `LogFileMaxSize SIZE` / … / "Default: 1M" / `LogTime BOOL`: a new user's trial 29),
          // nor a setting's syntax (nsd.conf(5)'s `tcp-count: <number>` under a stray `-n`: trial 31).
          !DIRECTIVE_SYNTAX.test(text) &&
          !SYNTAX_LINE.test(text));
      // What a sentence shows "like this:" (`-DSQLITE_MAX_LENGTH=123456789`) is its example, not a heading.
      if (!row && !defines && words < 8 && showsExample(out, before)) {
        introduced(out, before, text, SHOWS);
        continue;
      }
      // A command a line introduces with its colon ("Print the indices and names of all columns:" /
      // `csvcut -n data.csv`) is what that line shows, and heads nothing: its output is not about it.
      // It goes on as an example does (below).
      if (position === firstOfLine && isCommand(text) && colonBefore) {
        if (introduced(out, before, text, /:$/)) shownUntil = { passage: out.at(-1)!, line };
        continue;
      }
      // So is a short line without an end mark under "…, use:" (smartd.conf(5)'s `-s
      // L/../(01|15)/./22`): what to use, not a heading of what follows.
      if (
        position === firstOfLine &&
        words < 8 &&
        !/[.!?]["')\]]?$/.test(text) &&
        introduced(out, before, text, TO_USE)
      )
        continue;
      // An option line leads its definition however many arguments it lists (`-t dsa | ecdsa | … | rsa`),
      // and so does a list of terms however many it names (journald.conf(5)'s `SystemMaxUse=, …`).
      // A setting given its value in a document's example (aria2c(1)'s sample configuration:
      // `listen-port=60000` / `seed-ratio=1.0`) is a line of that example, no heading.
      const exampleSetting = !config && SETTING_WITH_VALUE.test(text) && !PLACEHOLDER_LINE.test(text);
      if (
        !comment &&
        !row &&
        !defines &&
        !exampleSetting &&
        // Nor an item of a list (cron's README.Debian: "* SGID crontab(1) instead of SUID root"
        // had headed the rest of the file).
        !BULLETED.test(text) &&
        // Nor a line its sentence goes on from ("Ian obtained them from" / a path).
        !CUT_AFTER.test(text) &&
        !/[.!]["')\]]?$/.test(text) &&
        // A later sentence of a line of prose without its end mark is no heading: the line's last
        // sentence, its full stop left out (dropbear(8): "Set the number of authentication attempts
        // allowed per connection. If unspecified the default is 10 (MAX_AUTH_TRIES)": trial 31,
        // q25). After a section's number it is one ("5.1.2. Using Lists as Queues").
        (position === firstOfLine || text.endsWith(':') || !afterProse(paragraph, text)) &&
        // Nor is a sentence that introduces a command under it ("To enable and start a net, call:" /
        // `systemctl enable tinc@<netname>`): it says how, the command its example.
        !(
          text.endsWith(':') &&
          paragraph.trimEnd().endsWith(text) &&
          isCommand(lines[line + 1]?.trim() ?? '')
        ) &&
        (words < 8 ||
          (position === firstOfLine &&
            (isOptionLine(text) || TERM.test(text) || PLACEHOLDER_LINE.test(text))) ||
          (titled && paragraph.trimEnd().endsWith(text)))
      ) {
        // Terms of one definition on lines of their own ("'--null'" / "'-0'") are one lead.
        // Not a heading's word and the option under it ("OPTIONS" / "-0, --null").
        const alias =
          fresh &&
          lead !== undefined &&
          TERM.test(lead) &&
          TERM.test(text) &&
          !MAN_SECTION.test(lead) &&
          !MAN_SECTION.test(text) &&
          OPTION_LIKE.test(lead) === OPTION_LIKE.test(text);
        lead = alias ? `${lead}, ${text}` : text;
        leadLine = line;
        continue;
      }
      // A short "Label: value" after a line's first sentence is that line's ("maxRetries … Maximum
      // number of retries. Default: 5"): what a question about the line's subject may ask.
      const rowOfLine = row && position !== firstOfLine;
      if (position === firstOfLine) lineSubject = subjectOf(text);
      // A term's attributes on lines of their own under it ("3.163. mail_check" / "Type: number" /
      // "Default: 5"), or after its text ("max_login_fails" / "After this many login failures, the
      // session is killed." / "Default: 3"): what a question about the term may ask, led by it.
      const attribute =
        row &&
        position === firstOfLine &&
        lead !== undefined &&
        (fresh || [line - 1, before].includes(attributeLine) || [line - 1, before].includes(underLeadLine));
      if (attribute) attributeLine = line;
      if (attributeRow && (attribute || (versionNote && (fresh || attributeRowLine === before))))
        attributeRowLine = line;
      // A row of two values is no fragment (/etc/services' `rsync; 873/tcp.`).
      const twoValues = position === firstOfLine && ROW.test(text);
      if ((words < 3 && !defines && !rowOfLine && !attribute && !twoValues) || UNFINISHED.test(text))
        continue;
      // Led by the line's subject, not the heading: "Default: true" under retryAfter's line is not timeoutFactor's.
      // Not a comment's, but a comment's term and its definition (login.defs's `#	PASS_WARN_AGE	Number of days…`).
      // So is a later sentence of an item that names its subject by a name, that states a default
      // (Kea's "max-reclaim-time - this parameter specifies … Expressed in milliseconds; the
      // default value is 250.").
      const ofSubject =
        !!lineSubject &&
        !(comment && !entry) &&
        ((rowOfLine && LINE_ROW.test(text)) ||
          (position !== firstOfLine && NAMED_SUBJECT.test(lineSubject) && DEFAULT_VALUE.test(text)));
      const led =
        comment && !entry
          ? commentItem?.line === line && !describing
            ? commentItem.term
            : undefined
          : ofSubject
            ? lineSubject
            : lead;
      underLeadLine = led !== undefined && led === lead ? line : -2;
      if (describing) describedAt.add(out.length);
      out.push(
        led === undefined
          ? { text, chunk, position, line }
          : {
              text,
              chunk,
              position,
              line,
              lead: led,
              ...(defines && { defines }),
              ...(attribute && { attribute }),
              ...(ofSubject && { rowOfSubject: true }),
            },
      );
    }
  });
  introduceRows(out);
  valuesUnderOption(out, lines);
  if (config) leadByTheirSetting(out, lines);
  return out.filter((p) => !p.labels || p.example !== undefined);
}

/**
 * A sentence without the parenthesis it only opens or only closes: one of a paragraph written
 * wholly in parentheses ("(You will need to create…" … "…should both be www-data.)").
 */
function unbracketed(text: string): string {
  const opens = text.split('(').length - 1;
  const closes = text.split(')').length - 1;
  if (opens > closes && text.startsWith('(')) return text.slice(1);
  if (closes > opens && /[.!?]\)$/.test(text)) return text.slice(0, -1);
  return text;
}

/** A short "Label: value" (`Default: 30000 (30 seconds)`), not a sentence with a colon in it. */
const LINE_ROW = /^\w+(?: \w+)?: [^.!?]{1,40}$/;

/**
 * A term's attribute on a line of its own that says nothing without the term's text above it
 * (`Default: /var/run/hostapd` under `-p<path>` / "Path to find control sockets."): not a row of
 * a table or a verse, whose line is whole.
 */
export const isAttributeLine = (p: Passage): boolean => !!p.attribute && LINE_ROW.test(p.text);

/** A subject that is a name, as a setting's or an option's (`max-reclaim-time`, `log_level`), not a word ("Note"). */
const NAMED_SUBJECT = /^[\w.$%-]*[-_.][\w.$%-]*$|^[a-z][\w]*$/;

/** The name a list item's first sentence gives before its dash or colon, if short ("maxRetries number (optional)"). */
function subjectOf(sentence: string): string | undefined {
  const name = sentence.split(/\s+[-–—]\s+|:\s/)[0]!;
  return name !== sentence && name.split(/\s+/).length <= 5 ? name : undefined;
}

/** Verbs that say what to do with what a sentence introduces ("…, use:"). */
const DOING = 'use|using|run|type|call|write|add|try|invoke|execute|enter';
/**
 * A sentence that says to use, run or type what follows ("If you don't trust the input YAML
 * stream, you should use:"); not one the example only illustrates ("Raises KeyError if the key
 * does not exist:").
 */
const INTRODUCES = new RegExp(`\\b(?:${DOING}|follows|is|are)\\s*:$`, 'i');

/** A sentence that ends by saying what to do with what follows it ("…, use:", "run:"), not a list's ("are:"). */
const TO_USE = new RegExp(`\\b(?:${DOING})\\s*:$`, 'i');

/** An option's name and the kind of value it takes, as a manual writes them: `prefetch: <yes or no>`. */
const SYNTAX_LINE = /^[\w.-]+: <[^<>]+>$/;
/** A value as a manual writes it: a placeholder (`<file>`) or a word (`3h`, `yes`). */
const VALUE = String.raw`(?:<[^<>]+>|[\w.%-]+)`;
/** A default in parentheses or a note in brackets after a value: `( 655 )`, `[recommended]`. */
const NOTE = String.raw`(?:\(\s*[^()\s][^()]{0,40}\)|\[[^[\]\s][^[\]]{0,40}\])`;
/**
 * The same with a placeholder for its value, as a manual writes a setting it describes:
 * `sslVersionMin = SSL_VERSION`, `cert = <file>` (stunnel.html), the values it may take
 * (svnserve.conf(5)'s `anon-access = none|read|write`, ipsec.conf(5)'s `ikelifetime = 3h |
 * <time>`), with its default in parentheses or a note in brackets after it (tinc.conf(5)'s `Port =
 * port ( 655 )`, `Address = address [port] [recommended]`), or an option in lower case with its
 * value quoted (authorized_keys(5)'s `permitlisten="[host:]port"`, `from="pattern-list"`); in a
 * configuration file it is a setting.
 */
const PLACEHOLDER_LINE = new RegExp(
  String.raw`^(?:[A-Za-z_][\w.-]*\s*=\s*(?:<[^<>]+>|[A-Z][A-Z0-9_]*|${VALUE}(?:\s*\|\s*${VALUE})+|${VALUE}(?:\s*\|\s*${VALUE})*(?:\s+${NOTE})+)|[a-z][\w.-]*="[^"\s]+")$`,
);

/** A label for what an example prints. */
const OUTPUT_LABEL = /^(?:output|prints|result|returns|gives|yields)\s*:?$/i;

/** A sentence that shows what follows as an example of what it says ("…using a command-line option like this:"). */
const SHOWS = /\b(?:like this|as follows|for example|for instance|such as)\s*:$/i;

/**
 * A command line: a program's name, then an option among its arguments (`csvcut -n data.csv`, `git
 * log --oneline`), after a prompt or not (`$ make -k`, ImageMagick's `-> identify -list policy`).
 */
const COMMAND = /^(?:(?:\$|%|->)\s+)?[a-z][\w.+-]*(?: [^\s-]\S*)* --?[A-Za-z]/;
/**
 * Or a placeholder among its arguments, as a how-to writes what to run (tinc's README.Debian:
 * `systemctl enable tinc@<netname>`).
 */
const PLACEHOLDER_COMMAND = /^[a-z][\w.+-]*(?: [^\s<]\S*)* [^\s<]*<[\w-]+>\S*(?: \S+)*$/;
const isCommand = (text: string): boolean => COMMAND.test(text) || PLACEHOLDER_COMMAND.test(text);

/** A line of a comment. */
const COMMENT_LINE = /^\s*#+\s/;
/** A line of prose that ends mid-sentence: three words or more, no end mark. */
const MID_SENTENCE = /\p{Ll}[\p{L}\p{N},'’)\]]*\s+\S+\s+[\p{Ll}\p{N},'’()\]-]+$/u;
/** Words of prose: `least` or more, most of them lower-case words (not `artistid INTEGER PRIMARY KEY,`). */
export function isProse(line: string, least = 3): boolean {
  const words = line.split(/\s+/);
  return words.length >= least && words.filter((w) => /^\p{Ll}+[,;.]?$/u.test(w)).length * 2 > words.length;
}
/** A line that goes on with a sentence: it starts in lower case. */
const GOES_ON_LINE = /^\p{Ll}[\p{L}\p{N}'’-]*\s/u;
/** A short line of code inside a sentence: a command or a path of a few words (`./autogen.sh`). */
const INLINE_CODE_WORDS = 4;

/**
 * A sentence a line of code interrupts (a README's "…you need to first run" / `./autogen.sh` /
 * "from the top level directory…"), joined on its first line with the code in it (see joinLines).
 */
function joinInterrupted(lines: string[]): void {
  for (let i = 0; i + 2 < lines.length; i++) {
    const [before, code, after] = [lines[i]!.trim(), lines[i + 1]!.trim(), lines[i + 2]!.trim()];
    if (!MID_SENTENCE.test(before) || /^#/.test(before) || isCodeLine(before) || isCode(before)) continue;
    if (!GOES_ON_LINE.test(after) || isCodeLine(after) || isCode(after) || !isProse(after, 4)) continue;
    // Not an option line (a man page's `-v, --verbose` between two definitions).
    if (!code || code.split(/\s+/).length > INLINE_CODE_WORDS || /^[-–]/.test(code) || isOptionLine(code))
      continue;
    if (!(isCodeLine(code) || CODE_MARK.test(code))) continue;
    // Nor the next term of a definition list whose line above is a term too (fail2ban-client(1)'s
    // `unban --all` / "unbans all IP addresses…" / `unban <IP> ... <IP>` / "unbans <IP>…"; `banned`).
    const above = i > 0 ? lines[i - 1]!.trim() : '';
    if (isTermLine(above) || /^\p{Ll}[\p{L}\p{N}_-]*$/u.test(above)) continue;
    joinLines(lines, i, `${before} ${code} ${after}`, 3);
    i += 2;
  }
}

/** A definition in lower case under its term: prose, not code (`if i:` under `i = bisect_right(a, x)`). */
const isDefinitionLine = (line: string): boolean =>
  GOES_ON_LINE.test(line) && !/:$/.test(line) && isProse(line, 4) && !isCodeLine(line) && !isCode(line);

/** A short line of code, a term a definition list describes on the line under it. */
const isTermLine = (line: string): boolean =>
  !!line &&
  line.split(/\s+/).length <= INLINE_CODE_WORDS &&
  !/[.!?:]$/.test(line) &&
  (isCodeLine(line) || CODE_MARK.test(line) || isOptionLine(line));

/** A word no heading ends with: its sentence goes on, on the next line. */
const CUT_AFTER = /\s(?:a|an|the|and|or|of|from|to|with|by|than|that|which|whose)$/i;

/** A parenthesis and what it holds, none inside it. */
const PARENTHESES = /\([^()]*\)/g;

/** An item of a list, marked as one. */
const BULLETED = /^(?:[-*•]\s|o\s(?=\S))/;

/** A row of a table (with or without its header's names: `%j; day of year: 001-366.`) or an item of a list. */
const ROW = /^[^;]{1,40}; \S|^[-*•]\s/;

/**
 * The rows right under a sentence that introduces them with a colon ("The following is a complete
 * list of valid strftime() substitutions:" / `%j; day of year: 001-366.` …) are what it says they
 * are: it is each one's `intro`, up to the first line that is no row.
 */
function introduceRows(passages: Passage[]): void {
  let intro: Passage | undefined;
  let line = -1;
  for (const p of passages) {
    if (intro && p.line === line + 1 && (RECORD.test(p.text) || ROW.test(p.text) || LABEL_ROW.test(p.text))) {
      p.intro = intro.text;
      line = p.line;
      continue;
    }
    intro = p.text.endsWith(':') && p.example === undefined && !p.labels ? p : undefined;
    line = p.line;
  }
}

/** A value's term: a keyword, or keywords that are one (`demand | hard`). */
const VALUE_TERM = /^[a-z][\w-]*(?:\s*\|\s*[a-z][\w-]*)*$/;
/** How many lines above its value's entry an option's line may be. */
const VALUES_LISTED = 12;

/**
 * The entries of a list of an option's values (ldap.conf(5): `TLS_REQCERT <level>`, then `never`,
 * `allow`, `try` and `demand | hard`, each with what it does) are about that option: it is each
 * one's `intro` ("This is the default setting." of `demand | hard` says TLS_REQCERT's default: a
 * new user's trial 28).
 */
function valuesUnderOption(passages: Passage[], lines: string[]): void {
  for (const p of passages) {
    if (p.intro !== undefined || !p.lead || !VALUE_TERM.test(p.lead)) continue;
    for (let line = p.line - 1; line >= Math.max(0, p.line - VALUES_LISTED); line--) {
      const text = lines[line]!.trim();
      // An option and the placeholder of its value (`TLS_REQCERT <level>`), over the list of its values.
      if (!isPlaceholderSyntax(text)) continue;
      // And it is shown with its value, which it defines.
      Object.assign(p, { intro: text, defines: true });
      break;
    }
  }
}

/** A clause that introduces a list ("The individual files are:"), not a label of one value. */
const LISTS = /\b(?:is|are|was|were|be|include|includes|including|following|follows|means|mean)\s*:$/i;
/** A label of what follows as it is shown: an example, its use, a program's synopsis. */
const EXAMPLE_LABEL = /^(?:examples?|usage|synopsis|sample|syntax|code|command|commands|for example)\s*:$/i;

/** A label alone on its line, for the line under it (`Default value:`, `Effect if unset:`). */
const LABEL_LINE = /^\p{Lu}[\p{L}\p{N}'’ -]{0,40}:$/u;
const LABEL_WORDS = 5;

/**
 * A label alone on its line and its value on the next (Privoxy's config.html: "Effect if unset:" /
 * "A default value of 300 seconds is used."), joined as `Label: value` (see joinLines), a row of
 * what is above (the option's name), not the heading of its value. Not a label of code, an option
 * or a list's item, which the label introduces.
 */
function joinLabelLines(lines: string[]): void {
  for (let i = 0; i + 1 < lines.length; i++) {
    const label = lines[i]!.trim();
    const value = lines[i + 1]!.trim();
    if (!LABEL_LINE.test(label) || label.split(/\s+/).length > LABEL_WORDS) continue;
    // Not one that shows what follows: an example, a program's output.
    if (OUTPUT_LABEL.test(label) || EXAMPLE_LABEL.test(label) || LISTS.test(label)) continue;
    if (!value || LABEL_LINE.test(value) || /^(?:[#;>|•·*+-]|\d+[.)]\s)/.test(value)) continue;
    if (isCodeLine(value) || isOptionLine(value) || isCode(value)) continue;
    joinLines(lines, i, `${label} ${value}`, 2);
    i++;
  }
}

/** A line that a shell's continuation (` \`) at its end goes on to the next. */
const CONTINUED = /\s\\$/;
/** The lines one command may go on over. */
const MAX_CONTINUED_LINES = 12;

/**
 * A command written over several lines, each but the last ending with a shell's continuation
 * (Knot DNS's README: `sudo apt-get install \` / `libtool autoconf … liburcu-dev`), read as the
 * one line it is, without the continuations: the answer had shown the command without its
 * packages (a new user's trial 28).
 */
function joinContinuedLines(lines: string[]): void {
  for (let i = 0; i + 1 < lines.length; i++) {
    let next = i;
    while (next + 1 < lines.length && next - i < MAX_CONTINUED_LINES && CONTINUED.test(lines[next]!)) next++;
    if (next === i || !lines[next]!.trim()) continue;
    const parts = lines.slice(i, next + 1).map((line, n) => (n ? line.trim() : line.trimEnd()));
    joinLines(lines, i, parts.map((part) => part.replace(CONTINUED, '')).join(' '), next - i + 1);
    i = next;
  }
}

/** A comment line of prose that a sentence goes on from to the next line: no end mark. */
const WRAPPED_COMMENT = /^\s*#+\s+\S.*\s\S+\s\S+.*[^.!?:;]$/;
/** A comment line that goes on with the sentence of the one before: it starts in lower case. */
const COMMENT_GOING_ON = /^\s*#+\s+["'“(]?\p{Ll}/u;

/**
 * A configuration file's comments marked with ';' (an INI file's: pgbouncer.ini's `;; When server
 * connection is released back to pool:`), read as those marked with '#'. Not a setting commented
 * out (`;pool_mode = session`, `;SaveInterval 5`): it is shown as written.
 */
function hashComments(lines: string[]): void {
  for (let i = 0; i < lines.length; i++) {
    const marked = SEMICOLON_COMMENT.exec(lines[i]!);
    if (marked) lines[i] = `${marked[1]}${'#'.repeat(marked[2]!.length)}${lines[i]!.slice(marked[0].length)}`;
  }
}
const SEMICOLON_COMMENT = /^(\s*)(;+)(?=\s|$)/;

/**
 * A comment's sentences wrapped over several lines (keepalived.conf's `# when it comes online.
 * "nopreempt" stops the higher priority machine taking` / `# over the master role, …`), each
 * joined on its first line (see joinLines). Never a setting or a directive commented out.
 */
function joinWrappedComments(lines: string[]): void {
  for (let i = 0; i < lines.length; i++) {
    let text = lines[i]!;
    let next = i + 1;
    const goesOn = () => (text = `${text.trimEnd()} ${commentText(lines[next++]!)}`);
    while (
      WRAPPED_COMMENT.test(text) &&
      !SETTING.test(commentText(text)) &&
      next < lines.length &&
      COMMENT_GOING_ON.test(lines[next]!) &&
      !COMMENT_TERM_ITEM.test(lines[next]!.trim()) &&
      !isCommentedSetting(lines[next]!)
    )
      goesOn();
    // A parenthesis alone on the comment's next line is the last sentence's (hostapd.conf's
    // "…should not be larger than that." / "(default: 2007)").
    if (
      COMMENT_LINE.test(text) &&
      next < lines.length &&
      COMMENT_LINE.test(lines[next]!) &&
      PARENTHESIS.test(commentText(lines[next]!))
    )
      goesOn();
    joinLines(lines, i, text, next - i);
    i = next - 1;
  }
}

/** A comment line's text, without its marks. */
const commentText = (line: string) => line.trim().replace(/^#+\s*/, '');

/** The first line of the comment, lines of it without a blank line between, that `line` is in. */
function commentStart(lines: string[], line: number): number {
  let first = line;
  while (first > 0 && (COMMENT_LINE.test(lines[first - 1]!) || BLANK_COMMENT.test(lines[first - 1]!.trim())))
    first--;
  return first;
}

/**
 * Puts `text`, what `count` lines from `first` on say together, on the first of them; the others
 * become blank comment lines, which are read as nothing, so every line keeps its number (what a
 * setting's comment, a code block's lines and a passage's place rely on).
 */
function joinLines(lines: string[], first: number, text: string, count: number): void {
  if (count < 2) return;
  lines[first] = text;
  for (let i = first + 1; i < first + count; i++) lines[i] = '#';
}

/** Words ended as a sentence: more than a name and its value. */
const isSentence = (text: string) => /[.!?]["')\]]?$/.test(text) && text.split(/\s+/).length > 4;

/** A setting or a directive commented out (`# unlock_time = 600`, `# set tabsize 8`). */
function isCommentedSetting(line: string): boolean {
  const text = line.trim();
  return SETTING.test(text.replace(/^(?:#+|;+)\s*/, '')) || COMMENTED_DIRECTIVE.test(text);
}

/**
 * A configuration file's setting: `name = value` (fail2ban's `bantime = 10m`, an INI file's
 * `key=value`), or one commented out, its default (`#bantime.increment = true`); or a name in
 * capitals, a colon and its value (lynx.cfg's `#CONNECT_TIMEOUT:18000`), not a URL's scheme.
 */
const SETTING = /^#?([A-Za-z_][\w.-]*)(?:\s*=\s*|(?<=^#?[A-Z][A-Z\d_]+):(?=[^\s:/\\]))\S/;

/**
 * A setting on the line after the comment that names it ("# "bantime" is the number of seconds
 * that a host is banned." / `bantime  = 10m`), the comment's last line being `before`, is the
 * value of the sentence of the comment that names it (the one that starts with it, else the last
 * such), never of another setting.
 */
function valueOf(passages: Passage[], before: number, setting: string, name: string, from: number): boolean {
  const escaped = name.replace(/[.]/g, '\\.');
  const named = new RegExp(`(?:^|[^\\w.-])${escaped}(?:$|[^\\w.-])`, 'i');
  // One that starts with the name is about it ("Port: Specify the port…"); one that mentions its
  // word later may be about something else ("…should you choose to run on a port lower than 1024").
  const subject = new RegExp(`^["'“‘]?${escaped}["'”’]?(?:$|[^\\w.-])`, 'i');
  // The comment's lines run up to `before`, each line right above the next.
  let at = before;
  let found: Passage | undefined;
  for (let i = passages.length - 1; i >= 0; i--) {
    const passage = passages[i]!;
    if (passage.line !== at && passage.line !== at - 1) break;
    at = passage.line;
    if (passage.setting) break;
    if (passage.example !== undefined || !named.test(passage.text)) continue;
    found ??= passage;
    if (subject.test(passage.text)) {
      found = passage;
      break;
    }
  }
  if (!found) return false;
  found.example = setting;
  found.setting = true;
  // What it is about, where no heading says: the setting it describes.
  found.lead ??= name;
  describesTogether(passages, found, from);
  return true;
}

/**
 * The sentences of a comment, from its line `from`, go on with the one that a setting under it is
 * the value of: they describe it together, and an answer from any of them shows the setting
 * (OpenVPN's server.conf: "Configure server mode and supply a VPN subnet for OpenVPN to draw
 * client addresses from." … "Each client will be able to reach the server on 10.8.0.1." / `server
 * 10.8.0.0 255.255.255.0`). Not one that is the value of another setting already.
 */
function describesTogether(passages: Passage[], described: Passage, from: number): void {
  const goesOn = (described.exampleGoesOn ??= []);
  for (const passage of passages)
    if (passage.line >= from && passage.example === undefined && !passage.setting)
      Object.assign(passage, { example: described.example, setting: true, exampleGoesOn: goesOn });
}

/**
 * A configuration file, by its name: `postgresql.conf.sample`, `squid.conf.documented`,
 * `jail.conf`, `my.cnf`, `php.ini`, `screenrc`, `msmtprc-system.example`, `sshd_config`, `.env`,
 * Postfix's `main.cf`, SpamAssassin's `local.cf`; and the files named for what they configure
 * (`Caddyfile`, `fstab`, `crontab`, `sudoers`, `exports`, `inittab`).
 */
const CONFIG_FILE =
  /\.(?:conf|cf|cfg|cnf|ini|properties|toml|env)(?:\.\w+)?$|(?:^|[/._-])\w*rc(?:[-_.](?:system|user|local|global|sample|example|dist|default|orig))*$|_config$|(?:^|\/)\.env\b|(?:^|\/)(?:Caddyfile|fstab|crontab|sudoers|exports|inittab)$/i;
/** A document about one is no configuration file (`cupsd.conf.html`, a man page of its directives). */
const DOCUMENT = /\.(?:html?|pdf|md|markdown|docx|json|csv|tsv)$/i;
const isConfigFile = (filename: string) => CONFIG_FILE.test(filename) && !DOCUMENT.test(filename);

/**
 * Lines that are, but for comments, settings and the sections they are in (`RSYNC_ENABLE=false`,
 * `[Service]` / `ExecStart=…`): a configuration file whatever its name (Debian's /etc/default
 * files, systemd's units).
 */
function setsOnly(lines: string[]): boolean {
  const code = lines.filter((l) => l.trim() && !/^\s*[#;]/.test(l));
  const settings = code.filter((l) => isBlockLine(l) || SETTING.test(l.trim())).length;
  return settings > 0 && settings >= SETTINGS_SHARE * code.length;
}
/** A few lines of another shape (a continued value, a directive) still make a configuration file. */
const SETTINGS_SHARE = 0.8;

/**
 * A comment's sentences on the lines right above the one a setting is the example of are about
 * that setting too (/etc/default/rsync: "# start rsync in daemon mode from init.d script?" / "#
 * only allowed values are "true", "false", and "inetd"" / "#  Use "inetd" if…" / `RSYNC_ENABLE=false`):
 * led by its name.
 */
function leadByTheirSetting(passages: Passage[], lines: string[]): void {
  passages.forEach((p, at) => {
    const name = p.setting && p.example !== undefined ? settingNameOf(p.example) : undefined;
    if (!name) return;
    let line = p.line;
    for (let i = at - 1; i >= 0; i--) {
      const above = passages[i]!;
      // The comment's lines right above, each on the line above the last.
      if (above.line < line - 1 || !COMMENT_OR_MARK.test(lines[above.line]!) || above.example !== undefined)
        break;
      above.lead ??= name;
      line = above.line;
    }
  });
}
const COMMENT_OR_MARK = /^\s*#+(?:\s|$)/;

/**
 * A configuration file's setting written as a name and its value, set or commented out
 * (OpenVPN's `port 1194` and `;proto tcp`, `key server.key # This file should be kept secret`):
 * no sentence, but a few words.
 */
const SPACED_SETTING = /^[#;]?\$?([A-Za-z_][\w.-]*)[ \t]+[^\s#]/;
const isSpacedSetting = (text: string) =>
  !/[.!?:]$/.test(text.replace(/\s+#.*$/, '')) && text.split(/\s+/).length <= MAX_SETTING_WORDS;
const MAX_SETTING_WORDS = 8;

/**
 * A command at its prompt under the shell comment that says what it does (borg-prune(1)'s "# Do a
 * dry-run without actually deleting anything." / `$ borg prune -v --list --dry-run …`), the
 * comment's line being `before`, is that comment's example.
 */
function commented(passages: Passage[], before: number, lines: string[], command: string): boolean {
  const last = passages.at(-1);
  if (
    !last ||
    last.line !== before ||
    last.example !== undefined ||
    !/^\$ /.test(command) ||
    !COMMENT_LINE.test(lines[before]!) ||
    !/[.!?:]$/.test(last.text)
  )
    return false;
  last.example = command.replace(CODE, '').trim();
  last.commands = true;
  return true;
}

/** Whether the line is what the sentence on the line before it (`before`) shows (see SHOWS). */
function showsExample(passages: Passage[], before: number): boolean {
  const last = passages.at(-1);
  return !!last && last.line === before && SHOWS.test(last.text);
}

/**
 * An example on the line after a sentence that introduces it (see INTRODUCES), the sentence's
 * line being `before`, is what that sentence says.
 */
function introduced(passages: Passage[], before: number, code: string, introduces = INTRODUCES): boolean {
  const last = passages.at(-1);
  if (
    !last ||
    last.line !== before ||
    !(last.labels || introduces.test(last.text)) ||
    last.example !== undefined
  )
    return false;
  last.example = code.replace(CODE, '').trim();
  return true;
}

/**
 * Code right under a term's definition of one sentence is what the term is: its example (morgan's
 * `tiny` / "The minimal output." / `:method :url :status …`).
 */
function definedAbove(passages: Passage[], before: number, lines: string[], code: string): boolean {
  const last = passages.at(-1);
  if (!last?.defines || last.line !== before || last.example !== undefined) return false;
  if (last.text !== lines[before]!.trim()) return false;
  // The next term's line (tinc.conf(5)'s `PublicKey = key [obsolete]` under Port's text, certbot's
  // `--key-type {rsa,ecdsa}` under --rsa-key-size's), no example.
  if (PLACEHOLDER_LINE.test(code.trim()) || isOptionSyntax(code.trim())) return false;
  last.example = code.replace(CODE, '').trim();
  last.codeOfTerm = true;
  return true;
}

/**
 * The comment sentence ending with a colon whose list of terms runs down to `before`, the line
 * above a setting (pgbouncer.ini's "When server connection is released back to pool:" / `session  -
 * after client disconnects (default)` / … / `;pool_mode = session`).
 */
function listIntroAbove(out: Passage[], lines: string[], before: number): Passage | undefined {
  let line = before;
  while (line >= 0 && COMMENT_TERM_ITEM.test(lines[line]!.trim())) line--;
  if (line === before || line < 0) return undefined;
  const intro = out.findLast((p) => p.line === line);
  return intro && intro.text.endsWith(':') && COMMENT_LINE.test(lines[line]!) ? intro : undefined;
}

/** A comment of names each with an empty value: `#   dbname= host= port=`. */
const NAME_LIST_COMMENT = /^#+\s*(?:[A-Za-z_][\w.-]*=\s+){2,}[A-Za-z_][\w.-]*=$/;

/** A comment that gives a default (`# Default: DSHELL=/bin/bash`). */
const COMMENT_DEFAULT = /^#*\s*(Default:\s*\S.*)$/i;

/** An identifier (with an underscore, or in capitals) and one value: `PASS_WARN_AGE 7`, `UMASK 022`. */
const NAMED_VALUE = /^([A-Za-z]\w*_\w+|[A-Z][A-Z0-9]{2,}|[A-Z][a-z\d]+[A-Z]\w*)[ \t]+([^\s#]+)$/;

/** Whether a definition of `name` (a passage it leads) took `setting` as its value: once, the first. */
function setByDefinition(passages: Passage[], name: string, setting: string): boolean {
  const defined = passages.find((p) => p.defines && p.lead === name && p.example === undefined);
  if (!defined) return false;
  defined.example = setting;
  defined.setting = true;
  return true;
}

/** A comment of words, without a full stop: a capitalised word, then three or more. */
const DESCRIBING_COMMENT = /^#+\s+\p{L}[\p{Ll}-]*(?:\s+[\p{L}\p{N}'’()/:.,-]+){3,}(?<![.!?:,])$/u;

/** Whether the next line but blank comment lines after `line` is a setting, set or commented out. */
function settingAfter(lines: string[], line: number): boolean {
  let next = line + 1;
  while (next < lines.length && BLANK_COMMENT.test(lines[next]!.trim())) next++;
  const text = lines[next]?.trim() ?? '';
  // Or one written as a name and its value (vnstat.conf's `;SaveInterval 5`).
  return isCommentedSetting(text) || (SPACED_SETTING.test(text) && isSpacedSetting(text));
}

/** A directive commented out, its keyword in lower case and a few values (`# set tabsize 8`). */
const COMMENTED_DIRECTIVE = /^#\s?[a-z][\w.-]*(?:\s+[^\s#]+){1,3}$/;
/** A setting commented out as a name and its one value (e2scrub.conf's `# snap_size_mb=256`). */
const COMMENTED_ASSIGNMENT = /^#\s?[a-z][\w.-]*=[^\s#]+$/;

/** A comment that is a label alone (`#Default:`, `# Example:`), for the line under it. */
const COMMENT_LABEL = /^#+\s*(\p{L}[\p{L} ]{0,30}):$/u;

/**
 * The sentences that follow a passage in its paragraph, while the passage and they are shorter
 * than `length`: a sentence that matches a question often sets up the one that answers it
 * ("The shell sets the default value to the value of HISTSIZE… The default value is 500.").
 */
export function followingSentences(passage: Passage, length: number): Passage[] {
  const after: Passage[] = [];
  let total = passage.text.length;
  for (const next of passagesOf(passage.chunk)) {
    if (total >= length) break;
    if (next.line !== passage.line || next.position <= passage.position) continue;
    if (next.position !== passage.position + after.length + 1) break;
    after.push(next);
    total += next.text.length;
  }
  return after;
}

/** The name a configuration line sets, set or commented out (`# unlock_time = 600`: unlock_time). */
export function settingNameOf(line: string): string | undefined {
  return SETTING.exec(line.replace(/^[#;]\s*/, ''))?.[1];
}

/** The name of the setting a passage's example sets, as a name and a value or with `=` (`no-appendfsync-on-rewrite no`). */
export function exampleSettingName(p: Passage): string | undefined {
  const line = p.example?.replace(/^[#;]\s*/, '');
  if (line === undefined) return undefined;
  const name = settingNameOf(line) ?? (isSpacedSetting(line) ? SPACED_SETTING.exec(line)?.[1] : undefined);
  // Not a group of settings; the one setting commented out and set is one.
  return p.exampleGoesOn?.some((more) => settingNameOf(more) !== name) ? undefined : name;
}

/**
 * A line of code or of a configuration, not a sentence: a setting
 * (`XZ_DEFAULTS=--memlimit-compress=150MiB`), a command line (`set -g prefix C-a`), code. An
 * answer shows it as it is written: a full stop after it would be pasted with it.
 */
export function isCodeLine(text: string): boolean {
  if (/[.!?:]["')\]]?$/.test(text)) return false;
  // Not a table's row of a command and what it does (`dpkg --configure -a configure all partially installed packages`).
  if (DESCRIBED.test(text)) return false;
  return SETTING.test(text) || COMMAND.test(text) || isCode(text);
}

/** A line that ends in words of prose: four or more plain words. */
const DESCRIBED = /(?:\s[a-z]{2,}){4,}$/;

/** A line with a mark of code: an option, a variable, a path, an identifier's underscore, an assignment. */
export const CODE_MARK = /(?:^|\s)(?:[-$][\w-]|\S*[_=/]\S*)/;

/** The passage as an answer's sentence: ends with a full stop. */
export function asSentence(text: string): string {
  const bare = text.replace(/[:;,]$/, '');
  return /[.!?…]["')\]]?$/.test(bare) ? bare : `${bare}.`;
}
