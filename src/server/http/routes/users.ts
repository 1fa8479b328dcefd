import { Hono } from 'hono';
import type { AppEnv, Service } from '../../context.js';
import { unprocessable } from '../errors.js';
import { BY_NAME, pageOf } from '../../state/paging.js';
import { presentUser } from '../present.js';
import { parseCursor, parseLimit } from '../validate.js';

export function userRoutes(service: Service) {
  const app = new Hono<AppEnv>();
  app.get('/', (c) => {
    const q = c.req.query('q');
    // A value of the right type that is not acceptable: 422, as for every field.
    if (q !== undefined && q.length > 200) throw unprocessable('q is longer than 200 characters', 'too_long');
    const limit = parseLimit(c.req.query('limit'));
    const cursor = parseCursor(c.req.query('cursor'));
    return c.json(
      pageOf(service.store.listUsers(c.var.workspace.id, q), BY_NAME, limit, cursor, presentUser),
    );
  });
  return app;
}
