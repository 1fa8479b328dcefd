import { ESLint } from 'eslint';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';

/** The import boundaries of eslint.config.js (docs/ARCHITECTURE.md), on snippets linted as if they were these files. */
const root = fileURLToPath(new URL('../..', import.meta.url));
let eslint: ESLint;

beforeAll(() => {
  eslint = new ESLint({ cwd: root });
});

/** The boundary rules `code` breaks as the file at `path`. */
async function broken(path: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: `${root}/${path}` });
  return result!.messages
    .filter((m) => m.ruleId === 'no-restricted-imports' || m.ruleId === 'no-restricted-syntax')
    .map((m) => m.message);
}

describe('the service layers', () => {
  it.each([
    ['src/server/search/chunk-index.ts', "import '../answer/assistant.js';"],
    ['src/server/search/embeddings/client.ts', "import '../../conversation/conversation.js';"],
    ['src/server/search/chunk-index.ts', "import '../http/errors.js';"],
    ['src/server/search/chunk-index.ts', "import '../web-console/routes.js';"],
    ['src/server/search/chunk-index.ts', "import '../ingest/indexer.js';"],
    ['src/server/ingest/uploads.ts', "import { ServiceError } from '../http/errors.js';"],
    ['src/server/ingest/extraction/formats.ts', "import '../../answer/generator.js';"],
    ['src/server/ingest/indexer.ts', "import '../web-console/pages.js';"],
    ['src/server/ingest/indexer.ts', "import '../conversation/turns.js';"],
    ['src/server/state/paging.ts', "import { badRequest } from '../http/errors.js';"],
    ['src/server/state/journal.ts', "import '../search/chunk-index.js';"],
    ['src/server/state/model.ts', "import type { Service } from '../context.js';"],
    ['src/server/answer/generator.ts', "import { MAX_CONTENT } from '../http/validate.js';"],
    ['src/server/answer/passages.ts', "import '../ingest/extraction/chunk.js';"],
    ['src/server/answer/assistant.ts', "import '../conversation/conversation.js';"],
    ['src/server/conversation/conversation.ts', "import { presentMessage } from '../http/present.js';"],
    ['src/server/webhooks/deliveries.ts', "import '../search/chunk-index.js';"],
    ['src/server/demo/seed.ts', "import '../http/app.js';"],
    ['src/server/state/store.ts', "import '../search/fts-index.js';"],
    ['src/server/http/routes/files.ts', "import '../../web-console/routes.js';"],
    ['src/server/http/routes/files.ts', "import { startServer } from '../../index.js';"],
  ])('%s may not: %s', async (path, code) => {
    expect(await broken(path, code)).toEqual([expect.stringContaining('docs/ARCHITECTURE.md')]);
  });

  it.each([
    ['src/server/search/fts-index.ts', "import '../state/model.js';"],
    ['src/server/search/embeddings/client.ts', "import '../../state/model.js';"],
    ['src/server/ingest/extraction/formats.ts', "import '../../state/model.js';"],
    ['src/server/ingest/extraction/formats.ts', "import '../chunk.js';"],
    ['src/server/ingest/indexer.ts', "import { now } from '../clock.js';"],
    ['src/server/answer/generator.ts', "import '../search/hit.js';"],
    ['src/server/conversation/conversation.ts', "import type { Service } from '../context.js';"],
    ['src/server/conversation/conversation.ts', "import '../answer/assistant.js';"],
    ['src/server/http/app.ts', "import '../web-console/routes.js';"],
    ['src/server/http/routes/threads.ts', "import '../../conversation/conversation.js';"],
    ['src/server/web-console/routes.ts', "import '../http/errors.js';"],
    ['src/server/web-console/routes.ts', "import '../ingest/uploads.js';"],
    ['src/server/demo/seed.ts', "import '../ingest/indexer.js';"],
    // src/webhooks (the CLI's signatures), not src/server/webhooks.
    ['src/server/webhooks/deliveries.ts', "import '../../webhooks/signature.js';"],
    ['src/server/search/chunk-index.ts', "import '../../webhooks/signature.js';"],
    ['src/server/index.ts', "import './web-console/sessions.js';"],
  ])('%s may: %s', async (path, code) => {
    expect(await broken(path, code)).toEqual([]);
  });
});

describe('the CLI and the service', () => {
  it.each([
    ['src/commands/threads/list.ts', "import { startServer } from '../../server/index.js';"],
    ['src/commands/threads/list.ts', "import type { Store } from '../../server/state/store.js';"],
    ['src/main.ts', "import './server/http/app.js';"],
    ['src/commands/threads/list.ts', "export const start = () => import('../../server/index.js');"],
  ])('%s may not: %s', async (path, code) => {
    expect(await broken(path, code)).toEqual([expect.stringContaining('src/commands/serve/**')]);
  });

  it.each([
    ['src/commands/serve/index.ts', "export const start = () => import('../../server/index.js');"],
    ['src/commands/serve/indexing-progress.ts', "import '../../server/ingest/indexer.js';"],
    ['src/commands/demo/index.ts', "export const start = () => import('../../server/index.js');"],
    ['src/index.ts', "export const start = () => import('./server/index.js');"],
    ['src/commands/threads/list.ts', "import '../../webhooks/signature.js';"],
  ])('%s may: %s', async (path, code) => {
    expect(await broken(path, code)).toEqual([]);
  });
});
