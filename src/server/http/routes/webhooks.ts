import { Hono } from 'hono';
import { WEBHOOK_EVENTS } from '../../../api/types.js';
import { isLoopbackHost } from '../../../util/loopback.js';
import { now } from '../../clock.js';
import type { AppEnv, Service } from '../../context.js';
import { badRequest, notFound, unprocessable } from '../errors.js';
import { newId, newSecret } from '../../state/ids.js';
import type { WebhookRecord } from '../../state/model.js';
import { NEWEST_FIRST, pageOf, sortBy } from '../../state/paging.js';
import { presentWebhook } from '../present.js';
import { optionalString, parseCursor, parseLimit } from '../validate.js';
import { checkTarget } from '../../webhooks/target.js';

/**
 * A webhook URL: https (http only to loopback with --allow-local-webhooks), without
 * credentials, whose host is and resolves to public addresses only (loopback too with
 * --allow-local-webhooks). A name that does not resolve now is accepted and checked at delivery.
 */
async function checkUrl(raw: string, service: Service): Promise<string> {
  const allowLocal = service.options.allowLocalWebhooks;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw unprocessable(`url is not a valid URL: "${raw.slice(0, 100)}"`, 'invalid_url');
  }
  if (raw.length > 2048) throw unprocessable('url is longer than 2048 characters', 'invalid_url');
  if (url.username || url.password) throw unprocessable('url must not contain credentials', 'invalid_url');
  const scheme =
    url.protocol === 'https:' || (url.protocol === 'http:' && allowLocal && isLoopbackHost(url.hostname));
  if (!scheme)
    throw unprocessable(
      allowLocal ? 'url must use https (http is accepted only for loopback hosts)' : 'url must use https',
      'invalid_url',
    );
  const target = await checkTarget(url, allowLocal, service.options.resolve);
  if (!target.ok && !target.unresolved) throw unprocessable(target.reason, 'invalid_url');
  return url.toString();
}

export function webhookRoutes(service: Service) {
  const { store } = service;
  const app = new Hono<AppEnv>();

  app.post('/', async (c) => {
    const url = optionalString(c.var.body, 'url');
    if (url === undefined) throw badRequest('url is required', 'missing_field');
    const events = c.var.body.events;
    if (events === undefined) throw badRequest('events is required', 'missing_field');
    if (!Array.isArray(events) || events.some((e) => typeof e !== 'string'))
      throw badRequest('events must be an array of strings', 'invalid_type');
    if (events.length === 0)
      throw unprocessable(`events must name at least one of: ${WEBHOOK_EVENTS.join(', ')}`, 'invalid_events');
    const unknown = events.filter((e) => !(WEBHOOK_EVENTS as readonly string[]).includes(e));
    if (unknown.length)
      throw unprocessable(
        `unknown event kind ${unknown.map((e) => `"${String(e).slice(0, 60)}"`).join(', ')}; known: ${WEBHOOK_EVENTS.join(', ')}`,
        'invalid_events',
      );
    const webhook: WebhookRecord = {
      id: newId('wh'),
      workspaceId: c.var.workspace.id,
      url: await checkUrl(url, service),
      events: [...new Set(events as string[])],
      secret: newSecret('whsec'),
      isActive: true,
      createdAt: now(),
    };
    store.commit({ op: 'webhook', webhook });
    return c.json({ data: presentWebhook(webhook, true) }, 201);
  });

  app.get('/', (c) => {
    const limit = parseLimit(c.req.query('limit'));
    const cursor = parseCursor(c.req.query('cursor'));
    return c.json(
      pageOf(store.listWebhooks(c.var.workspace.id), NEWEST_FIRST, limit, cursor, (w) => presentWebhook(w)),
    );
  });

  app.get('/:id', (c) => {
    const webhook = store.webhook(c.var.workspace.id, c.req.param('id'));
    if (!webhook) throw notFound('webhook');
    return c.json({ data: presentWebhook(webhook) });
  });

  app.get('/:id/deliveries', (c) => {
    const webhook = store.webhook(c.var.workspace.id, c.req.param('id'));
    if (!webhook) throw notFound('webhook');
    const limit = parseLimit(c.req.query('limit'));
    const cursor = parseCursor(c.req.query('cursor'));
    const deliveries = sortBy(service.deliverer.deliveries(webhook.workspaceId, webhook.id), NEWEST_FIRST);
    return c.json(pageOf(deliveries, NEWEST_FIRST, limit, cursor, (d) => d));
  });

  app.delete('/:id', (c) => {
    const webhook = store.webhook(c.var.workspace.id, c.req.param('id'));
    if (!webhook) throw notFound('webhook');
    store.commit({ op: 'webhookDeleted', id: webhook.id });
    return c.body(null, 204);
  });

  return app;
}
