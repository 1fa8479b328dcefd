import { UsageError } from '../../errors.js';
import { titleFrom } from '../../util/title.js';

/**
 * A question given where a thread's id goes (`kb chat "What does grep do?"`): no thread's id
 * has spaces, so it is said to be a message, with `hint` on how to give one; else undefined.
 */
export function messageGivenAsId(id: string, hint: string): UsageError | undefined {
  return /\s/.test(id.trim())
    ? new UsageError(`no thread id: "${titleFrom(id)}" is a message`, hint)
    : undefined;
}
