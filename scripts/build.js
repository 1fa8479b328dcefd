#!/usr/bin/env node
// Bundles the CLI (rolldown.config.js) quietly: warnings and errors only, the chunk sizes with
// --verbose (`npm run build -- --verbose`).
import { build } from 'rolldown';
import config from '../rolldown.config.js';

const verbose = process.argv.includes('--verbose');
const output = await build({
  ...config,
  logLevel: verbose ? 'info' : 'warn',
  onLog(level, log, handle) {
    if (level === 'warn' || verbose) handle(level, log);
  },
});
if (verbose) {
  const rows = output.output
    .filter((o) => o.type === 'chunk')
    .map((chunk) => [chunk.fileName, `${(chunk.code.length / 1024).toFixed(1)} kB`])
    .sort(([a], [b]) => a.localeCompare(b));
  const width = Math.max(...rows.map(([name]) => name.length));
  for (const [name, size] of rows) process.stdout.write(`${name.padEnd(width)}  ${size.padStart(9)}\n`);
}
