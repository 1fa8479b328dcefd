import { Argument, Command } from 'commander';
import { Context } from '../../factory.js';

export default function completionCommand(): Command {
  return new Command('completion')
    .description('Print the shell completion script for bash, zsh or fish')
    .addArgument(new Argument('<shell>', 'shell').choices(['bash', 'zsh', 'fish']))
    .addHelpText(
      'after',
      `
Completes commands, flags, flag values (statuses, event kinds, profiles) and, live, thread,
file and webhook ids.

Install:
  bash  $ kb completion bash > ~/.local/share/bash-completion/completions/kb
  zsh   $ kb completion zsh > "\${fpath[1]}/_kb"        # then: autoload -U compinit && compinit
  fish  $ kb completion fish > ~/.config/fish/completions/kb.fish

Examples:
  $ source <(kb completion bash)`,
    )
    .action(async (shell: 'bash' | 'zsh' | 'fish', _opts: unknown, cmd: Command) => {
      const ctx = Context.for(cmd);
      const { completionScript } = await import('../../completion/generate.js');
      ctx.output.text(await completionScript(shell));
    });
}
