import { Hono } from 'hono';
import { THREAD_STATUSES } from '../../../api/types.js';
import { converse } from '../../conversation/conversation.js';
import { now } from '../../clock.js';
import type { AppEnv, Service } from '../../context.js';
import { badRequest, notFound, ServiceError } from '../errors.js';
import { newId } from '../../state/ids.js';
import {
  MAX_CONTENT,
  type Operation,
  type ThreadRecord,
  type ThreadRecordStatus,
} from '../../state/model.js';
import { NEWEST_FIRST, pageOf } from '../../state/paging.js';
import { announced } from '../exchange.js';
import { presentMessage, presentThread } from '../present.js';
import {
  MAX_TITLE,
  optionalString,
  parseCursor,
  parseLimit,
  parseStatus,
  requiredString,
} from '../validate.js';

export const DEFAULT_TITLE = 'Untitled thread';

export function threadRoutes(service: Service) {
  const { store } = service;
  const app = new Hono<AppEnv>();

  app.get('/', (c) => {
    const status = parseStatus(c.req.query('status'), THREAD_STATUSES);
    const limit = parseLimit(c.req.query('limit'));
    const cursor = parseCursor(c.req.query('cursor'));
    return c.json(
      pageOf(store.listThreads(c.var.workspace.id, status), NEWEST_FIRST, limit, cursor, presentThread),
    );
  });

  app.post('/', (c) => {
    const raw = optionalString(c.var.body, 'title');
    const title = raw?.trim() ? raw.trim() : DEFAULT_TITLE;
    if (title.length > MAX_TITLE)
      throw new ServiceError(
        422,
        'too_long',
        `title is longer than ${MAX_TITLE} characters (${title.length})`,
      );
    const at = now();
    const thread: ThreadRecord = {
      id: newId('thr'),
      workspaceId: c.var.workspace.id,
      title,
      status: 'OPEN',
      createdAt: at,
      updatedAt: at,
    };
    store.commit({ op: 'thread', thread });
    return c.json({ data: presentThread(thread) }, 201);
  });

  app.get('/:id', (c) => {
    const thread = store.thread(c.var.workspace.id, c.req.param('id'));
    if (!thread) throw notFound('thread');
    const messages = (store.messages.get(thread.id) ?? []).map(presentMessage);
    return c.json({ data: { ...presentThread(thread), messages } });
  });

  /** Extension: change a thread's title, or its status (OPEN, CLOSED, ARCHIVED). */
  app.patch('/:id', (c) => {
    const thread = store.thread(c.var.workspace.id, c.req.param('id'));
    if (!thread) throw notFound('thread');
    const raw = optionalString(c.var.body, 'status');
    const rawTitle = optionalString(c.var.body, 'title');
    if (raw === undefined && rawTitle === undefined)
      throw badRequest('status or title is required', 'missing_field');
    const title = rawTitle === undefined ? undefined : requiredString(c.var.body, 'title', MAX_TITLE).trim();
    const status = raw === undefined ? undefined : (parseStatus(raw, THREAD_STATUSES) as ThreadRecordStatus);
    const at = now();
    const ops: Operation[] = [];
    if (title !== undefined) ops.push({ op: 'thread', thread: { ...thread, title, updatedAt: at } });
    if (status !== undefined) ops.push({ op: 'threadStatus', id: thread.id, status, at });
    store.commit(...ops);
    return c.json({ data: presentThread(store.threads.get(thread.id)!) });
  });

  app.post('/:id/messages', async (c) => {
    const workspaceId = c.var.workspace.id;
    const thread = store.thread(workspaceId, c.req.param('id'));
    if (!thread) throw notFound('thread');
    const content = requiredString(c.var.body, 'content', MAX_CONTENT);
    if (thread.status !== 'OPEN') {
      throw new ServiceError(
        409,
        'thread_not_open',
        `thread ${thread.id} is ${thread.status}; only OPEN threads accept messages`,
      );
    }
    const result = await converse(service, workspaceId, thread.id, content);
    const data = announced(service, workspaceId, thread.id, result);
    return c.json({ data }, 201);
  });

  return app;
}
