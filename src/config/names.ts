import { UsageError } from '../errors.js';

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/**
 * A profile name kb accepts: letters, digits, `.`, `_` and `-`, and never a name an object
 * already answers to (`constructor`, `__proto__`, `toString`, ...).
 */
export function checkProfileName(name: string): string {
  if (!NAME.test(name) || name in Object.prototype)
    throw new UsageError(
      `invalid profile name "${name.slice(0, 64)}"`,
      'use letters, digits, ".", "_" and "-" (at most 64), e.g. staging',
    );
  return name;
}

/** A copy of a plain object without a prototype: looking up any name finds only what it holds. */
export function bare<T extends object>(value: unknown): T {
  const out = Object.create(null) as Record<string, unknown>;
  if (value && typeof value === 'object' && !Array.isArray(value)) Object.assign(out, value);
  return out as T;
}
