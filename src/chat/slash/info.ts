import { colorStatus } from '../../io/format.js';
import type { SlashCommand } from './command.js';

export const info: SlashCommand = {
  name: 'info',
  description: 'thread id, title, status and message count',
  async run(repl) {
    const { session } = repl;
    if (!session.id) {
      repl.print(
        repl.color.dim(
          `Not saved yet: the thread is created with your first message${session.pendingTitle ? ` (title "${session.pendingTitle}")` : ''}.\n`,
        ),
      );
      return undefined;
    }
    const thread = await session.load(session.id, repl.signal());
    const rows: [string, string][] = [
      ['Thread', thread.id],
      ['Title', thread.title],
      ['Status', colorStatus(repl.color, String(thread.status))],
      ['Messages', String(thread.messages.length)],
      ['Created', thread.createdAt],
    ];
    repl.print(`${rows.map(([k, v]) => `  ${repl.color.dim(k.padEnd(9))} ${v}`).join('\n')}\n`);
    return undefined;
  },
};
