import type { Context } from 'hono';
import { formFields } from './form-fields.js';
import { readForm, readQuery } from './respond.js';

/** The authorization endpoint's path: the GET and POST of a request, and the approval form. */
export const AUTHORIZE_PATH = '/oauth/authorize';

/**
 * OpenID Connect Core §3.1.2.1: the authorization endpoint takes a request by GET (the query) or
 * by POST (a form-encoded body). A POST carrying the approval page's `auth_token` or a CSRF
 * `_token` is the user's decision instead.
 */
export async function isAuthorizationRequestPost(c: Context): Promise<boolean> {
  if (c.req.method !== 'POST' || c.req.path !== AUTHORIZE_PATH) return false;
  const fields = await formFields(c);
  return fields !== undefined && !fields.has('auth_token') && !fields.has('_token');
}

/**
 * The parameters of an authorization request, by GET or by POST; undefined for the approval
 * form's decision. A repeated parameter is refused (RFC 6749 §3.1).
 */
export async function authorizationRequestParams(c: Context): Promise<Record<string, string> | undefined> {
  if (c.req.method === 'GET' || c.req.method === 'HEAD') return readQuery(c);
  return (await isAuthorizationRequestPost(c)) ? readForm(c) : undefined;
}

/** The request as the equivalent GET's path and query, for the login page's way back. */
export function asAuthorizeGet(params: Readonly<Record<string, string>>): string {
  return `${AUTHORIZE_PATH}?${new URLSearchParams(params)}`;
}

/**
 * RP-Initiated Logout §2: a client's page may POST its logout request; without the confirmation
 * form's `_token` it is never taken as confirmed, so it needs no CSRF check.
 */
export async function isLogoutRequestPost(c: Context): Promise<boolean> {
  if (c.req.method !== 'POST' || c.req.path !== LOGOUT_PATH) return false;
  const fields = await formFields(c);
  return fields !== undefined && !fields.has('_token');
}

/** The `end_session_endpoint`. */
export const LOGOUT_PATH = '/oauth/logout';
