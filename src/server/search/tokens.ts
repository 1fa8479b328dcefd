import { stem as porter2 } from 'porter2';
import { fold } from '../../util/fold.js';

export { fold };

/** Words that say nothing of a text's subject; "s" and "t" are what is left of "Rich's" and "don't". */
export const STOP_WORDS = new Set(
  'a an and are as at be but by can do does for from has have how i in is it its me my of on or our s so t that the their them there these this to was we what when where which who why will with you your'.split(
    ' ',
  ),
);

/** Bumped whenever `tokens` would split a text differently: older snapshots are then rebuilt. */
export const TOKENIZER_VERSION = 9;

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
  if (/[^a-z]/.test(word)) return word;
  let stemmed = stems.get(word);
  if (stemmed === undefined) {
    // Porter2 costs more than the rest of tokenizing; most words come again and again.
    if (stems.size >= STEMS_KEPT) stems.clear();
    stems.set(word, (stemmed = porter2(word)));
  }
  return stemmed;
}

const STEMS_KEPT = 100_000;
const stems = new Map<string, string>();

/** The folded words and numbers of a text, stop words included, then its identifiers whole. */
export function words(text: string): string[] {
  const addresses = text.includes('@') ? text.match(EMAIL_ADDRESS) : null;
  if (addresses) text = text.replace(EMAIL_ADDRESS, ' ');
  // ASCII text (most of it) takes the cheaper expression; they split it alike.
  const split: string[] = /[^\x00-\x7f]/.test(text)
    ? (fold(text).match(/[\p{L}\p{N}]+/gu) ?? [])
    : (text.toLowerCase().match(/[a-z0-9]+/g) ?? []);
  const found = /[._%-]|\b[B-HJ-Z]\b/.test(text) ? split.concat(identifiers(text)) : split;
  return addresses ? found.concat(addresses.map(fold)) : found;
}

/**
 * An e-mail address is one term, not its words: a changelog's `<gilles.carry@st.com>` or
 * `someone@enterprise.example` says nothing of carrying or enterprises (a new user's folder, session 37:
 * "the refund policy for the Enterprise plan" answered from a dpkg changelog's attribution line).
 * Not a systemd unit of a template (`pg_basebackup@15-main.timer`, `wg-quick@wg0.service`), whose
 * words are what it is about (a new user's trial 39).
 */
const EMAIL_ADDRESS =
  /(?<![\p{L}\p{N}_.+-])[\p{L}\p{N}_.+-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+(?![\p{L}\p{N}-])(?<!\.(?:service|socket|timer|target|mount|automount|swap|path|slice|scope|device))/gu;

/**
 * The index's terms of a document's text: its `indexTerms`, then the words of its names in
 * CamelCase, which a question may say apart ("close the lid" is `HandleLidSwitch=`'s; "client
 * alive messages" `ClientAliveCountMax`'s). A question's own names are not split: PostgreSQL
 * asked about is no question on SQL.
 */
export function documentTerms(text: string): string[] {
  const terms = indexTerms(text);
  if (!/[a-z][A-Z]/.test(text)) return terms;
  return terms.concat(
    camelCaseWords(text)
      .filter((w) => !STOP_WORDS.has(w))
      .map(stem),
  );
}

/** A name in CamelCase (`HandleLidSwitch`, `ClientAliveCountMax`, `OpenSSH`, `macOS`). */
const CAMEL_CASE = /(?<![\p{L}\p{N}])\p{L}*\p{Ll}\p{Lu}[\p{L}\p{N}]*/gu;
/** Its words: capitals in a row are one (an acronym: `OpenSSH`'s SSH). */
const CAMEL_WORD = /\p{Lu}+(?!\p{Ll})|\p{Lu}?\p{Ll}+|\p{N}+/gu;

/** The words of a text's names in CamelCase: not a part too short to be one (iPhone's i, PyYAML's Py). */
function camelCaseWords(text: string): string[] {
  const parts: string[] = [];
  for (const name of text.match(CAMEL_CASE) ?? [])
    for (const part of name.match(CAMEL_WORD) ?? []) if (part.length > 2) parts.push(fold(part));
  return parts;
}

/**
 * Identifiers as written, besides their parts: `snake_case`, `dotted.names` and versions (`20.04`; folded), long
 * flags (`--almost-all`), and, keeping their case since it changes their meaning, short flags
 * (`-A`), format codes (`%j`, `%H`) and a capital letter standing alone (struct's format
 * character `H`, a grade, a key; not the words "A" and "I"). A question naming one then finds it before its parts used apart.
 */
const IDENTIFIER =
  /(?<![\w.-])(?:[A-Za-z_][\w]*(?:[._][\w]+)+|\d+(?:\.\d+)+(?![.\d])|--[A-Za-z0-9][\w-]*)|(?<![\w-])-[A-Za-z](?![\w-])|(?<![\w%])%[A-Za-z](?!\w)|(?<![\w'’.-])[B-HJ-Z](?![\w'’-])/g;

/**
 * A flag written with its optional parts in brackets stands for each flag it can be: git's
 * `--[no-]verify` is `--verify` and `--no-verify`; exim's `-q[q][i]f` is `-qf`, `-qqf`, `-qif`, `-qqif`.
 */
const OPTIONAL_FLAG =
  /(?<![\w\]-])--?(?:[A-Za-z0-9-]|\[[A-Za-z0-9-]+\])*\[[A-Za-z0-9-]+\](?:[A-Za-z0-9-]|\[[A-Za-z0-9-]+\])*/g;
/** Flags of more optional parts than this are not spelled out (2^3 = 8 flags at most). */
const MAX_OPTIONAL_PARTS = 3;

function optionalFlags(text: string): string[] {
  const flags: string[] = [];
  for (const written of text.match(OPTIONAL_FLAG) ?? []) {
    const parts = written.split(/(\[[A-Za-z0-9-]+\])/);
    const optional = parts.filter((p) => p.startsWith('['));
    if (optional.length > MAX_OPTIONAL_PARTS) continue;
    for (let mask = 0; mask < 1 << optional.length; mask++) {
      let k = 0;
      const flag = parts
        .map((p) => (p.startsWith('[') ? (mask & (1 << k++) ? p.slice(1, -1) : '') : p))
        .join('');
      if (/^--?[A-Za-z0-9][\w-]*$/.test(flag) && !flag.endsWith('-')) flags.push(flag);
    }
  }
  return flags;
}

function identifiers(text: string): string[] {
  const found = text.includes('[')
    ? [...(text.match(IDENTIFIER) ?? []), ...optionalFlags(text)]
    : text.match(IDENTIFIER);
  if (!found?.length) return [];
  return found.map((id) => (/^(?:-[A-Za-z]|%[A-Za-z]|[A-Z])$/.test(id) ? id : id.toLowerCase()));
}
