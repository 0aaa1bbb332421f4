import * as oauth from 'oauth4webapi';
import { expect } from 'vitest';
import { ISSUER, openIdClient, openIdRequest } from '../oauth/openid-support.js';
import {
  ADA,
  approvalFields,
  Browser,
  insecure,
  type OAuthTestApp,
  oauthApp,
  REDIRECT,
} from '../oauth/support.js';

/** A conformance module: one test named as the suite's module (`oidcc-…`). */
export interface Plan {
  t: OAuthTestApp;
  /** How authorization responses come back: the plans' `default` (query) or `form_post` variant. */
  mode: ResponseMode;
  ada: Browser;
  as: oauth.AuthorizationServer;
  /**
   * A confidential client, as the plans register it (`client_secret_basic` unless a module says
   * otherwise); `auth` when it authenticates otherwise (the Dynamic plan's `private_key_jwt`).
   */
  client: { id: string; secret: string; oauth: oauth.Client; auth?: oauth.ClientAuth };
}

/** The server with Ada logged in, its discovery document read by oauth4webapi, and a confidential client. */
export type ResponseMode = 'query' | 'form_post';

export async function startPlan(
  mode: ResponseMode = 'query',
  options: Parameters<typeof oauthApp>[0] = {},
): Promise<Plan> {
  const t = await oauthApp(options);
  const ada = new Browser(t.url);
  await ada.login(ADA);
  const issuer = new URL(ISSUER);
  const res = await fetch(`${t.url}/.well-known/openid-configuration`);
  const metadata = await oauth.processDiscoveryResponse(issuer, res);
  // oauth4webapi builds URLs from the issuer; the test server listens elsewhere.
  const here = (url: unknown) => (typeof url === 'string' ? url.replace(ISSUER, t.url) : undefined);
  const as: oauth.AuthorizationServer = {
    ...metadata,
    authorization_endpoint: here(metadata.authorization_endpoint),
    token_endpoint: here(metadata.token_endpoint),
    userinfo_endpoint: here(metadata.userinfo_endpoint),
    end_session_endpoint: here(metadata.end_session_endpoint),
  };
  const { client, plainSecret } = await t.createClient();
  return {
    t,
    mode,
    ada,
    as,
    client: { id: client.id, secret: plainSecret!, oauth: openIdClient(t, client.id) },
  };
}

/** How the plan's client authenticates: its own `auth`, else `client_secret_basic`. */
export function clientAuth(plan: Plan): oauth.ClientAuth {
  return plan.client.auth ?? secretAuth(plan);
}

/** `client_secret_basic` (or `client_secret_post`) of the plan's client. */
export function secretAuth(plan: Plan, method: 'basic' | 'post' = 'basic'): oauth.ClientAuth {
  return method === 'basic'
    ? oauth.ClientSecretBasic(plan.client.secret)
    : oauth.ClientSecretPost(plan.client.secret);
}

/**
 * The code flow as the suite runs it: an authorization request with `params`, approved in `browser`
 * (Ada's by default), the code exchanged with client authentication; the processed token response.
 */
export async function codeFlow(
  plan: Plan,
  options: { params?: Record<string, string>; browser?: Browser; auth?: oauth.ClientAuth } = {},
) {
  const request = await planRequest(plan, options.params);
  const callback = await approveIn(
    plan,
    options.browser ?? plan.ada,
    await (options.browser ?? plan.ada).get(request.path),
  );
  const response = await exchangeCode(plan, callback, request, options.auth);
  const nonce = options.params && 'nonce' in options.params ? options.params.nonce : request.nonce;
  const tokens = await oauth.processAuthorizationCodeResponse(plan.as, plan.client.oauth, response, {
    expectedNonce: nonce === '' || nonce === undefined ? oauth.expectNoNonce : nonce,
    requireIdToken: true,
  });
  return { tokens, claims: oauth.getValidatedIdTokenClaims(tokens)!, request, callback };
}

/** The userinfo response, checked by oauth4webapi against the ID token's subject. */
export async function userInfo(plan: Plan, accessToken: string, sub: string, response?: Response) {
  const res =
    response ??
    (await oauth.userInfoRequest(plan.as, plan.client.oauth, accessToken, {
      [oauth.allowInsecureRequests]: true,
    }));
  expect(res.status).toBe(200);
  return oauth.processUserInfoResponse(plan.as, plan.client.oauth, sub, res);
}

/** An OpenID authorization request of the plan's client and response mode (PKCE, state, nonce). */
export async function planRequest(plan: Plan, params: Record<string, string> = {}) {
  const mode: Record<string, string> = plan.mode === 'form_post' ? { response_mode: 'form_post' } : {};
  const request = await openIdRequest(plan.client.id, { scope: 'openid', ...mode, ...params });
  // An empty value leaves the parameter out (a request without a nonce).
  const url = new URL(request.path, 'http://localhost');
  for (const [key, value] of [...url.searchParams]) if (value === '') url.searchParams.delete(key);
  return { ...request, path: url.pathname + url.search };
}

/**
 * The authorization response in `res` as the client receives it: the redirect's query, or the
 * fields of the Form Post page (OAuth 2.0 Form Post Response Mode §2) posted to the redirect URI.
 * Undefined when the server showed an error page instead.
 */
export async function authorizationResponse(plan: Plan, res: Response): Promise<URLSearchParams | undefined> {
  if (plan.mode === 'query') {
    if (res.status !== 302) return undefined;
    const location = new URL(res.headers.get('location')!, plan.t.url);
    expect(location.origin + location.pathname).toBe(REDIRECT);
    return location.searchParams;
  }
  if (res.status !== 200) return undefined;
  const html = await res.text();
  const form = /<form[^>]*method="post"[^>]*action="([^"]+)"/.exec(html);
  if (!form) return undefined;
  expect(form[1]).toBe(REDIRECT);
  return new URLSearchParams(approvalFields(html, REDIRECT));
}

/** Approves the page in `res` when it is one, then the authorization response (which must be one). */
export async function approveIn(plan: Plan, browser: Browser, res: Response): Promise<URLSearchParams> {
  let answer = res;
  if (res.status === 200) {
    const html = await res.clone().text();
    if (html.includes('action="/oauth/authorize"'))
      answer = await browser.post('/oauth/authorize', approvalFields(html));
  }
  const params = await authorizationResponse(plan, answer);
  if (!params) throw new Error(`no authorization response: ${answer.status}`);
  return params;
}

/** Validates the authorization response (state, iss) and exchanges its code: the raw token response. */
export function exchangeCode(
  plan: Plan,
  callback: URLSearchParams,
  request: { state: string; verifier: string },
  auth: oauth.ClientAuth = clientAuth(plan),
): Promise<Response> {
  const params = oauth.validateAuthResponse(plan.as, plan.client.oauth, callback, request.state);
  return oauth.authorizationCodeGrantRequest(
    plan.as,
    plan.client.oauth,
    auth,
    params,
    REDIRECT,
    request.verifier,
    insecure,
  );
}
