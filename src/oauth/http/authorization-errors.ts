import type { Context } from 'hono';
import { renderErrorPage } from '../../http/error-handler.js';
import { errorRedirectTarget, type RedirectTarget } from '../authorization/authorization-request.js';
import type { AuthorizationService } from '../authorization/authorization-service.js';
import { OAuthError } from '../errors.js';
import { formPostResponse } from './form-post.js';
import { decisionPageHeaders } from './pending-decision.js';

/** A redirect from the authorization endpoint: never cached. */
export function authorizationRedirect(c: Context, url: string): Response {
  return c.body(null, 302, { Location: url, 'Cache-Control': 'no-store' });
}

/** An authorization response (`url`, as a redirect would carry it) sent back in the request's response mode. */
export function authorizationAnswer(
  c: Context,
  url: string,
  target: Pick<RedirectTarget, 'uri' | 'responseMode'>,
): Response {
  return target.responseMode === 'form_post'
    ? formPostResponse(c, url, target.uri)
    : authorizationRedirect(c, url);
}

/**
 * An error of the authorization endpoint (RFC 6749 §4.1.2.1): back to the client when the client
 * and redirect URI checked out and someone this server knows registered the client, else a page
 * for the user (RFC 9700 §4.11.2). Anything but an `OAuthError` is rethrown.
 */
export async function authorizationErrorResponse(
  c: Context,
  service: AuthorizationService,
  err: unknown,
  query: Readonly<Record<string, string | undefined>>,
): Promise<Response> {
  if (!(err instanceof OAuthError)) throw err;
  const target = errorRedirectTarget(err, query);
  if (!target) return authorizationErrorPage(c, err);
  if (await service.redirectsErrorsTo(query.client_id ?? '')) {
    return authorizationAnswer(c, service.errorRedirect(err, target), target);
  }
  const message = `${err.description} The application registered itself, so you are not sent on to ${hostOf(target.uri)}.`;
  return c.html(renderErrorPage(c, 400, message), 400, decisionPageHeaders);
}

/** The host of a redirect URI; a private-use scheme (`com.example.app:/cb`) is shown as the scheme. */
export function hostOf(uri: string): string {
  const url = new URL(uri);
  return url.host || url.protocol;
}

/**
 * A client or redirect URI that cannot be trusted: shown to the user, never redirected to. An
 * unknown client is "not registered"; a refused metadata document says why (for its developer).
 */
export function authorizationErrorPage(c: Context, err: OAuthError): Response {
  const unknown = err.clientAuthenticationFailed;
  const message = unknown ? 'The application asking for access is not registered.' : err.description;
  const status = (err.status === 401 ? 400 : err.status) as 400;
  return c.html(renderErrorPage(c, status, message), status, decisionPageHeaders);
}
