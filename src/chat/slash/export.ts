import { writeFileSync } from 'node:fs';
import { threadAsMarkdown } from '../../io/thread-markdown.js';
import { sanitizeField } from '../../util/sanitize.js';
import type { SlashCommand } from './command.js';

export const exportThread: SlashCommand = {
  name: 'export',
  args: '[file]',
  description: 'save this thread as Markdown (JSON for a .json file); default <thread id>.md',
  async run(repl, args) {
    if (!repl.session.id) {
      repl.warn('nothing to export yet: the thread is created with your first message');
      return undefined;
    }
    const thread = await repl.session.load(repl.session.id, repl.signal());
    const file = args.trim() || `${thread.id}.md`;
    const text = file.toLowerCase().endsWith('.json')
      ? `${JSON.stringify(thread, null, 2)}\n`
      : threadAsMarkdown(thread);
    try {
      // Never over an existing file: an export is not worth someone's notes.
      writeFileSync(file, text, { flag: 'wx', mode: 0o600 });
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      repl.warn(
        code === 'EEXIST'
          ? `${sanitizeField(file)} exists; give another name: /export FILE`
          : `cannot write ${sanitizeField(file)}: ${code ?? (err as Error).message}`,
      );
      return undefined;
    }
    const count = thread.messages.length;
    repl.print(
      repl.color.dim(`Exported ${count} message${count === 1 ? '' : 's'} to ${sanitizeField(file)}\n`),
    );
    return undefined;
  },
};
