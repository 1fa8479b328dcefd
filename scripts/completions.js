#!/usr/bin/env node
// npm run completions: writes completions/kb.bash, completions/_kb and completions/kb.fish
// from the command tree. A test fails when the committed files drift from the tree.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const { completionScript, FILES } = await import(join(root, 'dist/completion/generate.js'));
mkdirSync(join(root, 'completions'), { recursive: true });
for (const [shell, file] of Object.entries(FILES)) {
  writeFileSync(join(root, 'completions', file), await completionScript(shell));
  console.log(`wrote completions/${file}`);
}
