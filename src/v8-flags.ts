import { createRequire } from 'node:module';

const applied: string[] = [];
const beforeChange = new Set<() => void>();

/** The V8 flags kb has set in this process, e.g. `liftoff-only`; empty when none. */
export function v8FlagsSet(): readonly string[] {
  return applied;
}

/** Runs `listener` just before kb changes a V8 flag: code caches depend on the flags. */
export function beforeV8FlagsChange(listener: () => void): void {
  beforeChange.add(listener);
}

/** Sets a V8 flag (`--name`) once per process. */
export function setV8Flag(flag: string): void {
  const name = flag.replace(/^--/, '');
  if (applied.includes(name)) return;
  for (const listener of beforeChange) listener();
  // node:v8 is loaded only here, so that commands which set no flag (kb --help) do not pay for it.
  (createRequire(import.meta.url)('node:v8') as typeof import('node:v8')).setFlagsFromString(flag);
  applied.push(name);
}
