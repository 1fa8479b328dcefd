import type { Context } from './factory.js';

/**
 * The context of the command that is running, if it made one. Kept apart from the factory so
 * that main() can reach it without loading config, IO and colour code for `kb --help`.
 */
export const running: { context?: Context } = {};
