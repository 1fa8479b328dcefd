import { InvalidArgumentError, Option } from 'commander';
import type { ListOptions } from './list-pages.js';

/**
 * An option parser for a whole number from `min` to `max`: the one family every integer option
 * uses, so that each refuses alike (`-1`, `1.5`, `1e3`, `0x10`, past the largest safe number)
 * and says what it expected in its own unit.
 */
export function integer({
  min = 0,
  max = Number.MAX_SAFE_INTEGER,
  unit = 'whole number',
}: { min?: number; max?: number; unit?: string } = {}) {
  return (value: string): number => {
    const text = value.trim();
    const n = Number(text);
    if (!/^\d+$/.test(text) || !Number.isSafeInteger(n) || n < min || n > max)
      throw new InvalidArgumentError(
        max === Number.MAX_SAFE_INTEGER
          ? `expected a ${unit} of ${min} or more`
          : `expected a ${unit} from ${min} to ${max}`,
      );
    return n;
  };
}

export const parsePositiveInt = integer({ min: 1 });

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
