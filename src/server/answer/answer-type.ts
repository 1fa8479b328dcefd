/** What a setting is, when someone sets it: given, set, specified, passed… */
const SET = String.raw`giv(?:e|en)|set|specif(?:y|ied)|provided?|suppl(?:y|ied)|configured?|pass(?:ed)?|defined?|change[sd]?|overridden`;
/** "Out of the box": a default, in words no answer says (no word of a question either: relevance.ts). */
export const OUT_OF_THE_BOX = /\bout[- ]of[- ]the[- ]box\b/;
/**
 * What is so when a thing is not set, asked in other words than "by default": "when no censor is
 * given", "if I don't give one", "if I don't set socket-timeout", "if I don't configure anything",
 * "if the port is omitted", "if I leave it out", "out of the box"; or said so ("Usually, that is
 * /etc/mpd.conf, unless a different path is specified").
 */
const UNSET = new RegExp(
  String.raw`${OUT_OF_THE_BOX.source}|\b(?:when|if)\b[^?.,;]{0,40}?(?:\b(?:no|not|never|none)\b|n['’]t\b)[^?.,;]{0,30}?\b(?:${SET})\b|\bunless\b[^?.,;]{0,40}?\b(?:${SET}|otherwise)\b|\b(?:when|if)\b[^?.,;]{0,40}?\b(?:omitted|unset|left out|leaves? (?:it |them |that |this )?out)\b|\bwithout (?:setting|specifying|giving|passing|configuring)\b`,
);
/** A default set aside: "other than the default", "instead of the default", "non-default". */
const SET_ASIDE = String.raw`(?<!\b(?:(?:other|different|else)\s+(?:than|from)|instead\s+of|rather\s+than|besides|apart\s+from)\s+(?:the\s+|its\s+|a\s+)?|\bnon-)`;
/** Whether the only kind of answer the question asks for is a default ("What is the default X?"). */
export function asksDefaultOnly(question: string): boolean {
  const asked = KINDS.filter((k) => k.asks.test(question));
  return asked.length > 0 && asked.every((k) => k.topic);
}
/**
 * A question that asks for the default of what its other words ask for: "by default", "if it is
 * not set", "the default port" (its number, and that it is the default: not iperf3(1)'s "If the
 * iperf3 server is running on a non-default TCP port…": a new user's trial 38).
 */
const BY_DEFAULT = new RegExp(
  `\\bby default\\b|\\bdefault (?:(?:tcp|udp|listening)\\s+)?ports?\\b|${UNSET.source}`,
  'i',
);

/** A number spelled out, past one ("thirty pieces of silver", "two days"). */
const SPELLED =
  'two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty|sixty|hundred|thousand';

/** A unit a figure measures in, time or size or a share: "10 seconds", "32 MB", "10%". */
const MEASURE = String.raw`(?:%|percent\b|bits?\b|(?:milli)?seconds?\b|secs?\b|minutes?\b|mins?\b|hours?\b|days?\b|weeks?\b|months?\b|years?\b|ms\b|[kmgt]i?b\b|bytes?\b|(?:kilo|mega|giga|tera)bytes?\b)`;

/**
 * The numbers a question gives as quantities and their units ("a 10 TB filesystem": `10`, `tb`;
 * "every 300 ms"): the user's own case, which a document states as a rule or a range ("5% for
 * filesystems under 50TB"), seldom as that figure.
 */
export function quantitiesOf(question: string): Set<string> {
  const found = new Set<string>();
  for (const m of question.matchAll(
    new RegExp(String.raw`(?<![\p{L}\p{N}.])(\d+)(?:\.\d+)?\s*(${MEASURE})`, 'giu'),
  )) {
    found.add(m[1]!);
    found.add(m[2]!.toLowerCase());
  }
  return found;
}

/**
 * A duration, or a setting's unit of time: "Number of minutes that can elapse…", "in hundredths of
 * seconds"; or a field or setting named in one, given a number (a CSV row's `retention_days: 30`,
 * `timeout-seconds = 90`).
 */
const DURATION =
  /\b(?:\d+(?:[.,]\d+)?|one|two|three|four|five|six|seven|eight|nine|ten|fifteen|twenty|thirty|sixty|a few)[ -]?(?:business[ -])?(?:(?:milli|micro)?seconds?|ms|minutes?|hours?|days?|weeks?|months?|years?)\b|\b(?:number of|in(?: \w+ of)?) (?:milliseconds|seconds|minutes|hours|days)\b|[_-](?:ms|secs?|seconds|minutes|mins|hours|days|weeks|months|years)\s*[:=]\s*\d/i;

/**
 * Or an option's unit of time after its placeholder, the figure its default (postgrey(8)'s
 * `--delay=N greylist for N seconds (default: 300)`): a capital alone, not "a day".
 */
const PLACEHOLDER_UNIT = /\b[A-Z] (?:milliseconds|seconds|minutes|hours|days|weeks|months|years)\b/;
const DURATIONS = { test: (text: string) => DURATION.test(text) || PLACEHOLDER_UNIT.test(text) };

/**
 * A port's number: a whole number, not a version's figures ("OpenVPN 2.6"), nor a measure ("512
 * bits", "30 seconds"), nor a name's (iperf3's 3: a new user's trial 38).
 */
const PORT = String.raw`(?<![\p{L}\p{N}_]|\d\.)\d{1,5}(?![\p{L}\p{N}_]|\.\d|[ -]?${MEASURE})`;

/**
 * What kind of answer a question asks for, where its words say so ("how long", "when", "how
 * much"), and whether a passage holds one: between passages that hold as much of the question,
 * the one with a duration answers "how long", the one with a price "how much".
 */
const KINDS: { asks: RegExp; holds: Pick<RegExp, 'test'>; topic?: boolean; only?: boolean }[] = [
  {
    // A duration: "how long", "response time", "how soon", "how often" (an interval), "time off";
    // not "how many times" (a count), "at a time", nor a time that qualifies what follows ("the
    // time module", "time zone"); not "how long can X be?" (a length).
    asks: /\bhow (?:soon|often)\b|\bhow long\b(?! (?:can|may|must|should|could|might)\b(?![^?]*\b(?:take|last|wait|run|keep|stay|idle)\b)[^?]*\bbe\b)|(?<!\bhow many |\bat a |\bwhat |-)\btimes?\b(?=\s*(?:[?.,!]|$)|\s+(?:for|of|off|to|in|is|are|does|do|did|and|it|on|per)\b)|\bduration\b/i,
    holds: DURATIONS,
  },
  {
    // A length: "How long can a WPA passphrase be?" (hostapd.conf: "(8..63 characters)"), not a duration.
    asks: /\bhow long (?:can|may|must|should|could|might)\b(?![^?]*\b(?:take|last|wait|run|keep|stay|idle)\b)[^?]*\bbe\b/i,
    holds: /\b\d+(?:\s*(?:\.\.|-|–|to)\s*\d+)?\s*(?:characters?|chars|bytes?|digits?|letters?|words?)\b/i,
  },
  {
    // A time of day: "What time is 'teatime'…?" (at(1): "teatime (4pm)"), not a duration.
    asks: /\bwhat time\b/i,
    holds:
      /\b\d{1,2}(?::\d{2})?\s*(?:am|pm|a\.m\.|p\.m\.)(?![\p{L}])|\b\d{1,2}:\d{2}\b|\b(?:noon|midnight)\b/iu,
  },
  {
    // A default: a value it is, or is set to. Only when nothing else is asked: in "How many times
    // is the default value evaluated?" the default is what the question is about.
    topic: true,
    // Not one the question only sets aside: "connect to a port other than the default" asks how.
    asks: new RegExp(`${SET_ASIDE}\\bdefault\\b|${UNSET.source}`, 'i'),
    // Or what it has: "they create default values of False and True". Or what a setting or a
    // parameter is set to (`bantime = 10m`, `max_workers=None`), not a variable code declares
    // (`const logger = require('.')`), a grammar's rule (`FLAG := persistent | random`), a
    // comparison (`==`, `!=`) or an option's argument (`--csv[=filename]`, `--delay=N`). Or what
    // is the default ("sync is the default"). Or a default of a figure ("a default iteration
    // count of 10000"), or what is so when nothing sets it ("If you don't change it…, upsd will
    // listen on port 3493"). Or what is used rather than it ("…on timeout, rather than the
    // default ‘TERM’ signal", atd(8)'s "instead of the compiletime choice of 1.5"), or a figure
    // noted as it ("(60 default)", "(default 1.0)"). Not a non-default one ("running on a
    // non-default TCP port, that port number needs to be…": a new user's trial 38).
    holds: new RegExp(
      `${UNSET.source}|` +
        /(?<!\bnon-)\bdefaults?\b[^.;]{0,60}?(?:\bis\b|\bare\b|\bto\b|=|:)|\bdefault values? of\b|\bdefault (?:[a-z-]+ ){1,3}of \S*\d|(?<!\b(?:const|let|var)\s+[\w$.]+\s*)(?<![:=!<>[])(?<!--[\w-]+)=(?!=)\s*\S|\bby default\b|\b(?:is|was|are|were)\s+(?:the\s+)?default\b|\b(?:rather than|instead of) (?:the |its )?(?:default|compile-?time|built-in)\b|\(\s*[^()\s]*\d[^()\s]*\s+default\s*\)|\(default:? [^()]*\d[^()]*\)/
          .source,
      'i',
    ),
  },
  {
    // An amount: a price, a discount.
    asks: /\bhow much\b|\bcosts?\b|\bprices?\b|\bfees?\b|\bdiscounts?\b|\bcheaper\b/i,
    holds:
      /[$€£]\s?\d|\b\d+(?:[.,]\d+)?\s?(?:%|(?:percent|dollars?|euros?|pounds?|usd|eur)\b)|\b(?:free|pricing|priced|no charge|discount)\b/i,
  },
  // A share: "By default, what share of a 10 TB XFS filesystem may be used for inodes?"
  // (mkfs.xfs(8): "The default value is 25% for filesystems under 1TB, 5% for…": a new user's
  // trial 41).
  {
    asks: /\bwhat (?:share|percentage|proportion|fraction)\b/i,
    holds: /\d+(?:[.,]\d+)?\s?(?:%|percent\b)|\b(?:half|a third|a quarter)\b/i,
  },
  {
    // Or a size ("How much memory can an fq_codel queue use?": "Default is 32 MB.").
    asks: /\bhow much\b/i,
    holds: /\b\d+(?:[.,]\d+)?\s?(?:[kmgtp]i?b|bytes?|(?:kilo|mega|giga|tera)bytes?)\b/i,
  },
  // Or a time ("How much clock difference does OpenDKIM tolerate…?": "Sets the tolerance in seconds…").
  { asks: /\bhow much\b/i, holds: DURATIONS },
  // Or a count of things ("thirty pieces of silver").
  { asks: /\bhow much\b/i, holds: new RegExp(`\\b(?:${SPELLED})\\s+[a-z]+s\\b`, 'i') },
  {
    asks: new RegExp(
      `\\bhow many (?=${MEASURE})|\\bnumber of\\b|\\blimit\\b|\\bnumeric\\b|\\bwhat number\\b`,
      'i',
    ),
    holds: new RegExp(`\\d|\\b(?:once|twice|${SPELLED})\\b`, 'i'),
  },
  // A count of things ("How many times does wget retry…?": "retry 20 times"), not a measure
  // ("a value of 10 seconds"): a new user's trial 33, k07.
  {
    asks: new RegExp(`\\bhow many\\b(?! ${MEASURE})`, 'i'),
    holds: new RegExp(
      `(?<![\\p{L}\\p{N}.,])(?:\\d+(?:[.,]\\d+)*|once|twice|${SPELLED})(?![\\p{L}\\p{N}]|[.,]\\d|[ -]?${MEASURE})`,
      'iu',
    ),
  },
  // A magnitude: "What's the biggest database SQLite can handle?" (not `--max-count`, a name).
  {
    asks: /(?<![-_])\b(?:biggest|largest|smallest|longest|maximum|minimum|how (?:big|large|small))\b(?![-_])/i,
    holds: new RegExp(`\\d|\\b(?:${SPELLED}|million|billion|unlimited|no limit)\\b`, 'i'),
  },
  // An option: "Which jq option reads the entire input stream…?" (not "What does the ip_hash
  // directive do?", which names it); held by a flag, a format code or a setting's name (`--slurp`,
  // `%p`, `renumber-windows`, a JavaScript library's `clockTolerance`, radvd.conf's
  // `MaxRtrAdvInterval`). It is what is asked, whatever else the question's words seem to ask:
  // "Which option sets the maximum time between…?" asks for no magnitude (a new user's trial 40:
  // MinRtrAdvInterval's "Default: 0.33 * MaxRtrAdvInterval" had held one).
  {
    only: true,
    asks: /\b(?:which|what)\s+(?!(?:does|do|did|is|are|was|were|can|could|should|would|will)\b)(?:[\w.+-]+\s+){0,2}?(?:options?|flags?|switch(?:es)?|directives?|settings?)\b/i,
    holds:
      /(?<![\w-])--?[A-Za-z][\w-]*|(?<![\w%])%[A-Za-z]|\b[A-Za-z][A-Za-z0-9]*(?:[-_][A-Za-z0-9]+)+\b|\b[a-z]+[A-Z][A-Za-z0-9]*\b|\b[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]+){2,}\b/,
  },
  // A port: "Which UDP port should I check is open?" (chrony's FAQ: "…see if the UDP port 323 is
  // listening"), "What port does Privoxy listen on?", "What is the default port…?": its number.
  {
    asks: /\b(?:which|what)\s+(?:[\w.+-]+\s+){0,3}?ports?\b(?!\s+(?:forwarding|mirroring|knocking)\b)|\bport number\b/i,
    // A number said as a port: near the word, listening or bound to it, after an address's colon
    // (`127.0.0.1:8118`), with its protocol (`5201/tcp`), or as a value (a default's, a setting's,
    // a row's: `Default: 3000`); not a number elsewhere in the sentence (postgresql-common's
    // README: "…versions (like 9.6, 11, etc.)": a new user's trial 39).
    holds: new RegExp(
      String.raw`\b(?:ports?|listen(?:s|ing)?|bind)\b[^.;]{0,40}?${PORT}|${PORT}[^.;]{0,20}?\bports?\b|(?<=(?:\]|[\p{L}\p{N}-]+):)${PORT}(?!:)|${PORT}(?=/(?:tcp|udp)\b)|\bdefaults?\b[^.;]{0,15}?${PORT}|=\s*${PORT}|^[^.;:]{0,30}:\s*${PORT}\s*\.?$`,
      'iu',
    ),
  },
  // A place in the file system: "Where does btrfs scrub keep its status files?" (btrfs-scrub(8):
  // "…recorded in /var/lib/btrfs/ in textual files named scrub.status.UUID", not "The progress is
  // saved in the status file…": a new user's trial 40), "Which directory…": a path.
  {
    asks: /^\s*where\b[^?]*\b(?:stor(?:e|es|ed)|keeps?|kept|sav(?:e|es|ed)|writ(?:e|es|ten)|puts?|logs?|logged|locat(?:e|ed)|install(?:s|ed)?|lives?|cache[sd]?|generat(?:e|es|ed)|plac(?:e|es|ed))\b|\b(?:which|what)\s+(?:[\w.+-]+\s+)?(?:director(?:y|ies)|folders?|path)\b/i,
    holds: /(?:^|[\s(“"'‘`=:])(?:~|\$\{?\w+\}?)?\/[\w.@-]/,
  },
  // The values a setting takes: "What values can DeflateCompressionLevel take?" (mod_deflate:
  // "The value must be between 1 (less compression) and 9 (more compression).", not its syntax's
  // "DeflateCompressionLevel value": a new user's trial 39): a range, or a choice ("one of…",
  // "debug, info, warn or error").
  {
    asks: /\b(?:what|which)\s+(?:\w+\s+)?(?:values|range)\b|\b(?:valid|possible|allowed) values\b|\brange of values\b/i,
    holds:
      /\bbetween\s+[-+]?\d[^.;]{0,40}?\band\s+[-+]?\d|(?<![\w.])[-+]?\d+(?:\.\d+)?\s*(?:\.\.|–|to)\s*[-+]?\d|\bfrom\s+[-+]?\d[^.;]{0,20}?\bto\s+[-+]?\d|\bone of\b|\b(?:valid|possible|allowed|accepted) values\b|(?:[\w-]+,\s+)+[\w-]+,?\s+(?:or|and)\s+[\w-]+/i,
  },
  // A file mode: "With which file mode are new log files created?" (rsyslog.conf's
  // `$FileCreateMode 0640`), "What permissions…", "What umask…": in octal with its leading zero,
  // after the word that says it is one (`chmod 644`), or in letters (`-rw-r-----`).
  {
    asks: /\b(?:which|what)\s+(?:[\w.+-]+\s+){0,2}?(?:(?:file|access|octal|creation)\s+modes?|permissions?|umask)\b/i,
    holds:
      /(?<![\w.:-])0[0-7]{2,3}(?![\w.:-])|\b(?:mode|chmod|umask|permissions?)\W{1,3}[0-7]{3,4}(?![\w.:-])|(?<![\w-])[dlsp-]?[r-][w-][xsS-][r-][w-][xsS-][r-][w-][xtT-](?![\w-])/i,
  },
  // A status code: "What exit code does rsync return after a partial transfer?".
  { asks: /\bwhat (?:exit |return )?(?:code|status)\b/i, holds: /\d/ },
  // A version: "which version added --mkpath", "Which Python version does PyYAML require?"; not
  // one the question names ("What changed in version 2.1?").
  {
    asks: /\b(?:which|what)\s+(?:[\w.+-]+\s+){0,2}?versions?\b(?!\s*v?\d)|\bversion (?:number|added|introduced)\b/i,
    holds: /\b\d+\.\d+(?:\.\d+)*\b/,
  },
  {
    // A date: "When was Debian 11 released?"; not a condition ("When should I use yaml.safe_load?").
    asks: /^\s*when\b(?!\s+(?:should|must|can|could|would|might|may|do|does|to)\b)|\bwhat date\b/i,
    holds:
      /\b(?:january|february|march|april|may|june|july|august|september|october|november|december|(?:mon|tues|wednes|thurs|fri|satur|sun)days?|daily|weekly|monthly|nightly|yearly)\b|\b\d{4}-\d{2}-\d{2}\b|\b(?:19|20)\d{2}\b/i,
  },
];

/**
 * Whether the question asks for a kind of answer (true when the passage holds it, false when it
 * does not), or undefined when its words ask for none. `statesDefault`: the passage is a value a
 * configuration file sets, its default.
 */
export function holdsAnswerType(
  question: string,
  passage: string,
  statesDefault = false,
): boolean | undefined {
  let asked = KINDS.filter((k) => k.asks.test(question));
  // "By default" asks for the default of what the other words ask for ("How often does smartd
  // check by default?": a default and an interval); else a default is what the question is about.
  const topics = BY_DEFAULT.test(question) ? asked.filter((k) => k.topic) : [];
  if (asked.some((k) => !k.topic)) asked = asked.filter((k) => !k.topic);
  if (asked.some((k) => k.only)) asked = asked.filter((k) => k.only);
  if (!asked.length) return undefined;
  // A figure the question gives is not the one it asks for (chrony's FAQ: "I keep getting the
  // error 506 Cannot talk to daemon" holds no port).
  const given = new Set(question.match(FIGURE) ?? []);
  const text = passage
    .replace(MAN_PAGE, '')
    .replace(PAGE_REFERENCE, '')
    .replace(FIGURE, (figure) => (given.has(figure) ? '' : figure));
  // A configuration file's setting states its default (`Port 8888`), whatever its words.
  const holds = (k: (typeof KINDS)[number]) => (statesDefault && !!k.topic) || k.holds.test(text);
  return topics.every(holds) && asked.some(holds);
}

/** Whether the question asks which option, flag or setting does something (see KINDS). */
export function asksForOption(question: string): boolean {
  return KINDS.some((k) => k.only && k.asks.test(question));
}

/** A figure, whole: `506`, `1.5`, not the 5 of `ipv6` or of `mp3`. */
const FIGURE = /(?<![\p{L}\p{N}.])\d+(?:\.\d+)*(?![\p{L}\p{N}])/gu;

/** A reference to a page (gnuplot's "See plot smooth (p. 112)"): no figure either. */
const PAGE_REFERENCE = /(?<![\p{L}\p{N}])pp?\.\s*\d+(?:\s*[–-]\s*\d+)?/gu;

/** A manual page named with its section (`nice(8)`, `ssh_config(5)`): the section is no figure. */
const MAN_PAGE = /\b[\w.-]+\(\d[a-z]*\)/g;

/**
 * A sentence that says what a setting's default is, with a figure ("The default is 15.", "it
 * defaults to 960 seconds"), or a manual's default row under it (`Default: 300`).
 */
export const DEFAULT_VALUE =
  /\bdefault\b[^.;]{0,40}?\b(?:is|are|of)\b[^.;]{0,20}?\d|\bdefaults? to\b[^.;]{0,20}?\d|^default(?: value)?:\s*\S*\d/i;
