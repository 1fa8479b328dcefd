import { titleFrom } from '../../util/title.js';
import type { SlashCommand } from './command.js';

export const switchThread: SlashCommand = {
  name: 'switch',
  aliases: ['open'],
  args: '<thread id>',
  description: 'continue another thread',
  async run(repl, args) {
    const id = args.trim();
    if (!id) {
      repl.warn('usage: /switch <thread id> (or /threads to pick one)');
      return undefined;
    }
    // A question typed after it: no thread's id has spaces.
    if (/\s/.test(id)) {
      repl.warn(
        `no thread id: "${titleFrom(id)}" is a message; /switch takes a thread id (/threads to pick one)`,
      );
      return undefined;
    }
    await repl.resume(id);
    return undefined;
  },
};
