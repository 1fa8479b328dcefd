export const EXIT_CODES: [number, string][] = [
  [0, 'success'],
  [
    1,
    'failure (the command ran but did not succeed, e.g. a file failed indexing, a signature is invalid, the port is in use)',
  ],
  [2, 'usage error or invalid input (bad flag, bad value, refused by the service as invalid)'],
  [3, 'not found (unknown thread, file or webhook id)'],
  [4, 'authentication or permission (not logged in, key refused)'],
  [
    5,
    'service unreachable, or not at the base URL (another server answers there), timed out, or 5xx after retries',
  ],
  [6, 'rate limited after retries'],
  [124, 'timed out waiting (kb files wait)'],
  [130, 'interrupted (Ctrl-C, or a prompt cancelled)'],
  [143, 'stopped by SIGTERM (kill, a service manager); kb serve and kb webhooks listen stop cleanly first'],
];

export const ENVIRONMENT: [string, string][] = [
  ['KB_API_KEY', "API key; overrides the profile's stored key (never pass keys as arguments)"],
  ['KB_BASE_URL', 'service URL; overridden by --base-url'],
  ['KB_PROFILE', 'profile to use; overridden by --profile'],
  ['KB_CONFIG_DIR', 'config directory (default $XDG_CONFIG_HOME/kb, i.e. ~/.config/kb)'],
  ['KB_FORMAT', 'default output format: table, json or jsonl'],
  ['KB_TIMEOUT', 'request timeout, e.g. 30s, 5m; overridden by --timeout'],
  ['KB_RETRIES', 'retries for failed requests (default 2); overridden by --retries'],
  ['KB_DEBUG', 'set to 1 to log requests to stderr, like --debug'],
  ['KB_WEBHOOK_SECRET', 'webhook signing secret for kb webhooks verify/sign/listen'],
  ['KB_LLM_API_KEY', 'key for the optional OpenAI-compatible generator of kb serve'],
  ['KB_EMBED_API_KEY', 'key for the optional OpenAI-compatible embeddings endpoint of kb serve'],
  ['KB_SERVE_API_KEYS', 'keys for kb serve: workspace:key pairs, comma-separated (kept out of ps)'],
  ['NO_COLOR', 'disable colour'],
  ['FORCE_COLOR', 'force colour (0 disables, 1-3 pick the level) even when piped'],
  ['CI', 'when set, no spinners and no prompts'],
  ['HTTP_PROXY, HTTPS_PROXY, NO_PROXY', 'proxy settings for requests'],
  ['NODE_EXTRA_CA_CERTS', 'a PEM file of certificates to trust as well (a service with a private CA)'],
  ['EDITOR, VISUAL', 'editor for /edit in kb chat'],
  [
    'XDG_CONFIG_HOME, XDG_STATE_HOME, XDG_CACHE_HOME',
    'where config, chat history and the compile cache live',
  ],
  ['NODE_DISABLE_COMPILE_CACHE', 'set to 1 to turn off the cache of compiled code kb keeps'],
];

export const FORMATS = `Output formats

stdout carries data only; messages, progress and spinners go to stderr, and only on a
terminal. On a terminal, commands print tables, coloured statuses and relative times; a table
fits the terminal's width by shortening the column that says least first (a passage, a media
type), and leaves out a column that is empty in every row. Piped, the same commands print
tab-separated rows without a header, without colour and with exact ISO timestamps, every field
in its place (empty ones too), so cut/awk/sort work on them.

Every command that prints records takes one of:

  --json     the data as one JSON document, indented by two spaces (a list is an array)
  --jsonl    one compact JSON object per line (a list's records, or the one record)
  --ids      one id per line, to pipe into another kb command

Two at once is a usage error (exit 2). KB_FORMAT or \`kb config set format\` picks a default
(table, json or jsonl); an unknown name is a usage error too. Streams that have no end
(kb webhooks listen, piped kb chat, kb serve's address) print one JSON object per line.

Whatever the size, output arrives whole: kb exits only once stdout has drained. Strings from
the service are made safe for a terminal: escape sequences, control characters, bidi
controls and zero-width characters are removed from text, and \\u-escaped in JSON, which
parses to the same value. \`kb api\` passes bodies through byte for byte when piped.

Errors: one line on stderr, "error: <message>", and a hint. With --json, stderr carries
JSON objects only, one a line: exactly one per error,
  {"error": {"code", "message", "hint", "exitCode", "requestId", "status"}}
and, for a note that changes what the data means, {"warning": {"code", "message", …}} (a list
cut short: more_records; kb search: not_answered, indexing).
"code" is the service's (not_found, …), a word for a request that got no answer
(connection_refused, host_not_found, connection_timed_out, certificate_expired, …; README
lists them), or the exit code's (usage, unavailable, …).
A batch that partly failed (kb files delete) prints what succeeded on stdout and one error
per failed item on stderr (with its "id"). An empty list of ids is a successful no-op.

Examples:
  $ kb threads list --json | jq -r '.[] | select(.status == "OPEN") | .id'
  $ kb files list --jsonl --limit 100 | jq -c '{id, indexingStatus}'
  $ kb files list --status FAILED --ids | kb files delete --yes -
  $ T=$(kb threads create --title "Release notes" --ids)
  $ kb threads send "$T" "Summarise v2" --json | jq -r .aiResponse.content
  $ kb threads get "$T" --json 2>&1 >/dev/null | jq -r .error.code`;

export function renderTable(rows: [string | number, string][]): string {
  const width = Math.max(...rows.map(([k]) => String(k).length));
  return rows.map(([k, v]) => `  ${String(k).padEnd(width)}  ${v}`).join('\n');
}

export const TOPICS: Record<string, () => string> = {
  environment: () => `Environment variables\n\n${renderTable(ENVIRONMENT)}`,
  'exit-codes': () => `Exit codes\n\n${renderTable(EXIT_CODES)}`,
  formats: () => FORMATS,
};
