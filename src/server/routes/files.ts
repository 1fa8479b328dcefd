import { Hono } from 'hono';
import { FILE_STATUSES } from '../../api/types.js';
import { now } from '../clock.js';
import type { AppEnv, Service } from '../context.js';
import { notFound } from '../http-errors.js';
import { NEWEST_FIRST, pageOf, parseCursor } from '../paging.js';
import { presentFile, presentFileDetail } from '../present.js';
import { parseLimit, parseStatus } from '../validate.js';

export function fileRoutes(service: Service) {
  const { store } = service;
  const app = new Hono<AppEnv>();

  app.get('/', (c) => {
    const status = parseStatus(c.req.query('status'), FILE_STATUSES);
    const limit = parseLimit(c.req.query('limit'));
    const cursor = parseCursor(c.req.query('cursor'));
    return c.json(
      pageOf(store.listFiles(c.var.workspace.id, status), NEWEST_FIRST, limit, cursor, presentFile),
    );
  });

  app.get('/:id', (c) => {
    const file = store.file(c.var.workspace.id, c.req.param('id'));
    if (!file) throw notFound('file');
    return c.json({ data: presentFileDetail(file) });
  });

  app.delete('/:id', (c) => {
    const file = store.file(c.var.workspace.id, c.req.param('id'));
    if (!file) throw notFound('file');
    store.commit({ op: 'fileDeleted', id: file.id, at: now() });
    return c.body(null, 204);
  });

  return app;
}
