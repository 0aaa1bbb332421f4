import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from '../support/engines.js';
import { ADA, basic, type OAuthTestApp, oauthApp } from './support.js';

/** RFC 7009 revocation and RFC 7662 introspection over raw HTTP. */
describe.each(ENGINES)('POST /oauth/revoke and /oauth/introspect (%s)', (engine) => {
  let t: OAuthTestApp;
  let app: { id: string; secret: string };
  let other: { id: string; secret: string };
  let publicId: string;

  beforeAll(async () => {
    t = await oauthApp({ engine });
    const a = await t.createClient({ password: true });
    app = { id: a.client.id, secret: a.plainSecret! };
    const o = await t.createClient();
    other = { id: o.client.id, secret: o.plainSecret! };
    publicId = (await t.createClient({ confidential: false })).client.id;
  });
  afterAll(async () => t.stop());

  const post = (path: string, fields: Record<string, string>, client = app) =>
    fetch(`${t.url}${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: basic(client.id, client.secret),
      },
      body: new URLSearchParams(fields),
    });
  const introspect = async (token: string, client = app) =>
    (await (await post('/oauth/introspect', { token }, client)).json()) as Record<string, unknown>;

  const tokens = async () => {
    const res = await fetch(`${t.url}/oauth/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: basic(app.id, app.secret),
      },
      body: new URLSearchParams({
        grant_type: 'password',
        username: ADA.email,
        password: ADA.password,
        scope: 'check-status',
      }),
    });
    return (await res.json()) as { access_token: string; refresh_token: string };
  };

  it('RFC 7662 §2.2: active tokens describe themselves; garbage is inactive', async () => {
    const { access_token, refresh_token } = await tokens();
    expect(await introspect(access_token)).toMatchObject({
      active: true,
      scope: 'check-status',
      client_id: app.id,
      sub: String(t.ada.id),
      token_type: 'Bearer',
    });
    expect(await introspect(refresh_token)).toMatchObject({ active: true, token_type: 'refresh_token' });
    expect(await introspect('garbage')).toEqual({ active: false });
  });

  it('RFC 7662: an expired token is inactive (injected clock)', async () => {
    const { access_token } = await tokens();
    t.clock.advanceDays(366);
    try {
      expect(await introspect(access_token)).toEqual({ active: false });
    } finally {
      t.clock.advanceDays(-366);
    }
  });

  it('RFC 7009 §2.2: 200 for unknown tokens; another client cannot revoke my token', async () => {
    const { access_token } = await tokens();
    expect((await post('/oauth/revoke', { token: 'unknown' })).status).toBe(200);
    expect((await post('/oauth/revoke', { token: access_token }, other)).status).toBe(200);
    expect((await introspect(access_token)).active).toBe(true);
  });

  it('RFC 7009 §2.1: revoking a refresh token revokes its access token too', async () => {
    const { access_token, refresh_token } = await tokens();
    const res = await post('/oauth/revoke', { token: refresh_token, token_type_hint: 'refresh_token' });
    expect(res.status).toBe(200);
    expect(await introspect(access_token)).toEqual({ active: false });
    expect(await introspect(refresh_token)).toEqual({ active: false });
  });

  it('errors: no token → invalid_request, bad credentials → invalid_client, public client may not introspect', async () => {
    const missing = await post('/oauth/revoke', {});
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as { error: string }).error).toBe('invalid_request');
    const wrong = await post('/oauth/introspect', { token: 'x' }, { id: app.id, secret: 'nope' });
    expect(wrong.status).toBe(401);
    expect(((await wrong.json()) as { error: string }).error).toBe('invalid_client');
    const pub = await fetch(`${t.url}/oauth/introspect`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ client_id: publicId, token: 'x' }),
    });
    expect(pub.status).toBe(401);
  });
});
