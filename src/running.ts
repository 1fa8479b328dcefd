import type { Context } from './factory.js';
import type { Signals } from './io/signals.js';

/**
 * The context of the command that is running, if it made one, and the process's signal owner.
 * Kept apart from the factory so that main() can reach them without loading config, IO and
 * colour code for `kb --help`.
 */
export const running: { context?: Context; signals?: Signals } = {};
