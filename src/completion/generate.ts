import { buildProgram } from '../program.js';
import { FILES, RENDERERS } from './render.js';
import { completionSpec } from './spec.js';

export type Shell = keyof typeof RENDERERS;

/** The completion script for a shell, generated from the full command tree. */
export async function completionScript(shell: Shell): Promise<string> {
  const program = await buildProgram([], { loadAll: true });
  return RENDERERS[shell](completionSpec(program));
}

export { FILES };
