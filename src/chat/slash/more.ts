import { spawn } from 'node:child_process';
import { onPath } from '../../util/on-path.js';
import type { SlashCommand } from './command.js';

export const more: SlashCommand = {
  name: 'more',
  description: 'show the last reply in $PAGER, or less (for replies taller than the terminal)',
  async run(repl) {
    const reply = repl.lastReply();
    if (!reply) {
      repl.warn('no reply yet');
      return undefined;
    }
    // As git does: PAGER, else less (colours kept), else more.
    const pager =
      repl.env.PAGER ||
      (onPath('less', repl.env) ? 'less -R' : onPath('more', repl.env) ? 'more' : undefined);
    if (!pager) {
      repl.warn('no pager found: set PAGER to page long replies, e.g. export PAGER="less -R"');
      return undefined;
    }
    const text = repl.renderReply(reply);
    await repl.suspendWhile(
      () =>
        new Promise<void>((resolve) => {
          // PAGER is a command line the user chose, as git and man run it.
          const child = spawn(pager, { shell: true, env: repl.env, stdio: ['pipe', 'inherit', 'inherit'] });
          child.on('error', () => resolve());
          child.on('close', () => resolve());
          child.stdin.on('error', () => {});
          child.stdin.end(text);
        }),
    );
    return undefined;
  },
};
