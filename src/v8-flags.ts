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
  v8().setFlagsFromString(flag);
  applied.push(name);
}

/**
 * Sets a V8 flag as setV8Flag does, and again each time a worker thread of this process has
 * started: for a flag V8 puts back when it sets up a new heap. V8 raises
 * `--semi-space-growth-factor` to at least 2 whenever it configures an isolate's heap, a worker's
 * included, and the flag is the whole process's.
 */
export function setV8FlagEveryHeap(flag: string): void {
  setV8Flag(flag);
  process.on('worker', (worker) => worker.once('online', () => v8().setFlagsFromString(flag)));
}

// node:v8 is loaded only here, so that commands which set no flag (kb --help) do not pay for it.
const v8 = () => createRequire(import.meta.url)('node:v8') as typeof import('node:v8');
