export const EXIT_CODES: [number, string][] = [
  [0, 'success'],
  [1, 'failure (the command ran but did not succeed, e.g. a file failed indexing, a signature is invalid)'],
  [2, 'usage error or invalid input (bad flag, bad value, refused by the service as invalid)'],
  [3, 'not found (unknown thread, file or webhook id)'],
  [4, 'authentication or permission (not logged in, key refused)'],
  [5, 'service unreachable, timed out, or 5xx after retries'],
  [6, 'rate limited after retries'],
  [124, 'timed out waiting (kb files wait)'],
  [130, 'interrupted (Ctrl-C)'],
];

export const ENVIRONMENT: [string, string][] = [
  ['KB_API_KEY', "API key; overrides the profile's stored key (never pass keys as arguments)"],
  ['KB_BASE_URL', 'service URL; overridden by --base-url'],
  ['KB_PROFILE', 'profile to use; overridden by --profile'],
  ['KB_CONFIG_DIR', 'config directory (default $XDG_CONFIG_HOME/kb, i.e. ~/.config/kb)'],
  ['KB_FORMAT', 'default output format: json or jsonl'],
  ['KB_TIMEOUT', 'request timeout, e.g. 30s, 5m; overridden by --timeout'],
  ['KB_RETRIES', 'retries for failed requests (default 2); overridden by --retries'],
  ['KB_DEBUG', 'set to 1 to log requests to stderr, like --debug'],
  ['KB_WEBHOOK_SECRET', 'webhook signing secret for kb webhooks verify/sign/listen'],
  ['KB_LLM_API_KEY', 'key for the optional OpenAI-compatible generator of kb serve'],
  ['NO_COLOR', 'disable colour'],
  ['FORCE_COLOR', 'force colour (0 disables, 1-3 pick the level) even when piped'],
  ['CI', 'when set, no spinners and no prompts'],
  ['HTTP_PROXY, HTTPS_PROXY, NO_PROXY', 'proxy settings for requests'],
  ['EDITOR, VISUAL', 'editor for /edit in kb chat'],
  [
    'XDG_CONFIG_HOME, XDG_STATE_HOME, XDG_CACHE_HOME',
    'where config, chat history and the compile cache live',
  ],
  ['NODE_DISABLE_COMPILE_CACHE', 'set to 1 to turn off the cache of compiled code kb keeps'],
];

export const FORMATS = `Output formats

On a terminal, commands print tables, coloured statuses and relative times; messages and
spinners go to stderr. Piped, the same commands print tab-separated rows without a header,
without colour and with exact ISO timestamps, so cut/awk/sort work on them.

  --json     the data as JSON on stdout (a list is an array); errors also as JSON on stderr
  --jsonl    list commands: one compact JSON object per line
  --ids      one id per line, to pipe into another kb command

Make JSON the default with KB_FORMAT=json or \`kb config set format json\`.

Examples:
  $ kb threads list --json | jq -r '.[] | select(.status == "OPEN") | .id'
  $ kb files list --jsonl --limit 100 | jq -c '{id, indexingStatus}'
  $ kb files list --status FAILED --ids | kb files delete --yes -
  $ T=$(kb threads create --title "Release notes" --ids)
  $ kb threads send "$T" "Summarise v2" --json | jq -r .aiResponse.content`;

export function renderTable(rows: [string | number, string][]): string {
  const width = Math.max(...rows.map(([k]) => String(k).length));
  return rows.map(([k, v]) => `  ${String(k).padEnd(width)}  ${v}`).join('\n');
}

export const TOPICS: Record<string, () => string> = {
  environment: () => `Environment variables\n\n${renderTable(ENVIRONMENT)}`,
  'exit-codes': () => `Exit codes\n\n${renderTable(EXIT_CODES)}`,
  formats: () => FORMATS,
};
