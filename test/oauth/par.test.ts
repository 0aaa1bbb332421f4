import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OAuthStoreKey } from '../../src/oauth/stores/contracts.js';
import { ENGINES } from '../support/engines.js';
import { logInAgain } from './openid-support.js';
import { ADA, approvalFields, Browser, insecure, type OAuthTestApp, oauthApp, REDIRECT } from './support.js';

const ISSUER = 'http://localhost';

/** RFC 9126 through oauth4webapi: push, authorize with the request_uri, approve, exchange with PKCE. */
describe.each(ENGINES)('pushed authorization requests (%s)', (engine) => {
  let t: OAuthTestApp;
  let as: oauth.AuthorizationServer;
  let ada: Browser;
  let publicClient: oauth.Client;
  let confidential: { client: oauth.Client; auth: oauth.ClientAuth };

  beforeAll(async () => {
    t = await oauthApp({ engine });
    const pub = await t.createClient({ name: 'Order Tracker', confidential: false });
    publicClient = { client_id: pub.client.id };
    const conf = await t.createClient({ name: 'Back Office' });
    confidential = {
      client: { client_id: conf.client.id },
      auth: oauth.ClientSecretBasic(conf.plainSecret!),
    };
    ada = new Browser(t.url);
    await ada.login(ADA);
    as = { ...t.as, pushed_authorization_request_endpoint: `${t.url}/oauth/par` };
  });
  afterAll(async () => t.stop());

  const push = async (
    client: oauth.Client,
    auth: oauth.ClientAuth,
    params: Record<string, string> = {},
  ): Promise<{ requestUri: string; verifier: string }> => {
    const verifier = oauth.generateRandomCodeVerifier();
    const res = await oauth.pushedAuthorizationRequest(
      as,
      client,
      auth,
      {
        redirect_uri: REDIRECT,
        response_type: 'code',
        scope: 'check-status',
        state: 's-par',
        code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        ...params,
      },
      insecure,
    );
    expect(res.status).toBe(201);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const pushed = await oauth.processPushedAuthorizationResponse(as, client, res);
    expect(pushed.request_uri).toMatch(/^urn:ietf:params:oauth:request_uri:[\w-]{43}$/);
    expect(pushed.expires_in).toBe(60);
    return { requestUri: pushed.request_uri, verifier };
  };

  const authorize = (clientId: string, requestUri: string, extra: Record<string, string> = {}) =>
    ada.get(
      `/oauth/authorize?${new URLSearchParams({ client_id: clientId, request_uri: requestUri, ...extra })}`,
    );

  /** The approval page, or (the user approved this client and scopes before) the code at once. */
  const accepted = (res: Response) => res.status === 200 || res.status === 302;

  const approve = async (page: Response): Promise<URL> => {
    expect(page.status).toBe(200);
    const res = await ada.post('/oauth/authorize', approvalFields(await page.text()));
    expect(res.status).toBe(302);
    return new URL(res.headers.get('location')!);
  };

  const exchange = async (client: oauth.Client, auth: oauth.ClientAuth, location: URL, verifier: string) => {
    const params = oauth.validateAuthResponse(as, client, location, 's-par');
    const res = await oauth.authorizationCodeGrantRequest(
      as,
      client,
      auth,
      params,
      REDIRECT,
      verifier,
      insecure,
    );
    return oauth.processAuthorizationCodeResponse(as, client, res);
  };

  it('RFC 8414: the metadata names the endpoint and whether pushing is required', async () => {
    const issuer = new URL(ISSUER);
    const res = await oauth.discoveryRequest(issuer, {
      algorithm: 'oauth2',
      ...insecure,
      [oauth.customFetch]: (url: string, init: RequestInit) => fetch(url.replace(ISSUER, t.url), init),
    });
    const metadata = await oauth.processDiscoveryResponse(issuer, res);
    expect(metadata.pushed_authorization_request_endpoint).toBe(`${ISSUER}/oauth/par`);
    expect(metadata.require_pushed_authorization_requests).toBe(false);
  });

  it('a public client pushes, the user approves the pushed request, the code exchanges with PKCE', async () => {
    const { requestUri, verifier } = await push(publicClient, oauth.None());
    // RFC 9126 §4: query parameters besides client_id and request_uri are ignored.
    const page = await authorize(publicClient.client_id, requestUri, {
      scope: 'place-orders',
      state: 'other',
    });
    const html = await page.clone().text();
    expect(html).toContain('Check the status of your orders');
    expect(html).not.toContain('Place orders on your behalf');
    const tokens = await exchange(publicClient, oauth.None(), await approve(page), verifier);
    expect(tokens.token_type).toBe('bearer');
    expect(tokens.scope).toBe('check-status');
  });

  it('prompt=login in a pushed request: the login leads back through a fresh request_uri', async () => {
    const { requestUri, verifier } = await push(publicClient, oauth.None(), {
      prompt: 'login',
      scope: 'place-orders',
    });
    const asked = await authorize(publicClient.client_id, requestUri);
    const page = await logInAgain(ada, asked, ADA);
    expect(page.status).toBe(200);
    const tokens = await exchange(publicClient, oauth.None(), await approve(page), verifier);
    expect(tokens.scope).toBe('place-orders');
    // The first request_uri stays used.
    expect((await authorize(publicClient.client_id, requestUri)).status).toBe(400);
  });

  it('a confidential client authenticates with its secret at /oauth/par', async () => {
    const { client, auth } = confidential;
    const { requestUri, verifier } = await push(client, auth, { scope: 'place-orders' });
    const tokens = await exchange(
      client,
      auth,
      await approve(await authorize(client.client_id, requestUri)),
      verifier,
    );
    expect(tokens.scope).toBe('place-orders');

    const wrong = await oauth.pushedAuthorizationRequest(
      as,
      client,
      oauth.ClientSecretBasic('not-the-secret'),
      { redirect_uri: REDIRECT, response_type: 'code' },
      insecure,
    );
    expect(wrong.status).toBe(401);
    expect((await wrong.json()).error).toBe('invalid_client');
  });

  it('RFC 9126 §4: a request_uri is single use — the replay is refused with a page', async () => {
    const { requestUri } = await push(publicClient, oauth.None());
    expect(accepted(await authorize(publicClient.client_id, requestUri))).toBe(true);
    const again = await authorize(publicClient.client_id, requestUri);
    expect(again.status).toBe(400);
    expect(await again.text()).toContain('The request_uri is unknown, expired or was already used.');
  });

  it('two uses at once: exactly one is accepted', async () => {
    const { requestUri } = await push(publicClient, oauth.None());
    const answers = await Promise.all([1, 2, 3].map(() => authorize(publicClient.client_id, requestUri)));
    expect(answers.filter(accepted)).toHaveLength(1);
    expect(answers.filter((r) => r.status === 400)).toHaveLength(2);
  });

  it('an expired request_uri is refused', async () => {
    const { requestUri } = await push(publicClient, oauth.None());
    t.clock.advance(61_000);
    const res = await authorize(publicClient.client_id, requestUri);
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('The request_uri is unknown, expired or was already used.');
  });

  it('purge deletes expired pushed requests', async () => {
    await push(publicClient, oauth.None());
    t.clock.advance(61_000);
    const store = t.app.container.make(OAuthStoreKey);
    const counts = await store.purge({ revoked: false, expired: true, before: t.clock.now().toISOString() });
    expect(counts.pushedRequests).toBeGreaterThan(0);
  });

  it("another client's request_uri is refused, and stays usable by its own client", async () => {
    const { requestUri } = await push(publicClient, oauth.None());
    const stolen = await authorize(confidential.client.client_id, requestUri);
    expect(stolen.status).toBe(400);
    expect(accepted(await authorize(publicClient.client_id, requestUri))).toBe(true);
  });

  it('invalid parameters are refused at /oauth/par as RFC 6749 §5.2 JSON', async () => {
    const post = (fields: Record<string, string>) =>
      fetch(`${t.url}/oauth/par`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ client_id: publicClient.client_id, ...fields }),
      });
    const base = {
      redirect_uri: REDIRECT,
      response_type: 'code',
      code_challenge: 'x'.repeat(43),
      code_challenge_method: 'S256',
    };
    const cases: [Record<string, string>, string][] = [
      [{ ...base, redirect_uri: 'https://evil.example/cb' }, 'invalid_request'],
      [{ ...base, code_challenge: '' }, 'invalid_request'],
      [{ ...base, scope: 'launch-missiles' }, 'invalid_scope'],
      [{ ...base, response_type: 'id_token' }, 'unsupported_response_type'],
      [{ ...base, request_uri: 'urn:ietf:params:oauth:request_uri:x' }, 'invalid_request'],
    ];
    for (const [fields, error] of cases) {
      const res = await post(fields);
      expect(res.status, JSON.stringify(fields)).toBe(400);
      expect(res.headers.get('content-type')).toContain('application/json');
      expect((await res.json()).error).toBe(error);
    }
    const unknown = await post({ ...base, client_id: 'no-such-client' });
    expect(unknown.status).toBe(401);
  });

  it('a client that requires PAR: plain authorization requests are refused, pushed ones work', async () => {
    const created = await t.createClient({
      name: 'Strict',
      confidential: false,
      requirePushedAuthorizationRequests: true,
    });
    const client = { client_id: created.client.id };
    const verifier = oauth.generateRandomCodeVerifier();
    const plain = await ada.get(
      `/oauth/authorize?${new URLSearchParams({
        client_id: client.client_id,
        redirect_uri: REDIRECT,
        response_type: 'code',
        state: 's-par',
        code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
      })}`,
    );
    expect(plain.status).toBe(302);
    const refused = new URL(plain.headers.get('location')!);
    expect(refused.searchParams.get('error')).toBe('invalid_request');
    expect(refused.searchParams.get('error_description')).toContain('push');

    const { requestUri, verifier: pushedVerifier } = await push(client, oauth.None());
    const tokens = await exchange(
      client,
      oauth.None(),
      await approve(await authorize(client.client_id, requestUri)),
      pushedVerifier,
    );
    expect(tokens.access_token).toBeTypeOf('string');
  });
});

describe.each(ENGINES)('PAR required by the server (%s)', (engine) => {
  let t: OAuthTestApp;

  beforeAll(async () => {
    t = await oauthApp({
      engine,
      config: { oauth: { requirePushedAuthorizationRequests: true, pushedRequestTtlSeconds: 30 } },
    });
  });
  afterAll(async () => t.stop());

  it('advertises it, sets the TTL, and refuses a plain request', async () => {
    const metadata = await (await fetch(`${t.url}/.well-known/oauth-authorization-server`)).json();
    expect(metadata.require_pushed_authorization_requests).toBe(true);
    const { client } = await t.createClient({ confidential: false });
    const pushed = await fetch(`${t.url}/oauth/par`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        client_id: client.id,
        redirect_uri: REDIRECT,
        response_type: 'code',
        code_challenge: 'x'.repeat(43),
        code_challenge_method: 'S256',
      }),
    });
    expect(pushed.status).toBe(201);
    expect((await pushed.json()).expires_in).toBe(30);

    const ada = new Browser(t.url);
    await ada.login(ADA);
    const plain = await ada.get(
      `/oauth/authorize?${new URLSearchParams({
        client_id: client.id,
        redirect_uri: REDIRECT,
        response_type: 'code',
        code_challenge: 'x'.repeat(43),
        code_challenge_method: 'S256',
      })}`,
    );
    expect(plain.status).toBe(302);
    expect(new URL(plain.headers.get('location')!).searchParams.get('error')).toBe('invalid_request');
  });
});
