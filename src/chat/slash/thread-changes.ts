import { extension } from '../../api/extension.js';
import { colorStatus } from '../../io/format.js';
import type { ChatContext, SlashCommand } from './command.js';

/** Applies a title or status change to the current thread, where the service offers changes. */
async function change(repl: ChatContext, changes: { title?: string; status?: string }): Promise<void> {
  const id = repl.session.id;
  if (!id) {
    repl.warn('no thread yet: it is created with your first message');
    return;
  }
  const update = repl.client.threads.update;
  if (!update) {
    repl.warn('this service does not offer changing threads');
    return;
  }
  const thread = await extension('changing threads (an extension of the interface)', () =>
    update(id, changes, repl.signal()),
  );
  repl.session.thread = thread;
  repl.print(
    repl.color.dim(
      changes.title !== undefined
        ? `Renamed: ${thread.title}\n`
        : `This thread is now ${colorStatus(repl.color, String(thread.status))}${thread.status === 'OPEN' ? '' : '; /new starts another'}.\n`,
    ),
  );
}

export const title: SlashCommand = {
  name: 'title',
  args: '<text>',
  description: 'rename this thread',
  async run(repl, args) {
    if (!args.trim()) repl.warn('usage: /title <text>');
    else await change(repl, { title: args.trim() });
    return undefined;
  },
};

export const close: SlashCommand = {
  name: 'close',
  description: 'close this thread (it keeps its messages, takes no new ones)',
  async run(repl) {
    await change(repl, { status: 'CLOSED' });
    return undefined;
  },
};

export const archive: SlashCommand = {
  name: 'archive',
  description: 'archive this thread',
  async run(repl) {
    await change(repl, { status: 'ARCHIVED' });
    return undefined;
  },
};
