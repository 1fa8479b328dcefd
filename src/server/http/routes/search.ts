import { Hono } from 'hono';
import { explainRetrieval } from '../../answer/explain.js';
import { retrieve } from '../../answer/assistant.js';
import type { AppEnv, Service } from '../../context.js';
import { badRequest, notFound } from '../errors.js';
import type { MessageRecord } from '../../state/model.js';
import { MAX_QUERY, parseLimit, SEARCH_DEFAULT_LIMIT, SEARCH_MAX_LIMIT } from '../validate.js';

/**
 * An extension (docs/local-service.md, "Search"): what the assistant retrieves for a question,
 * ranked, each chunk with its file, pages, score and whether it answers. With `threadId` the
 * question is read as a follow-up in that thread, as a message sent to it would be.
 */
export function searchRoutes(service: Service) {
  const { store } = service;
  const app = new Hono<AppEnv>();

  app.get('/', async (c) => {
    const query = c.req.query('q')?.trim();
    if (!query) throw badRequest('ask something with ?q=TEXT', 'invalid_query');
    if (query.length > MAX_QUERY)
      throw badRequest(`q is longer than ${MAX_QUERY} characters (${query.length})`, 'invalid_query');
    const limit = parseLimit(c.req.query('limit'), { fallback: SEARCH_DEFAULT_LIMIT, max: SEARCH_MAX_LIMIT });
    const threadId = c.req.query('threadId');
    const workspaceId = c.var.workspace.id;
    let history: MessageRecord[] = [];
    if (threadId !== undefined) {
      const thread = store.thread(workspaceId, threadId);
      if (!thread) throw notFound('thread');
      history = (store.messages.get(thread.id) ?? []).filter((m) => !m.pending);
    }
    // Retrieved as a message is (what answers is the same), listing `limit` chunks.
    const retrieval = await retrieve(service, workspaceId, query, history, {
      threshold: service.options.relevanceThreshold,
      embeddings: service.embeddings,
      list: limit,
    });
    return c.json({
      query,
      ...explainRetrieval(retrieval, limit, { generator: service.options.generator !== undefined }),
      // Files not searched yet: the list is of the rest of the workspace.
      indexing: store.countIndexingFiles(workspaceId),
    });
  });

  return app;
}
