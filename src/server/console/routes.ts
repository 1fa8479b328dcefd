import { Hono, type Context as HonoContext, type Next } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { AppEnv, Service } from '../context.js';
import type { Workspace } from '../model.js';
import { presentFileDetail } from '../present.js';
import { acceptUpload, deleteFile } from '../uploads.js';
import { ServiceError } from '../http-errors.js';
import { readBoundedBody } from '../request-body.js';
import { CONSOLE_CSS, CONSOLE_JS } from './assets.js';
import { deletePage, filesPage, notFoundPage, signInPage, threadPage, threadsPage } from './pages.js';
import { type Session, Sessions } from './sessions.js';

/** Files shown on the page and polled for live status; the rest are for kb files list. */
const SHOWN_FILES = 200;
const SHOWN_THREADS = 50;

type ConsoleEnv = AppEnv & { Variables: AppEnv['Variables'] & { session: Session } };
type C = HonoContext<ConsoleEnv>;

const HEADERS = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'x-content-type-options': 'nosniff',
  // Not no-referrer: with it a browser sends `Origin: null` on a form post, which the origin check refuses.
  'referrer-policy': 'same-origin',
  'cache-control': 'no-store',
};

/** One cookie per port: two kb serve on one host do not share sessions. */
const cookieName = (c: C) => `kb_session_${new URL(c.req.url).port || '80'}`;

/** A state-changing request must come from a page of this origin (Origin, else Sec-Fetch-Site). */
function sameOrigin(c: C): boolean {
  const origin = c.req.header('origin');
  if (origin) return origin === new URL(c.req.url).origin;
  return c.req.header('sec-fetch-site') === 'same-origin';
}

function clientAddress(c: C): string {
  return c.env?.incoming?.socket?.remoteAddress ?? 'unknown';
}

function refuse(c: C, status: 401 | 403 | 404 | 413 | 422 | 429, code: string, message: string) {
  return c.json({ error: { code, message } }, status);
}

/**
 * The web console (docs/local-service.md, "The web console"): sign in with a workspace key,
 * upload files and watch them index, delete them, read threads. Server-rendered HTML; every
 * state-changing request needs the session cookie, its anti-CSRF token and this origin.
 */
export function consoleRoutes(service: Service) {
  const { store, sessions } = service;
  const app = new Hono<ConsoleEnv>();

  const secured = async (c: C, next: Next) => {
    await next();
    for (const [k, v] of Object.entries(HEADERS)) c.res.headers.set(k, v);
  };
  app.use('/', secured);
  app.use('/console/*', secured);
  app.get('/console/app.css', (c) => c.body(CONSOLE_CSS, 200, { 'content-type': 'text/css; charset=utf-8' }));
  app.get('/console/app.js', (c) =>
    c.body(CONSOLE_JS, 200, { 'content-type': 'text/javascript; charset=utf-8' }),
  );

  const workspaceOf = (session: Session): Workspace | undefined => store.workspaces.get(session.workspaceId);

  /** A page needs a session; without one, the sign-in page (or 401 for a script). */
  const signedIn = async (c: C, next: Next) => {
    const session = sessions.get(getCookie(c, cookieName(c)));
    if (!session || !workspaceOf(session)) {
      if (c.req.method === 'GET' && !c.req.path.endsWith('.json')) return c.redirect('/', 303);
      return refuse(c, 401, 'unauthorized', 'sign in first');
    }
    c.set('session', session);
    return next();
  };
  /** A change needs the session's anti-CSRF token, and this origin. */
  const checked = async (c: C, next: Next) => {
    if (!sameOrigin(c)) return refuse(c, 403, 'cross_origin', 'requests from other sites are refused');
    const given = c.req.header('x-csrf-token') ?? (await formField(c, 'csrf'));
    if (!Sessions.csrfMatches(c.var.session, given))
      return refuse(c, 403, 'invalid_csrf_token', 'the form is out of date: reload the page');
    return next();
  };
  const pageOptions = (c: C) => ({ workspace: workspaceOf(c.var.session)!.name, csrf: c.var.session.csrf });

  app.get('/', async (c) => {
    const session = sessions.get(getCookie(c, cookieName(c)));
    if (!session || !workspaceOf(session)) return c.html(signInPage());
    c.set('session', session);
    const files = store.listFiles(session.workspaceId);
    const notice = c.req.query('deleted') ? `Deleted ${c.req.query('deleted')}.` : undefined;
    return c.html(
      filesPage(files.slice(0, SHOWN_FILES), files.length, {
        ...pageOptions(c),
        maxFileBytes: service.maxFileBytes,
        notice,
      }),
    );
  });

  app.post('/console/session', async (c) => {
    if (!sameOrigin(c)) return c.html(signInPage('Sign in from this page.'), 403);
    const address = clientAddress(c);
    const wait = sessions.retryAfter(address);
    if (wait) {
      c.header('retry-after', String(wait));
      return c.html(signInPage(`Too many wrong keys: try again in ${wait} s.`), 429);
    }
    const key = String((await formField(c, 'key')) ?? '').trim();
    const workspace = key ? store.workspaceForKey(key) : undefined;
    if (!workspace) {
      sessions.failed(address);
      return c.html(signInPage('That key is not valid for this service.'), 401);
    }
    const session = sessions.open(workspace.id);
    setCookie(c, cookieName(c), session.id, { httpOnly: true, sameSite: 'Strict', path: '/' });
    return c.redirect('/', 303);
  });

  app.post('/console/session/end', signedIn, checked, (c) => {
    sessions.close(c.var.session.id);
    deleteCookie(c, cookieName(c), { path: '/' });
    return c.redirect('/', 303);
  });

  app.get('/console/files.json', signedIn, (c) => {
    const files = store.listFiles(c.var.session.workspaceId);
    return c.json({ data: files.slice(0, SHOWN_FILES).map(presentFileDetail), total: files.length });
  });

  app.post('/console/uploads', signedIn, checked, async (c) => {
    const name = c.req.query('filename') ?? '';
    try {
      const file = await acceptUpload(service, c.var.session.workspaceId, name, c.req.raw);
      return c.json({ data: presentFileDetail(file) }, 201);
    } catch (err) {
      if (!(err instanceof ServiceError)) throw err;
      for (const [name, value] of Object.entries(err.headers)) c.header(name, value); // Retry-After
      return refuse(c, err.status as 413, err.code, err.message);
    }
  });

  app.get('/console/files/:id/delete', signedIn, (c) => {
    const file = store.file(c.var.session.workspaceId, c.req.param('id') ?? '');
    if (!file) return c.html(notFoundPage('That file is not in this workspace.', pageOptions(c)), 404);
    return c.html(deletePage(file, pageOptions(c)));
  });

  app.post('/console/files/:id/delete', signedIn, checked, (c) => {
    const file = store.file(c.var.session.workspaceId, c.req.param('id') ?? '');
    if (!file) return c.html(notFoundPage('That file is not in this workspace.', pageOptions(c)), 404);
    deleteFile(service, file);
    return c.redirect(`/?deleted=${encodeURIComponent(file.originalFilename)}`, 303);
  });

  app.get('/console/threads', signedIn, (c) => {
    const threads = store
      .listThreads(c.var.session.workspaceId)
      .slice(0, SHOWN_THREADS)
      .map((thread) => ({ thread, messages: store.messages.get(thread.id)?.length ?? 0 }));
    return c.html(threadsPage(threads, pageOptions(c)));
  });

  app.get('/console/threads/:id', signedIn, (c) => {
    const thread = store.thread(c.var.session.workspaceId, c.req.param('id') ?? '');
    if (!thread) return c.html(notFoundPage('That thread is not in this workspace.', pageOptions(c)), 404);
    return c.html(threadPage(thread, store.messages.get(thread.id) ?? [], pageOptions(c)));
  });

  return app;
}

/** Larger forms are refused: the console's forms hold a key or a token. */
const MAX_FORM_BYTES = 16 * 1024;
/** A larger form is still read this far (not kept), so that a browser still sending hears the answer. */
const DRAIN_FORM_BYTES = 16 * 1024 * 1024;
const forms = new WeakMap<Request, Promise<URLSearchParams | undefined>>();

/**
 * A field of the request's url-encoded form body: read once per request, and only up to
 * MAX_FORM_BYTES (the console's routes come before the API's bounded body reading).
 */
function formField(c: C, name: string): Promise<string | undefined> {
  const request = c.req.raw;
  let form = forms.get(request);
  if (!form) {
    const type = c.req.header('content-type') ?? '';
    form = /^application\/x-www-form-urlencoded\b/i.test(type)
      ? readBoundedBody(request, MAX_FORM_BYTES, DRAIN_FORM_BYTES).then((read) =>
          'bytes' in read ? new URLSearchParams(read.bytes.toString('utf8')) : undefined,
        )
      : Promise.resolve(undefined);
    forms.set(request, form);
  }
  return form.then((fields) => fields?.get(name) ?? undefined);
}
