import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The path of a built worker script under dist/ (`built('eval', 'pattern-worker.js')`), found
 * from the package root: the same from the bundle, from dist/ and from the sources under test.
 */
export function builtScript(...segments: string[]): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(dir, 'package.json'))) return join(dir, 'dist', ...segments);
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`${segments.join('/')} is not built; run npm run build`);
    dir = parent;
  }
}
