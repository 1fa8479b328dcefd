import { type Command, Option } from 'commander';
import type { PagingEnd } from '../../api/paging.js';
import type { Page } from '../../api/types.js';
import type { Context } from '../../factory.js';
import type { Column } from '../../io/output.js';
import { safeJson, sanitizeField } from '../../util/sanitize.js';
import { parsePositiveInt } from './options.js';

/** Records a list shows without --limit or --all: one page of the service's default size. */
export const DEFAULT_LIST = 50;

/** What every list verb takes. */
export interface ListOptions {
  limit?: number;
  all?: boolean;
  quiet?: boolean;
}

/** `--limit N` (any N: kb asks for as many pages as that takes), `--all`, and `--quiet`. */
export function addListOptions(command: Command): Command {
  return command
    .addOption(
      new Option(
        '-L, --limit <n>',
        `most records to list (default ${DEFAULT_LIST}; any number, fetched a page at a time)`,
      )
        .argParser(parsePositiveInt)
        .conflicts('all'),
    )
    .option('--all', 'list every record, a page at a time')
    .option('--quiet', 'no note on stderr when more records exist than were listed');
}

/** How many records the options ask for. */
export function wanted(opts: ListOptions): number {
  return opts.all ? Infinity : (opts.limit ?? DEFAULT_LIST);
}

/**
 * Prints a list's pages as they arrive (see Output.listPages), then says on stderr, on a
 * terminal or not, when it was cut: that more records exist than were printed and how to get
 * them (`--quiet` leaves that out), or why paging stopped early (always).
 */
export async function printPages<T>(
  ctx: Context,
  pages: AsyncGenerator<Page<T>, PagingEnd>,
  columns: Column<T>[],
  options: { empty?: string; noun: string; opts: ListOptions },
): Promise<void> {
  let shown = 0;
  let end: PagingEnd = { kind: 'complete' };
  async function* rows(): AsyncGenerator<T[]> {
    for (;;) {
      const next = await pages.next();
      if (next.done) {
        end = next.value;
        return;
      }
      shown += next.value.data.length;
      yield next.value.data;
    }
  }
  await ctx.output.listPages(rows(), columns, { empty: options.empty });
  const notice = pagingNotice(end, shown, options.noun);
  if (!notice || (notice.note && options.opts.quiet)) return;
  if (ctx.format === 'json' || ctx.format === 'jsonl')
    ctx.io.err(`${safeJson({ warning: { code: notice.code, message: notice.message, shown } })}\n`);
  else
    ctx.io.err(
      `${ctx.io.errColor.yellow(notice.note ? 'note:' : 'warning:')} ${sanitizeField(notice.message)}\n`,
    );
}

/** What a person should know of how a list ended, if anything. */
export function pagingNotice(
  end: PagingEnd,
  shown: number,
  noun: string,
): { code: string; message: string; note: boolean } | undefined {
  const first = `showing the first ${shown} ${shown === 1 ? noun.replace(/s$/, '') : noun}`;
  switch (end.kind) {
    case 'complete':
      return undefined;
    case 'more':
      return { code: 'more_records', note: true, message: `${first}; more exist (--all lists every one)` };
    case 'unknown':
      return end.full
        ? {
            code: 'more_records',
            note: true,
            message: `${first}; more may exist, but the service gives no way to ask for the next page`,
          }
        : undefined;
    case 'repeated':
      return {
        code: 'paging_repeated',
        note: false,
        message: `${first}: the service gave the same next page twice, so paging stopped`,
      };
    case 'foreign':
      return {
        code: 'paging_foreign',
        note: false,
        message: `${first}: the next page is at another address (${end.url}), not followed (the API key would go there)`,
      };
  }
}
