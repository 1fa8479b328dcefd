import { getHeapSpaceStatistics } from 'node:v8';
import { Hono, type Context as HonoContext } from 'hono';
import { StorageError } from '../state/storage-error.js';
import { DatabaseDamaged, isCorruption } from '../state/database.js';
import { generationRoutes } from './routes/generations.js';
import { methodNotAllowed } from 'hono/method-not-allowed';
import type { AppEnv, Service } from '../context.js';
import { parseFaultRule } from './faults.js';
import { badRequest, errorBody, storageDamaged, storageUnavailable } from './errors.js';
import { serviceErrorOf } from './refusals.js';
import { newId } from '../state/ids.js';
import { readBoundedBody } from './request-body.js';
import { openApiDocument } from './openapi.js';
import { version } from '../../version.js';
import { consoleRoutes } from '../web-console/routes.js';
import { fileRoutes } from './routes/files.js';
import { searchRoutes } from './routes/search.js';
import { threadRoutes } from './routes/threads.js';
import { userRoutes } from './routes/users.js';
import { webhookRoutes } from './routes/webhooks.js';

export const MAX_BODY_BYTES = 1024 * 1024;
/** Past this, an oversized body is not even drained: the connection is dropped after the 413. */
const MAX_DRAIN_BYTES = 16 * MAX_BODY_BYTES;

function sendError(
  c: HonoContext<AppEnv>,
  status: number,
  code: string,
  message: string,
  headers: Record<string, string> = {},
) {
  for (const [k, v] of Object.entries(headers)) c.header(k, v);
  return c.json(errorBody(code, message, c.get('requestId')), status as 400);
}

/** The HTTP interface of the local service. */
export function createApp(service: Service) {
  const app = new Hono<AppEnv>();
  const windows = new Map<string, { start: number; count: number }>();

  app.use('*', async (c, next) => {
    const requestId = newId('req', 16);
    c.set('requestId', requestId);
    const started = performance.now();
    await service.foreground.handle(next);
    c.res.headers.set('x-request-id', requestId);
    service.options.log?.({
      time: new Date().toISOString(),
      requestId,
      method: c.req.method,
      path: c.req.path,
      status: c.res.status,
      ms: Math.round((performance.now() - started) * 10) / 10,
      workspace: c.get('workspace')?.id,
    });
  });

  app.get('/_kb/health', (c) =>
    c.json({ data: { ok: true, rss: process.memoryUsage().rss, youngGeneration: youngGenerationBytes() } }),
  );
  // What the service is, for anyone (no key): clients and contract tools are generated from it.
  let described: string | undefined;
  app.get('/openapi.json', (c) => {
    described ??= JSON.stringify(openApiDocument(version()));
    return c.body(described, 200, { 'content-type': 'application/json' });
  });

  // The web console signs in with a session of its own, not the API's bearer key.
  app.route('/', consoleRoutes(service));

  app.use('*', async (c, next) => {
    const header = c.req.header('authorization') ?? '';
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    const workspace = match ? service.store.workspaceForKey(match[1]!) : undefined;
    if (!workspace) {
      return sendError(
        c,
        401,
        'unauthorized',
        match ? 'the API key is not valid' : 'missing Authorization: Bearer <API key> header',
        {
          'www-authenticate': 'Bearer realm="kb"',
        },
      );
    }
    c.set('workspace', workspace);
    if (service.options.rateLimit > 0) {
      const key = match![1]!;
      const nowMs = Date.now();
      const window = windows.get(key);
      if (!window || nowMs - window.start >= 1000) windows.set(key, { start: nowMs, count: 1 });
      else if (++window.count > service.options.rateLimit) {
        const retryAfter = String(Math.max(1, Math.ceil((window.start + 1000 - nowMs) / 1000)));
        return sendError(
          c,
          429,
          'rate_limited',
          `more than ${service.options.rateLimit} requests per second`,
          { 'retry-after': retryAfter },
        );
      }
    }
    return next();
  });

  // The fault plan acts once the request is authenticated, as a failing service would: only
  // the faults of the caller's workspace (and those from --fault) apply, and never to /_kb/*.
  app.use('*', async (c, next) => {
    if (c.req.path.startsWith('/_kb/')) return next();
    const rule = service.faults.take(c.req.method, c.req.path, c.var.workspace.id);
    if (!rule) return next();
    if (rule.delayMs) await new Promise((r) => setTimeout(r, rule.delayMs));
    const { action } = rule;
    switch (action.kind) {
      case 'delay':
        return next();
      case 'drop':
        c.set('dropAfter', action.after);
        return next();
      case 'status': {
        const headers: Record<string, string> = action.retryAfter ? { 'retry-after': action.retryAfter } : {};
        return sendError(c, action.status, 'injected_fault', `injected fault: ${action.status}`, headers);
      }
      case 'html':
        return c.html(
          '<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1></body></html>',
          502,
        );
      case 'truncated':
        return c.body('{"data":[{"id":"thr_', 200, { 'content-type': 'application/json' });
      case 'reset':
        c.env.incoming.socket.destroy();
        return c.body(null, 500);
      case 'hang':
        await Promise.race([service.closing, new Promise((r) => c.env.incoming.once('close', r))]);
        c.env.incoming.socket.destroy();
        return c.body(null, 500);
    }
  });

  app.use('*', async (c, next) => {
    if (!['POST', 'PUT', 'PATCH'].includes(c.req.method)) return next();
    // An upload's body is the file: read by its route, to --max-file-size.
    if (c.req.method === 'POST' && c.req.path === '/v1/files') return next();
    const read = await readBoundedBody(c.req.raw, MAX_BODY_BYTES, MAX_DRAIN_BYTES);
    if ('tooLarge' in read) {
      return sendError(c, 413, 'payload_too_large', `request body is larger than ${MAX_BODY_BYTES} bytes`);
    }
    const text = read.bytes.toString('utf8');
    if (!text.trim()) {
      c.set('body', {});
      return next();
    }
    const type = c.req.header('content-type') ?? '';
    if (!/^application\/(?:[\w.+-]+\+)?json\b/i.test(type)) {
      return sendError(
        c,
        415,
        'unsupported_media_type',
        `request body must be application/json, got ${type ? `"${type.slice(0, 80)}"` : 'no content type'}`,
      );
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch (err) {
      throw badRequest(`request body is not valid JSON: ${(err as Error).message}`, 'invalid_json');
    }
    if (!body || typeof body !== 'object' || Array.isArray(body))
      throw badRequest('request body must be a JSON object', 'invalid_json');
    c.set('body', body as Record<string, unknown>);
    return next();
  });

  app.use(
    methodNotAllowed({
      app,
      onMethodNotAllowed: (c, allowed) =>
        sendError(
          c as HonoContext<AppEnv>,
          405,
          'method_not_allowed',
          `${c.req.method} is not allowed here; allowed: ${allowed.join(', ')}`,
          {
            allow: allowed.join(', '),
          },
        ),
    }),
  );

  app.route('/v1/threads', threadRoutes(service));
  app.route('/v1/files', fileRoutes(service));
  app.route('/v1/users', userRoutes(service));
  app.route('/v1/webhooks', webhookRoutes(service));
  app.route('/v1/search', searchRoutes(service));
  app.route('/v1', generationRoutes(service));

  app.get('/_kb/faults', (c) => c.json({ data: service.faults.visibleTo(c.var.workspace.id) }));
  app.post('/_kb/faults', (c) => {
    const rules = c.var.body.rules;
    if (!Array.isArray(rules) || rules.some((r) => typeof r !== 'string'))
      throw badRequest('rules must be an array of strings');
    try {
      service.faults.add(
        rules.map((r: string) => parseFaultRule(r)),
        c.var.workspace.id,
      );
    } catch (err) {
      throw badRequest((err as Error).message, 'invalid_fault');
    }
    return c.json({ data: service.faults.visibleTo(c.var.workspace.id) }, 201);
  });
  app.delete('/_kb/faults', (c) => {
    service.faults.clear(c.var.workspace.id);
    return c.body(null, 204);
  });

  app.notFound((c) => sendError(c, 404, 'route_not_found', `no route for ${c.req.method} ${c.req.path}`));

  let damageNoticed = false;
  const noticeOnce = (message: string) => {
    if (!damageNoticed) service.options.notice?.(message);
    damageNoticed = true;
  };
  app.onError((err, c) => {
    const refused = serviceErrorOf(err);
    if (refused) return sendError(c, refused.status, refused.code, refused.message, refused.headers);
    // A damaged database (met by a read, or by a write that could not be stored): not worth a retry.
    const cause = err instanceof StorageError ? err.cause : err;
    if (isCorruption(cause) || cause instanceof DatabaseDamaged) {
      const damaged = storageDamaged(service.options.stateFile);
      service.options.log?.({ level: 'error', requestId: c.get('requestId'), error: (err as Error).message });
      noticeOnce(damaged.message);
      return sendError(c, 503, damaged.code, damaged.message);
    }
    if (err instanceof StorageError) {
      service.options.log?.({ level: 'error', requestId: c.get('requestId'), error: err.message });
      const unavailable = storageUnavailable();
      return sendError(c, 503, unavailable.code, unavailable.message, unavailable.headers);
    }
    service.options.log?.({
      level: 'error',
      requestId: c.get('requestId'),
      error: String((err as Error).stack ?? err),
    });
    return sendError(c, 500, 'internal_error', 'internal error');
  });

  return app;
}

/** The bytes V8 has given this thread's young generation (its new space): what kb serve's flags hold. */
function youngGenerationBytes(): number {
  return getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? 0;
}
