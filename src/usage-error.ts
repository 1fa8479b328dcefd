import type { Command, CommanderError } from 'commander';
import { UsageError } from './errors.js';
import { closestName, typoEdits } from './util/closest-name.js';

/**
 * commander's refusal of the command line in `command`, as kb reports every usage error: its
 * message, and a hint at the command or option meant (by its name, not an alias) or at --help.
 */
export function usageErrorFor(
  err: CommanderError,
  command: Command,
  argv: readonly string[] = [],
): UsageError {
  const message = err.message.replace(/^error: /, '');
  const meant = suggestion(err.code, message, command);
  return new UsageError(
    message,
    meant
      ? `did you mean ${meant}?`
      : (wordsHint(err.code, message, command, argv) ?? `run \`${pathOf(command)} --help\` for usage`),
  );
}

/**
 * A word of a command's free text (a message, a query) that starts with '-' is read as an option;
 * after `--` it is a word: the command line again with `--` before it.
 */
function wordsHint(
  code: string,
  message: string,
  command: Command,
  argv: readonly string[],
): string | undefined {
  if (code !== 'commander.unknownOption' || !command.registeredArguments.some((a) => a.variadic))
    return undefined;
  const word = /'([^']+)'/.exec(message)?.[1];
  const at = word === undefined ? -1 : argv.indexOf(word);
  if (at < 0) return undefined;
  const line = [...argv.slice(0, at), '--', ...argv.slice(at)].map(shellWord).join(' ');
  return `words that start with '-' go after \`--\`: \`kb ${line}\``;
}

/** `word` as a POSIX shell reads it back: quoted when it holds anything but plain characters. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}

function suggestion(code: string, message: string, command: Command): string | undefined {
  if (code === 'commander.unknownCommand') {
    const typed = command.args[0] ?? '';
    const commands = command
      .createHelp()
      .visibleCommands(command)
      .map((c) => ({ name: c.name(), aliases: c.aliases() }));
    const name = closestName(typed, commands, typoEdits(typed));
    return name && `\`${pathOf(command)} ${name}\``;
  }
  const flag = code === 'commander.unknownOption' ? /'--([^']+)'/.exec(message)?.[1] : undefined;
  if (!flag) return undefined;
  const longs: string[] = [];
  for (let c: Command | null = command; c; c = c.parent)
    for (const option of c.createHelp().visibleOptions(c)) if (option.long) longs.push(option.long.slice(2));
  const name = closestName(
    flag,
    longs.map((long) => ({ name: long })),
    typoEdits(flag),
  );
  return name && `\`--${name}\``;
}

function pathOf(command: Command): string {
  const names: string[] = [];
  for (let c: Command | null = command; c; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}
