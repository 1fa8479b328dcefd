import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The path of a built worker script under dist/ (`built('eval', 'pattern-worker.js')`), found
 * from the package root: the same from the bundle, from dist/ and from the sources under test.
 */
export function builtScript(...segments: string[]): string {
  return packageFile('dist', ...segments);
}

/** A file shipped in this package (`packageFile('assets', 'demo', 'x.png')`), found from its root. */
export function packageFile(...segments: string[]): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(dir, 'package.json'))) return join(dir, ...segments);
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`${segments.join('/')} is not built; run npm run build`);
    dir = parent;
  }
}
