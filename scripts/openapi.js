#!/usr/bin/env node
// npm run openapi: writes docs/openapi.json from the built service's description of itself
// (src/server/http/openapi.ts). A test fails when the two differ.
import { writeFileSync } from 'node:fs';
import { openApiDocument } from '../dist/server/http/openapi.js';

const { version } = JSON.parse(
  (await import('node:fs')).readFileSync(new URL('../package.json', import.meta.url), 'utf8'),
);
writeFileSync(
  new URL('../docs/openapi.json', import.meta.url),
  `${JSON.stringify(openApiDocument(version), null, 2)}\n`,
);
console.log('wrote docs/openapi.json');
