import { authProvider } from 'tollgate';
import { Clients, defineGrant, OAuthError, oauthProvider, registerOAuthRoutes, Scopes } from 'tollgate/oauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installKeys } from '../../src/oauth/keys/key-files.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { ANY_ENGINE } from '../support/engines.js';

/** docs/oauth.md's extension points, imported from the package's entry points as an application does. */
describe(`a grant of one's own and routes declared by hand`, () => {
  let t: TestApp;
  const codes = new Set(['123456']);
  const otpGrant = defineGrant({
    grantType: 'urn:example:otp',
    parameters: { required: ['otp'], optional: ['scope'] },
    async handle({ client, params }, services) {
      if (!codes.delete(params.otp)) throw OAuthError.invalidGrant('The code is not valid.');
      const scopes = services.scopes.validate(Scopes.parse(params.scope), { allowAll: false });
      const issued = await services.issuer.issue({ client, userId: null, scopes, ttlSeconds: 3600 });
      return issued.response;
    },
  });

  beforeAll(async () => {
    t = await createTestApp({
      engine: ANY_ENGINE,
      providers: [authProvider(), oauthProvider({ grants: [otpGrant], routes: false })],
      config: { oauth: { scopes: { 'check-status': 'Check the status of your orders' } } },
      setup: (app) => {
        installKeys(app.config.storagePath, app.config.oauth.signingAlgorithm);
        app.router.get('/oauth/clients', (c) => c.json({ message: 'Ours, not the JSON API.' }));
        registerOAuthRoutes(app.router);
      },
    });
  });
  afterAll(async () => t?.close());

  const token = (fields: Record<string, string>) =>
    t.request('/oauth/token', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields),
    });

  it('the token endpoint runs the grant after its checks: a valid code once, then invalid_grant', async () => {
    const { client, plainSecret } = await t.app.container
      .make(Clients)
      .create({ name: 'Machine', redirect: 'http://127.0.0.1:9999/callback' });
    const fields = {
      grant_type: 'urn:example:otp',
      client_id: client.id,
      client_secret: plainSecret!,
      otp: '123456',
    };

    const missing = await token({ ...fields, otp: '' });
    expect([missing.status, ((await missing.json()) as { error: string }).error]).toEqual([
      400,
      'invalid_request',
    ]);
    const wrongSecret = await token({ ...fields, client_secret: 'nope' });
    expect(wrongSecret.status).toBe(401);

    const issued = await token({ ...fields, scope: 'check-status' });
    expect(issued.status).toBe(200);
    expect(await issued.json()).toMatchObject({
      token_type: 'Bearer',
      expires_in: 3600,
      scope: 'check-status',
    });

    const reused = await token(fields);
    expect([reused.status, await reused.json()]).toEqual([
      400,
      { error: 'invalid_grant', error_description: 'The code is not valid.' },
    ]);
  });

  it('registerOAuthRoutes declares the routes after the application’s own: the first one wins', async () => {
    expect(await (await t.request('/oauth/clients')).json()).toEqual({ message: 'Ours, not the JSON API.' });
    expect((await t.request('/.well-known/oauth-authorization-server')).status).toBe(200);
  });
});
