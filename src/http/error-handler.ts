import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import {
  CONNECTION_LOST_RETRY_SECONDS,
  HttpError,
  isConnectionLost,
  isUnstorableInput,
  withRequestId,
} from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import { wantsJson } from './respond.js';

const UNSTORABLE = 'The request contains a value that cannot be stored.';
const UNAVAILABLE = 'Service Unavailable';

/**
 * Adjusts the response an `HttpError` renders to, knowing the request: how a module adds what
 * only the request can tell (the OAuth module points a 401's challenge at the metadata of the
 * resource the request was for). Runs on errors only, never on a successful request.
 */
export type ErrorResponseHook = (err: HttpError, c: Context, res: Response) => Response;

/**
 * The one place a thrown error becomes a response. Client errors carry their message; server
 * errors are logged with the stack and answered with a generic body — no stack reaches a client.
 */
export function renderError(
  err: Error,
  c: Context,
  logger: Logger,
  hooks: readonly ErrorResponseHook[] = [],
): Response {
  if (err instanceof HttpError) {
    if (err.status >= 500) logger.error({ err }, 'request failed');
    if (wantsJson(c) || err.body) {
      // The error renders itself; the context keeps headers set before the error (Hono's errorHandler).
      let res = err.getResponse();
      for (const hook of hooks) res = hook(err, c, res);
      return c.newResponse(res.body, res);
    }
    const message = err.expose ? err.message : 'Server Error';
    return c.html(renderErrorPage(c, err.status, message), err.status as 400, err.headers);
  }
  if (err instanceof HTTPException) {
    const status = err.status;
    const message = status >= 500 ? 'Server Error' : err.message || 'Bad Request';
    const body = status >= 500 ? withRequestId({ message }) : { message };
    return wantsJson(c) ? c.json(body, status) : c.html(renderErrorPage(c, status, message), status);
  }
  if (isUnstorableInput(err)) {
    // A value no validator stopped (a NUL byte, a too-long string): the client's doing, not a failure.
    logger.debug({ code: (err as { code?: string }).code, path: c.req.path }, 'database refused a value');
    return wantsJson(c)
      ? c.json({ message: UNSTORABLE }, 400)
      : c.html(renderErrorPage(c, 400, UNSTORABLE), 400);
  }
  if (isConnectionLost(err)) {
    // Not this request's fault nor a bug: the next request gets a new connection.
    logger.warn(
      { err: err.message, method: c.req.method, path: c.req.path },
      'database connection lost: 503',
    );
    const headers = { 'Retry-After': String(CONNECTION_LOST_RETRY_SECONDS) };
    return wantsJson(c)
      ? c.json(withRequestId({ message: UNAVAILABLE }), 503, headers)
      : c.html(renderErrorPage(c, 503, UNAVAILABLE), 503, headers);
  }
  logger.error({ err, method: c.req.method, path: c.req.path }, 'unhandled error');
  return wantsJson(c)
    ? c.json(withRequestId({ message: 'Server Error' }), 500)
    : c.html(renderErrorPage(c, 500, 'Server Error'), 500);
}

export function notFound(c: Context, page: ErrorPage = errorPage): Response {
  return wantsJson(c) ? c.json({ message: 'Not Found' }, 404) : c.html(page(404, 'Not Found'), 404);
}

/**
 * An error page as a full HTML document. The router's (`router.errorPage`) may add the site's
 * layout; `c` is the request, when one reached a route (its signed-in user, for the header).
 */
export type ErrorPage = (status: number, message: string, c?: Context) => string;

/** The router's error page when the request reached a route, else the plain one. */
export function renderErrorPage(c: Context, status: number, message: string): string {
  return (c.get('router')?.errorPage ?? errorPage)(status, message, c);
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

/** The plain error page: no layout, for answers given before any module could add one. */
export function errorPage(status: number, message: string): string {
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${status} · ${escapeHtml(message)}</title><link rel="stylesheet" href="/assets/app.css"></head><body><main class="error-page"><h1>${status}</h1><p>${escapeHtml(message)}</p><p><a href="/">Back to the start</a></p></main></body></html>`;
}
