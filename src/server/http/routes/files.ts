import { Hono } from 'hono';
import { FILE_STATUSES } from '../../../api/types.js';
import type { AppEnv, Service } from '../../context.js';
import { badRequest, notFound } from '../errors.js';
import { acceptUpload, deleteFile } from '../../ingest/uploads.js';
import { NEWEST_FIRST, pageFrom } from '../../state/paging.js';
import { presentFile, presentFileDetail } from '../present.js';
import { parseCursor, parseLimit, parseStatus } from '../validate.js';

export function fileRoutes(service: Service) {
  const { store } = service;
  const app = new Hono<AppEnv>();

  app.get('/', (c) => {
    const status = parseStatus(c.req.query('status'), FILE_STATUSES);
    const limit = parseLimit(c.req.query('limit'));
    const cursor = parseCursor(c.req.query('cursor'));
    const following = store.filesAfter({ workspaceId: c.var.workspace.id, status }, cursor, limit + 1);
    return c.json(pageFrom(following, NEWEST_FIRST, limit, presentFile));
  });

  app.get('/:id', (c) => {
    const file = store.file(c.var.workspace.id, c.req.param('id'));
    if (!file) throw notFound('file');
    return c.json({ data: presentFileDetail(file) });
  });

  app.delete('/:id', (c) => {
    const file = store.file(c.var.workspace.id, c.req.param('id'));
    if (!file) throw notFound('file');
    deleteFile(service, file);
    return c.body(null, 204);
  });

  // An extension (docs/local-service.md, "Uploads"): the raw bytes, named by ?filename=.
  app.post('/', async (c) => {
    const name = c.req.query('filename');
    if (name === undefined) throw badRequest('name the file with ?filename=NAME', 'invalid_filename');
    const file = await acceptUpload(service, c.var.workspace.id, name, c.req.raw);
    c.header('location', `/v1/files/${file.id}`);
    return c.json({ data: presentFileDetail(file) }, 201);
  });

  return app;
}
