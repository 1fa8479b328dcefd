import { InvalidArgumentError, Option } from 'commander';
import type { ListOptions } from './list-pages.js';

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
export interface StatusListOptions extends ListOptions {
  status?: string;
}

/** `-s, --status` limited to `statuses` (any case), e.g. "only files in this indexing status". */
export function statusOption(statuses: readonly string[], what: string): Option {
  return new Option('-s, --status <status>', `only ${what} (${statuses.join('|')})`).argParser(
    oneOf(statuses),
  );
}
