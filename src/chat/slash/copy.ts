import { clipboardAdvice, copyWithTool, lastCodeBlock } from '../clipboard.js';
import type { SlashCommand } from './command.js';

export const copy: SlashCommand = {
  name: 'copy',
  args: '[code]',
  description: 'copy the last reply (or its last code block) to the clipboard',
  async run(repl, args) {
    const reply = repl.lastReply();
    if (!reply) {
      repl.warn('no reply to copy yet');
      return undefined;
    }
    const wantCode = args.trim() === 'code';
    const text = wantCode ? lastCodeBlock(reply.content ?? '') : (reply.content ?? '');
    if (text === undefined) {
      repl.warn('the last reply has no code block');
      return undefined;
    }
    const what = wantCode ? 'the last code block' : 'the last reply';
    const tool = await copyWithTool(text, repl.env);
    if (tool) {
      repl.print(repl.color.dim(`Copied ${what} to the clipboard (${tool}).\n`));
      return undefined;
    }
    // No clipboard program: ask the terminal (OSC 52), which may or may not allow it.
    repl.writeRaw(`\u001b]52;c;${Buffer.from(text, 'utf8').toString('base64')}\u0007`);
    repl.print(
      repl.color.dim(
        `Sent ${what} to the terminal's clipboard (OSC 52); if nothing was copied, ${clipboardAdvice(repl.env)}.\n`,
      ),
    );
    return undefined;
  },
};
