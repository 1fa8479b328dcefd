import { type Command, InvalidArgumentError, Option } from 'commander';
import type { Page } from '../../api/types.js';
import type { Context } from '../../factory.js';

export function parsePositiveInt(value: string): number {
  if (!/^\d+$/.test(value.trim()) || Number(value) < 1)
    throw new InvalidArgumentError('expected a whole number of 1 or more');
  return Number(value);
}

/** An option parser accepting one of `values`, case-insensitively; stored upper-case. */
export function oneOf(values: readonly string[]) {
  return (value: string) => {
    const upper = value.toUpperCase();
    if (!values.includes(upper)) throw new InvalidArgumentError(`expected one of ${values.join(', ')}`);
    return upper;
  };
}

/** Option parser for repeatable options: each use adds a value. */
export const collect = (value: string, previous: string[] = []) => [...previous, value];

/** What list commands with a status filter receive. */
export interface StatusListOptions {
  status?: string;
  limit?: number;
}

/** `-s, --status` limited to `statuses` (any case), e.g. "only files in this indexing status". */
export function statusOption(statuses: readonly string[], what: string): Option {
  return new Option('-s, --status <status>', `only ${what} (${statuses.join('|')})`).argParser(
    oneOf(statuses),
  );
}

/** `--limit` for list commands. */
export function addListOptions(command: Command): Command {
  return command.addOption(
    new Option('-L, --limit <n>', 'most records to return (service default 50, maximum 100)').argParser(
      parsePositiveInt,
    ),
  );
}

/** Tells a person when the service clamped the limit or the page is full. */
export function notePage(
  ctx: Context,
  page: Page<unknown>,
  requested: number | undefined,
  noun: string,
): void {
  const applied = page.meta.limit;
  if (requested !== undefined && applied !== undefined && applied < requested) {
    ctx.note(
      ctx.io.errColor.yellow(
        `note: the service returns at most ${applied} ${noun} per request (asked for ${requested})`,
      ),
    );
  }
  if (applied !== undefined && page.data.length >= applied) {
    ctx.note(ctx.io.errColor.yellow(`note: showing the first ${page.data.length} ${noun}; more may exist`));
  }
}
