import { Command, Option } from 'commander';
import type { SearchHit } from '../../api/types.js';
import { UsageError } from '../../errors.js';
import { Context } from '../../factory.js';
import type { Column } from '../../io/output.js';
import { wordsOrStdin } from '../../io/stdin.js';
import { citation } from '../../util/citation.js';
import { safeJson } from '../../util/sanitize.js';
import { withExtension } from '../shared/extension.js';
import { integer } from '../shared/options.js';

/** kb serve lists 1 to 50 chunks. */
const MAX_SEARCH_LIMIT = 50;
/** A question longer than this does not fit a request line (kb serve takes 2,000 characters). */
const MAX_QUERY_BYTES = 16 * 1024;

export const NOT_ANSWERED =
  'nothing retrieved answers this question: the assistant would say it found nothing ("not found")';

export interface SearchOptions {
  limit?: number;
  thread?: string;
}

export default function searchCommand(run = runSearch): Command {
  return new Command('search')
    .description('The passages retrieved for a question, ranked, and whether each answers (kb serve)')
    .argument('[query...]', 'the question; `-` or a pipe reads it from stdin')
    .addOption(
      new Option('-L, --limit <n>', `chunks to list (default 10, at most ${MAX_SEARCH_LIMIT})`).argParser(
        integer({ min: 1, max: MAX_SEARCH_LIMIT }),
      ),
    )
    .option(
      '--thread <id>',
      'read the question as a follow-up in this thread, as a message sent there would be',
    )
    .addHelpText(
      'after',
      `
What the assistant draws on for a message, to see why it answers as it does: each chunk with
its file (and page), score, ✓ when it holds a passage that answers, and its text (the answering
passage, else the passage nearest the question, else the chunk's first words). The chunks the answer is made of come first. When nothing answers,
a note on stderr says the assistant would answer "not found"; the exit code is still 0.
Piped: tab-separated rank, source, score, answers (true/false), text. --json: the whole answer
({query, answered, data: [{rank, fileId, filename, pages, score, answers, text, passages, best}]}),
--jsonl: one chunk per line.

An extension: kb serve offers it (GET /v1/search); against a service without it kb says so
and exits 2.

Examples:
  $ kb search How much is the Growth plan
  $ kb search "When is API v0 switched off?" --limit 3
  $ kb search --thread thr_123 "What replaces it?"
  $ kb search "refund policy" --json | jq -r '.data[] | select(.answers) | .filename'`,
    )
    .action((words: string[], opts: SearchOptions, cmd: Command) => run(Context.for(cmd), words, opts));
}

export async function runSearch(ctx: Context, words: string[], opts: SearchOptions): Promise<void> {
  const q = await wordsOrStdin(ctx.io, words, 'question', MAX_QUERY_BYTES);
  if (!q)
    throw new UsageError(
      'the question is empty',
      'give it as words (`kb search how do I rotate the logs`) or on stdin',
    );
  const client = await ctx.client();
  const result = await withExtension(
    () => client.search({ q, limit: opts.limit, threadId: opts.thread, signal: ctx.signal }),
    {
      missing: 'this service has no search endpoint (an extension of kb serve)',
      hint: 'ask the assistant instead (`kb chat`, `kb threads send`); kb serve offers kb search',
    },
  );
  if (ctx.format === 'json') ctx.output.json(result);
  else await ctx.output.list(result.data, searchColumns(ctx));
  // Said on stderr whatever the format: each changes what the list means.
  if (!result.answered) note(ctx, 'not_answered', NOT_ANSWERED, { shown: result.data.length });
  if (result.indexing) {
    const n = result.indexing;
    const message = `${n === 1 ? '1 file is' : `${n} files are`} still being indexed and ${n === 1 ? 'is' : 'are'} not searched yet (\`kb files wait\` waits for ${n === 1 ? 'it' : 'them'})`;
    note(ctx, 'indexing', message, { files: n });
  }
}

/** A note on stderr: a JSON warning with --json and --jsonl, else a line. */
function note(ctx: Context, code: string, message: string, fields: Record<string, number>): void {
  if (ctx.format === 'json' || ctx.format === 'jsonl')
    ctx.io.err(`${safeJson({ warning: { code, message, ...fields } })}\n`);
  else ctx.io.err(`${ctx.io.errColor.yellow('note:')} ${message}\n`);
}

/** Where a chunk is from, as an answer cites it: `manual.pdf p. 3`, `manual.pdf pp. 3–4`. */
export function source(hit: Pick<SearchHit, 'filename' | 'pages'>): string {
  const filename = typeof hit.filename === 'string' ? hit.filename : '';
  const [first, last] = Array.isArray(hit.pages) ? hit.pages : [];
  if (!Number.isSafeInteger(first) || !Number.isSafeInteger(last) || last! < first!) return filename;
  const pages = Array.from({ length: Math.min(last! - first!, 999) + 1 }, (_, i) => first! + i);
  return citation(filename, pages);
}

/**
 * One line of text: the answering passage when there is one, else the passage nearest the
 * question (what the service calls `best`), else the chunk's own.
 */
function snippet(hit: SearchHit): string {
  const best = hit.best && typeof hit.best === 'object' ? hit.best.text : undefined;
  const text = hit.passages[0]?.text ?? best ?? hit.text;
  return typeof text === 'string' ? text.replace(/\s+/g, ' ').trim() : '';
}

export function searchColumns(ctx: Context): Column<SearchHit>[] {
  const { color } = ctx.io;
  return [
    { header: '#', value: (h) => h.rank, style: (s) => color.dim(s) },
    { header: 'SOURCE', value: source, flex: true, cut: 'middle' },
    { header: 'SCORE', value: (h) => (typeof h.score === 'number' ? h.score.toFixed(2) : '') },
    {
      header: 'ANSWERS',
      value: (h) => h.answers === true,
      style: (s) => (s === 'true' ? color.green('✓') : ''),
    },
    { header: 'TEXT', value: snippet, flex: 'first' },
  ];
}
