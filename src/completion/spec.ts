import type { Command, Option } from 'commander';
import { FILE_STATUSES, THREAD_STATUSES, WEBHOOK_EVENTS } from '../api/types.js';
import { TOPICS } from '../commands/help/topics.js';

/** Candidates: fixed words, or `@kind` fetched live through `kb __complete kind`, or `@file` for paths. */
export type Candidates = string[] | `@${string}`;

export interface CompletionNode {
  /** Space-separated command path below `kb` ("" for the root). */
  path: string;
  children: string[];
  flags: string[];
  /** Flags that take a value, with what to offer for it. */
  values: Record<string, Candidates>;
  args?: Candidates;
}

const SETTINGS = ['format', 'color', 'timeout', 'retries'];

/** What each positional argument takes, by command path. */
const ARGS: Record<string, Candidates> = {
  chat: '@threads',
  'threads get': '@threads',
  'threads send': '@threads',
  'files get': '@files',
  'files delete': '@files',
  'files wait': '@files',
  'webhooks get': '@webhooks',
  'webhooks delete': '@webhooks',
  'webhooks trigger': [...WEBHOOK_EVENTS],
  'auth switch': '@profiles',
  'config get': SETTINGS,
  'config set': SETTINGS,
  'config unset': SETTINGS,
  completion: ['bash', 'zsh', 'fish'],
  help: Object.keys(TOPICS),
};

function valuesFor(path: string, option: Option): Candidates | undefined {
  const flag = option.long ?? '';
  if (flag === '--status') return path.startsWith('files') ? [...FILE_STATUSES] : [...THREAD_STATUSES];
  if (flag === '--event' || flag === '--events') return [...WEBHOOK_EVENTS];
  if (flag === '--profile') return '@profiles';
  if (flag === '--webhook') return '@webhooks';
  if (flag === '--scheme') return ['body', 'timestamped'];
  if (/file|--docs|--data/.test(flag)) return '@file';
  return option.required || option.optional ? [] : undefined;
}

function flagsOf(command: Command): Option[] {
  return command.options.filter((o) => !o.hidden);
}

/** Flattens the command tree into one node per command, global flags included everywhere. */
export function completionSpec(program: Command): CompletionNode[] {
  const globals = flagsOf(program);
  const nodes: CompletionNode[] = [];
  const walk = (command: Command, path: string) => {
    const visible = command.commands.filter((c) => !(c as unknown as { _hidden?: boolean })._hidden);
    const children = visible.flatMap((c) => [c.name(), ...c.aliases()]);
    const options = path ? [...flagsOf(command), ...globals] : globals;
    const values: Record<string, Candidates> = {};
    const flags: string[] = [];
    for (const option of options) {
      for (const name of [option.long, option.short]) {
        if (!name || flags.includes(name)) continue;
        flags.push(name);
        const v = valuesFor(path, option);
        if (v !== undefined) values[name] = v;
      }
    }
    flags.push('--help');
    const args = ARGS[path] ?? (path === 'help' ? undefined : undefined);
    nodes.push({ path, children, flags, values, ...(args ? { args } : {}) });
    for (const child of visible) {
      for (const name of [child.name(), ...child.aliases()]) walk(child, path ? `${path} ${name}` : name);
    }
  };
  walk(program, '');
  return nodes;
}
