import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as oauth from 'oauth4webapi';

/** The loopback redirect endpoint (RFC 8252 §7.3): one callback, answered once the flow is done. */
export interface Callback {
  redirectUri: string;
  /** The next request to /callback, and a way to answer the browser waiting on it. */
  next(): Promise<{ url: URL; respond(text: string, status?: number): void }>;
  close(): Promise<void>;
}

export async function listenForCallback(port = 0): Promise<Callback> {
  const waiting: Array<(hit: { url: URL; res: ServerResponse }) => void> = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', `http://${req.headers.host}`);
    if (url.pathname !== '/callback' || waiting.length === 0) return void res.writeHead(404).end();
    waiting.shift()!({ url, res });
  });
  await new Promise<void>((done) => server.listen(port, '127.0.0.1', done));
  const { port: actual } = server.address() as AddressInfo;
  return {
    redirectUri: `http://127.0.0.1:${actual}/callback`,
    next: () =>
      new Promise((resolve) =>
        waiting.push(({ url, res }) =>
          resolve({
            url,
            respond: (text, status = 200) =>
              res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' }).end(text),
          }),
        ),
      ),
    close: () => new Promise((done) => server.close(() => done())),
  };
}

export interface FlowOptions {
  /** The service's base URL, which is also its OAuth issuer (RFC 8414 discovery). */
  baseUrl: string;
  clientId: string;
  /** Omit for a public client (PKCE only). */
  clientSecret?: string;
  scope?: string;
  /** `consent` asks the service to show its approval page even if the user approved before. */
  prompt?: string;
  callback: Callback;
  /** Shows the user the authorization URL (prints it, or opens a browser). */
  open(url: URL): void | Promise<void>;
}

/**
 * The authorization code grant with PKCE (RFC 6749 §4.1, RFC 7636) against the service, then
 * `GET /api/user` with the access token. Throws oauth4webapi's `AuthorizationResponseError`
 * (`error: 'access_denied'`) when the user denies.
 */
export async function signIn(options: FlowOptions): Promise<SignedIn> {
  const { issuer, http, as } = await discover(options.baseUrl);
  const client: oauth.Client = { client_id: options.clientId };
  const auth = options.clientSecret ? oauth.ClientSecretBasic(options.clientSecret) : oauth.None();
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();

  const url = new URL(as.authorization_endpoint!);
  url.search = new URLSearchParams({
    client_id: client.client_id,
    redirect_uri: options.callback.redirectUri,
    response_type: 'code',
    scope: options.scope ?? '',
    state,
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    ...(options.prompt ? { prompt: options.prompt } : {}),
  }).toString();
  const pending = options.callback.next();
  await options.open(url);
  const { url: returned, respond } = await pending;
  try {
    const params = oauth.validateAuthResponse(as, client, returned, state);
    const response = await oauth.authorizationCodeGrantRequest(
      as,
      client,
      auth,
      params,
      options.callback.redirectUri,
      verifier,
      http,
    );
    const tokens = await oauth.processAuthorizationCodeResponse(as, client, response);
    const user = await fetchUser(issuer, tokens.access_token);
    respond('Signed in. You can close this tab and go back to the terminal.');
    return { user, scope: tokens.scope };
  } catch (err) {
    const reason = err instanceof oauth.AuthorizationResponseError ? err.error : (err as Error).message;
    respond(`Sign-in failed: ${reason}`, 400);
    throw err;
  }
}

/** What a finished sign-in shows: `GET /api/user` with the new token, and the granted scopes. */
export interface SignedIn {
  user: unknown;
  scope: string | undefined;
}

/** The service's metadata (RFC 8414 discovery); plain http is allowed for a local service. */
export async function discover(baseUrl: string) {
  const issuer = new URL(baseUrl);
  const http = { [oauth.allowInsecureRequests]: issuer.protocol === 'http:' };
  const as = await oauth.processDiscoveryResponse(
    issuer,
    await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...http }),
  );
  return { issuer, http, as };
}

/** `GET /api/user` with an access token. */
export async function fetchUser(issuer: URL, accessToken: string): Promise<unknown> {
  const api = await fetch(new URL('/api/user', issuer), {
    headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' },
  });
  if (!api.ok) throw new Error(`GET /api/user answered ${api.status}: ${await api.text()}`);
  return api.json();
}
