import type { SlashCommand } from './command.js';

export const copy: SlashCommand = {
  name: 'copy',
  description: 'copy the last reply to the clipboard (OSC 52; most terminals)',
  run(repl) {
    const reply = [...repl.session.messages].reverse().find((m) => m.role === 'assistant');
    if (!reply) {
      repl.warn('no reply to copy yet');
      return undefined;
    }
    repl.writeRaw(`\u001b]52;c;${Buffer.from(reply.content, 'utf8').toString('base64')}\u0007`);
    repl.print(repl.color.dim('Copied the last reply.\n'));
    return undefined;
  },
};
