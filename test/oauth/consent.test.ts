import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from '../support/engines.js';
import { logInAgain } from './openid-support.js';
import {
  ADA,
  approvalFields,
  BOB,
  Browser,
  insecure,
  type OAuthTestApp,
  oauthApp,
  REDIRECT,
} from './support.js';

/**
 * When the approval page is skipped (Passport 13's rule, a first-party flag, `prompt=consent`),
 * and the per-client scope and grant limits, through real HTTP with oauth4webapi.
 */
describe.each(ENGINES)('consent and per-client limits (%s)', (engine) => {
  let t: OAuthTestApp;
  let ada: Browser;

  beforeAll(async () => {
    // Tokens live ten minutes here, so expiry can be reached without ending the login session.
    t = await oauthApp({ engine, config: { oauth: { accessTokenTtlSeconds: 600 } } });
    ada = new Browser(t.url);
    await ada.login(ADA);
  });
  afterAll(async () => t.stop());

  const client = async (input: Parameters<OAuthTestApp['createClient']>[0] = {}) => {
    const { client: record, plainSecret } = await t.createClient(input);
    return { id: record.id, auth: oauth.ClientSecretBasic(plainSecret!) };
  };

  /** GET /oauth/authorize as `browser`: either the approval page (200) or a redirect. */
  const authorize = (browser: Browser, clientId: string, params: Record<string, string> = {}) =>
    browser.get(
      `/oauth/authorize?${new URLSearchParams({
        client_id: clientId,
        redirect_uri: REDIRECT,
        response_type: 'code',
        scope: 'check-status',
        state: 'st',
        ...params,
      })}`,
    );

  /** The redirect's code, validated (iss, state) and exchanged: a live token for the user. */
  const redeem = async (c: { id: string; auth: oauth.ClientAuth }, res: Response) => {
    expect(res.status).toBe(302);
    const params = oauth.validateAuthResponse(
      t.as,
      { client_id: c.id },
      new URL(res.headers.get('location')!),
      'st',
    );
    const response = await oauth.authorizationCodeGrantRequest(
      t.as,
      { client_id: c.id },
      c.auth,
      params,
      REDIRECT,
      oauth.nopkce,
      insecure,
    );
    return oauth.processAuthorizationCodeResponse(t.as, { client_id: c.id }, response);
  };

  const approve = async (browser: Browser, res: Response) => {
    expect(res.status).toBe(200);
    return browser.post('/oauth/authorize', approvalFields(await res.text()));
  };

  it("Passport 13's rule: once the user approved these scopes for this client, the page is skipped", async () => {
    const shop = await client();
    await redeem(shop, await approve(ada, await authorize(ada, shop.id)));
    // Same scopes again: straight back to the client, with a code and iss.
    const again = await authorize(ada, shop.id);
    const tokens = await redeem(shop, again);
    expect(tokens.scope).toBe('check-status');
    // A scope not granted before: the page.
    const wider = await authorize(ada, shop.id, { scope: 'check-status place-orders' });
    expect(wider.status).toBe(200);
    await redeem(shop, await approve(ada, wider));
    // Every scope requested is covered by some live token of this client: skipped.
    expect((await authorize(ada, shop.id, { scope: 'place-orders' })).status).toBe(302);
    expect((await authorize(ada, shop.id, { scope: '' })).status).toBe(302);
    // Covered by two tokens together, the latest granting only one of the scopes: skipped too.
    const split = await client();
    await redeem(split, await approve(ada, await authorize(ada, split.id, { scope: 'place-orders' })));
    await redeem(split, await approve(ada, await authorize(ada, split.id)));
    expect((await authorize(ada, split.id, { scope: 'check-status place-orders' })).status).toBe(302);
    // Another user has approved nothing.
    const bob = new Browser(t.url);
    await bob.login(BOB);
    expect((await authorize(bob, shop.id)).status).toBe(200);
  });

  it('prompt=consent shows the page even when the scopes were approved before', async () => {
    const shop = await client();
    await redeem(shop, await approve(ada, await authorize(ada, shop.id)));
    const forced = await authorize(ada, shop.id, { prompt: 'consent' });
    expect(forced.status).toBe(200);
    expect(await forced.text()).toContain('Approve');
    // prompt=login asks for the login first, then the page.
    const relogin = await authorize(ada, shop.id, { prompt: 'login consent' });
    expect((await logInAgain(ada, relogin, ADA)).status).toBe(200);
  });

  it("revoking the client's tokens (the dashboard's Revoke) brings the page back; so does expiry", async () => {
    const shop = await client();
    await redeem(shop, await approve(ada, await authorize(ada, shop.id)));
    await redeem(shop, await authorize(ada, shop.id));
    const csrf = await ada.csrfToken();
    const tokens = (await (await ada.json('GET', '/oauth/tokens')).json()) as {
      id: string;
      client_id: string;
    }[];
    const mine = tokens.filter((token) => token.client_id === shop.id);
    expect(mine).toHaveLength(2);
    await ada.json('DELETE', `/oauth/tokens/${mine[0]!.id}`, undefined, csrf);
    // One live token still remembers the approval.
    expect((await authorize(ada, shop.id)).status).toBe(302);
    await ada.json('DELETE', `/oauth/tokens/${mine[1]!.id}`, undefined, csrf);
    expect((await authorize(ada, shop.id)).status).toBe(200);

    await redeem(shop, await approve(ada, await authorize(ada, shop.id)));
    expect((await authorize(ada, shop.id)).status).toBe(302);
    t.clock.advance(601_000);
    expect((await authorize(ada, shop.id)).status).toBe(200);
  });

  it('a first-party client is never asked about, unless prompt=consent', async () => {
    const own = await client({ name: 'Our mobile app', firstParty: true });
    const tokens = await redeem(own, await authorize(ada, own.id, { scope: 'check-status place-orders' }));
    expect(tokens.scope).toBe('check-status place-orders');
    expect((await authorize(ada, own.id, { prompt: 'consent' })).status).toBe(200);
    // Its checks still run: an unknown scope goes back as an error, not a code.
    const bad = await authorize(ada, own.id, { scope: 'launch-missiles' });
    expect(new URL(bad.headers.get('location')!).searchParams.get('error')).toBe('invalid_scope');
  });

  it('the JSON API sets scopes and grant_types, validated; first_party is for the operator only', async () => {
    const csrf = await ada.csrfToken();
    const created = await ada.json(
      'POST',
      '/oauth/clients',
      {
        name: 'Limited',
        redirect: REDIRECT,
        scopes: ['check-status'],
        grant_types: ['authorization_code', 'refresh_token'],
        first_party: true,
      },
      csrf,
    );
    expect(created.status).toBe(201);
    const body = (await created.json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      scopes: ['check-status'],
      grant_types: ['authorization_code', 'refresh_token'],
      first_party: false,
    });
    for (const bad of [
      { scopes: ['launch'] },
      { scopes: ['*'] },
      { grant_types: ['magic'] },
      { scopes: 'check-status' },
    ]) {
      const res = await ada.json('POST', '/oauth/clients', { name: 'x', redirect: REDIRECT, ...bad }, csrf);
      expect(res.status, JSON.stringify(bad)).toBe(422);
    }
    // PUT: an absent limit stays, null lifts it.
    const put = (fields: Record<string, unknown>) =>
      ada.json('PUT', `/oauth/clients/${body.id}`, { name: 'Limited', redirect: REDIRECT, ...fields }, csrf);
    expect(await (await put({ grant_types: null })).json()).toMatchObject({
      scopes: ['check-status'],
      grant_types: null,
    });
    expect((await authorize(ada, String(body.id), { scope: 'place-orders' })).status).toBe(302);
    expect(await (await put({ scopes: null })).json()).toMatchObject({ scopes: null });
    expect((await authorize(ada, String(body.id), { scope: 'place-orders' })).status).toBe(200);
  });

  it('a client limited to some scopes gets invalid_scope for the others, sent back with iss', async () => {
    const limited = await client({ allowedScopes: ['check-status'] });
    expect((await authorize(ada, limited.id)).status).toBe(200);
    const res = await authorize(ada, limited.id, { scope: 'check-status place-orders' });
    expect(res.status).toBe(302);
    const location = new URL(res.headers.get('location')!);
    expect(() => oauth.validateAuthResponse(t.as, { client_id: limited.id }, location, 'st')).toThrow(
      oauth.AuthorizationResponseError,
    );
    expect(location.searchParams.get('error')).toBe('invalid_scope');
    expect(location.searchParams.get('error_description')).toContain('place-orders');
  });

  it("RFC 6749 §5.2: at the token endpoint too, a scope outside the client's limit is invalid_scope", async () => {
    const limited = await client({ allowedScopes: ['check-status'] });
    const request = (scope: string) =>
      oauth.clientCredentialsGrantRequest(t.as, { client_id: limited.id }, limited.auth, { scope }, insecure);
    const refused = await request('check-status place-orders');
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ error: 'invalid_scope' });
    const granted = await oauth.processClientCredentialsResponse(
      t.as,
      { client_id: limited.id },
      await request('check-status'),
    );
    expect(granted.scope).toBe('check-status');
  });

  it('a client limited to some grant types gets unauthorized_client for the others', async () => {
    const machine = await client({ grantTypes: ['client_credentials'] });
    const res = await authorize(ada, machine.id);
    expect(new URL(res.headers.get('location')!).searchParams.get('error')).toBe('unauthorized_client');
    const clientCredentials = (c: { id: string; auth: oauth.ClientAuth }) =>
      oauth.clientCredentialsGrantRequest(t.as, { client_id: c.id }, c.auth, {}, insecure);
    expect((await clientCredentials(machine)).status).toBe(200);

    const web = await client({ grantTypes: ['authorization_code'] });
    const refused = await clientCredentials(web);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ error: 'unauthorized_client' });
    // Without refresh_token in its list, its refresh tokens are refused too.
    const tokens = await redeem(web, await approve(ada, await authorize(ada, web.id)));
    const refresh = await oauth.refreshTokenGrantRequest(
      t.as,
      { client_id: web.id },
      web.auth,
      tokens.refresh_token!,
      insecure,
    );
    expect(refresh.status).toBe(400);
    expect(await refresh.json()).toMatchObject({ error: 'unauthorized_client' });
  });
});
