import type { Command, Option } from 'commander';
import { FILE_STATUSES, THREAD_STATUSES, WEBHOOK_EVENTS } from '../api/types.js';
import { SETTINGS as SETTING_KEYS } from '../commands/config/keys.js';
import { TOPICS } from '../commands/help/topics.js';

/** Candidates: fixed words, or `@kind` fetched live through `kb __complete kind`, or `@file` for paths. */
export type Candidates = string[] | `@${string}`;

export interface CompletionNode {
  /** Space-separated command path below `kb` ("" for the root). */
  path: string;
  children: string[];
  /** Each child (and alias) with its description: `name<TAB>description`, for zsh and fish. */
  described: string[];
  flags: string[];
  /** Flags that take a value, with what to offer for it. */
  values: Record<string, Candidates>;
  args?: Candidates;
}

const SETTINGS = Object.keys(SETTING_KEYS);

/** `kb config set KEY <Tab>`: the values of a setting that has a fixed set, keyed like a flag's. */
const SETTING_VALUES: Record<string, Candidates> = Object.fromEntries(
  Object.entries(SETTING_KEYS)
    .filter(([, key]) => key.values)
    .map(([name, key]) => [name, key.values!]),
);

/** What each positional argument takes, by command path (names, not aliases). */
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
  eval: '@file',
  help: Object.keys(TOPICS),
};

function valuesFor(path: string, option: Option): Candidates | undefined {
  const flag = option.long ?? '';
  if (flag === '--status') return path.startsWith('files') ? [...FILE_STATUSES] : [...THREAD_STATUSES];
  if (flag === '--event' || flag === '--events') return [...WEBHOOK_EVENTS];
  if (flag === '--profile') return '@profiles';
  if (flag === '--webhook') return '@webhooks';
  if (flag === '--thread') return '@threads';
  if (flag === '--scheme') return ['body', 'timestamped'];
  if (/file|--docs|--data/.test(flag)) return '@file';
  return option.required || option.optional ? [] : undefined;
}

function flagsOf(command: Command): Option[] {
  return command.options.filter((o) => !o.hidden);
}

/**
 * Flattens the command tree into one node per command path, by every name and alias it can be
 * reached by (`kb thread view` as `kb threads get`); global flags everywhere but --version,
 * which is kb's own.
 */
export function completionSpec(program: Command): CompletionNode[] {
  const globals = flagsOf(program);
  const nodes: CompletionNode[] = [];
  const walk = (command: Command, path: string, canonical: string) => {
    const visible = command.commands.filter((c) => !(c as unknown as { _hidden?: boolean })._hidden);
    const children = visible.flatMap((c) => [c.name(), ...c.aliases()]);
    const described = visible.flatMap((c) =>
      [c.name(), ...c.aliases()].map((name) => `${name}\t${c.description().split('\n')[0]}`),
    );
    const options = path ? [...flagsOf(command), ...globals.filter((o) => o.long !== '--version')] : globals;
    const values: Record<string, Candidates> = canonical === 'config set' ? { ...SETTING_VALUES } : {};
    const flags: string[] = [];
    for (const option of options) {
      for (const name of [option.long, option.short]) {
        if (!name || flags.includes(name)) continue;
        flags.push(name);
        const v = valuesFor(canonical, option);
        if (v !== undefined) values[name] = v;
      }
    }
    flags.push('--help');
    const args = ARGS[canonical];
    nodes.push({ path, children, described, flags, values, ...(args ? { args } : {}) });
    for (const child of visible) {
      const childCanonical = canonical ? `${canonical} ${child.name()}` : child.name();
      for (const name of [child.name(), ...child.aliases()])
        walk(child, path ? `${path} ${name}` : name, childCanonical);
    }
  };
  walk(program, '', '');
  return nodes;
}
