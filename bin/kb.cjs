#!/usr/bin/env node
'use strict';
const args = process.argv.slice(2);

if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  // Answered without loading the CLI: scripts call this often.
  process.stdout.write(`${require('../package.json').version}\n`);
} else {
  const { join } = require('node:path');
  const cli = join(__dirname, '..', 'dist', 'cli');
  let cache;
  try {
    cache = require(join(cli, 'compile-cache.cjs'));
  } catch (err) {
    if (err.code !== 'MODULE_NOT_FOUND') throw err;
    process.stderr.write('error: kb is not built; run `npm ci` (or `npm run build`) in its directory\n');
    process.exit(1);
  }
  cache.enableCompileCache(join(cli, 'chunks'), cache.compileCacheDir());
  require(join(cli, 'kb.cjs')).main(args);
}
