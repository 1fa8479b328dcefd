#!/usr/bin/env node
'use strict';
const args = process.argv.slice(2);

if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  // Answered without loading the CLI: scripts call this often.
  process.stdout.write(`${require('../package.json').version}\n`);
} else {
  const { join } = require('node:path');
  const cli = join(__dirname, '..', 'dist', 'cli');
  const { enableCompileCache, compileCacheDir } = require(join(cli, 'compile-cache.cjs'));
  enableCompileCache(join(cli, 'chunks'), compileCacheDir());
  require(join(cli, 'kb.cjs')).main(args);
}
