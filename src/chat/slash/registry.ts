import { closestName } from '../../util/closest-name.js';
import type { SlashCommand } from './command.js';
import { copy } from './copy.js';
import { edit } from './edit.js';
import { exit } from './exit.js';
import { help } from './help.js';
import { history } from './history.js';
import { exportThread } from './export.js';
import { more } from './more.js';
import { sources } from './sources.js';
import { archive, close, title } from './thread-changes.js';
import { info } from './info.js';
import { newChat } from './new.js';
import { retry } from './retry.js';
import { switchThread } from './switch.js';
import { threads } from './threads.js';

/** Resolves slash command names and aliases, builds /help and completes names on Tab. */
export class SlashRegistry {
  readonly #commands: SlashCommand[];

  constructor(
    commands: SlashCommand[] = [
      help,
      newChat,
      threads,
      switchThread,
      history,
      info,
      sources,
      retry,
      edit,
      copy,
      more,
      exportThread,
      title,
      close,
      archive,
      exit,
    ],
  ) {
    this.#commands = commands;
  }

  all(): SlashCommand[] {
    return this.#commands;
  }

  find(name: string): SlashCommand | undefined {
    const wanted = name.toLowerCase();
    return this.#commands.find((c) => c.name === wanted || c.aliases?.includes(wanted));
  }

  /** Names starting with what was typed, for readline's completer. */
  complete(line: string): [string[], string] {
    if (!line.startsWith('/') || line.includes(' ')) return [[], line];
    const names = this.#commands.map((c) => `/${c.name}`);
    const hits = names.filter((n) => n.startsWith(line.toLowerCase()));
    // One command that needs its argument: a space after it, for the argument's own Tab (`/switch thr_…`).
    if (hits.length === 1 && this.find(hits[0]!.slice(1))?.args?.startsWith('<'))
      return [[`${hits[0]} `], line];
    return [hits.length ? hits : names, line];
  }

  /** The closest name to an unknown one, for a hint. */
  suggest(name: string): string | undefined {
    return closestName(name.toLowerCase(), this.#commands, 2);
  }
}
