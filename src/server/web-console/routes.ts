import { Hono, type Context as HonoContext, type Next } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { AppEnv, Service } from '../context.js';
import type { Workspace } from '../state/model.js';
import { listingOf, NEWEST_FIRST } from '../state/paging.js';
import { presentFileDetail } from '../http/present.js';
import { acceptUpload, deleteFile } from '../ingest/uploads.js';
import { serviceErrorOf } from '../http/refusals.js';
import { readBoundedBody } from '../http/request-body.js';
import { CONSOLE_CSS, CONSOLE_JS } from './assets.js';
import { deletePage, filesPage, notFoundPage, signInPage, threadPage, threadsPage } from './pages.js';
import { type WindowQuery, windowOf } from './list-window.js';
import { type Session, Sessions } from './sessions.js';

/** Files on a page, polled for live status; older and newer ones are a link away. */
const SHOWN_FILES = 200;
const SHOWN_THREADS = 50;
/** Uploads whose status one poll may ask for (the page asks for the rest in the next polls). */
const MAX_TRACKED = 100;

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
  /**
   * A change needs the session's anti-CSRF token, and this origin. A form carries the token as
   * its field `csrf` (or the header); an upload, whose body is the file, only in the header: its
   * body is never read as a form, so the upload still has it to read.
   */
  const checked =
    (carrier: 'form' | 'header') =>
    async (c: C, next: Next): Promise<Response | void> => {
      if (!sameOrigin(c)) return refuse(c, 403, 'cross_origin', 'requests from other sites are refused');
      const header = c.req.header('x-csrf-token');
      const given = carrier === 'form' ? (header ?? (await formField(c, 'csrf'))) : header;
      if (Sessions.csrfMatches(c.var.session, given)) return next();
      const message =
        carrier === 'header' && !header
          ? 'an upload carries the anti-CSRF token in the x-csrf-token header'
          : 'the form is out of date: reload the page';
      return refuse(c, 403, 'invalid_csrf_token', message);
    };
  const pageOptions = (c: C) => ({ workspace: workspaceOf(c.var.session)!.name, csrf: c.var.session.csrf });
  const windowQuery = (c: C): WindowQuery => ({ after: c.req.query('after'), before: c.req.query('before') });

  app.get('/', async (c) => {
    const session = sessions.get(getCookie(c, cookieName(c)));
    if (!session || !workspaceOf(session)) return c.html(signInPage());
    c.set('session', session);
    const files = windowOf(store.fileListing(session.workspaceId), NEWEST_FIRST, SHOWN_FILES, windowQuery(c));
    const notice = Sessions.takeFlash(session);
    return c.html(
      filesPage(files, {
        ...pageOptions(c),
        maxFileBytes: service.maxFileBytes,
        notice,
      }),
    );
  });

  app.post('/console/session', async (c) => {
    if (!sameOrigin(c)) return c.html(signInPage('Sign in from this page.'), 403);
    const attempt = sessions.startSignIn(clientAddress(c));
    if (attempt.retryAfter) {
      c.header('retry-after', String(attempt.retryAfter));
      return c.html(signInPage(`Too many wrong keys: try again in ${attempt.retryAfter} s.`), 429);
    }
    const key = String((await formField(c, 'key')) ?? '').trim();
    const workspace = key ? store.workspaceForKey(key) : undefined;
    if (!workspace) return c.html(signInPage('That key is not valid for this service.'), 401);
    attempt.succeeded();
    const session = sessions.open(workspace.id, key);
    setCookie(c, cookieName(c), session.id, { httpOnly: true, sameSite: 'Strict', path: '/' });
    return c.redirect('/', 303);
  });

  app.post('/console/session/end', signedIn, checked('form'), (c) => {
    sessions.close(c.var.session.id);
    deleteCookie(c, cookieName(c), { path: '/' });
    return c.redirect('/', 303);
  });

  /** The page's window of files, as the page was asked for, and the status of the uploads it tracks. */
  app.get('/console/files.json', signedIn, (c) => {
    const workspaceId = c.var.session.workspaceId;
    const files = windowOf(store.fileListing(workspaceId), NEWEST_FIRST, SHOWN_FILES, windowQuery(c));
    const tracked = (c.req.query('track') ?? '')
      .split(',')
      .slice(0, MAX_TRACKED)
      .flatMap((id) => store.file(workspaceId, id) ?? []);
    return c.json({
      data: files.records.map(presentFileDetail),
      start: files.start,
      total: files.total,
      newer: files.newer,
      older: files.older,
      tracked: tracked.map(presentFileDetail),
    });
  });

  app.post('/console/uploads', signedIn, checked('header'), async (c) => {
    const name = c.req.query('filename') ?? '';
    try {
      const file = await acceptUpload(service, c.var.session.workspaceId, name, c.req.raw);
      return c.json({ data: presentFileDetail(file) }, 201);
    } catch (err) {
      const refused = serviceErrorOf(err);
      if (!refused) throw err;
      for (const [name, value] of Object.entries(refused.headers)) c.header(name, value); // Retry-After
      return refuse(c, refused.status as 413, refused.code, refused.message);
    }
  });

  app.get('/console/files/:id/delete', signedIn, (c) => {
    const file = store.file(c.var.session.workspaceId, c.req.param('id') ?? '');
    if (!file) return c.html(notFoundPage('That file is not in this workspace.', pageOptions(c)), 404);
    return c.html(deletePage(file, pageOptions(c)));
  });

  app.post('/console/files/:id/delete', signedIn, checked('form'), (c) => {
    const file = store.file(c.var.session.workspaceId, c.req.param('id') ?? '');
    if (!file) return c.html(notFoundPage('That file is not in this workspace.', pageOptions(c)), 404);
    deleteFile(service, file);
    c.var.session.flash = { deleted: file.originalFilename };
    return c.redirect('/', 303);
  });

  app.get('/console/threads', signedIn, (c) => {
    const threads = windowOf(
      listingOf(store.listThreads(c.var.session.workspaceId), NEWEST_FIRST),
      NEWEST_FIRST,
      SHOWN_THREADS,
      windowQuery(c),
    );
    const counted = threads.records.map((thread) => ({
      thread,
      messages: store.messages.get(thread.id)?.length ?? 0,
    }));
    return c.html(threadsPage({ ...threads, records: counted }, pageOptions(c)));
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
