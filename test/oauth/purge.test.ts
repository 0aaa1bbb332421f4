import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClientLogout } from '../../src/oauth/logout/client-logout.js';
import { ClientRegistrations } from '../../src/oauth/registration/client-registrations.js';
import { OAuthStoreKey } from '../../src/oauth/stores/contracts.js';
import { purgeInBatches } from '../../src/oauth/stores/purge.js';
import { ENGINES } from '../support/engines.js';
import { ADA, Browser, type OAuthTestApp, oauthApp, tokenRequest } from './support.js';

const HOUR = 3_600;

/**
 * `tollgate purge` on short-lived access tokens with long-lived refresh tokens, the usual set-up:
 * it deletes in batches, and never breaks a refresh token it keeps.
 */
describe.each(ENGINES)('purging tokens in batches (%s)', (engine) => {
  let t: OAuthTestApp;
  let client: { id: string; secret: string };

  beforeAll(async () => {
    t = await oauthApp({
      engine,
      config: { oauth: { accessTokenTtlSeconds: HOUR, refreshTokenTtlSeconds: 30 * 24 * HOUR } },
    });
    const created = await t.createClient({ password: true });
    client = { id: created.client.id, secret: created.plainSecret! };
  });
  afterAll(async () => t.stop());

  const passwordGrant = async () => {
    const res = await tokenRequest(t, {
      grant_type: 'password',
      client_id: client.id,
      client_secret: client.secret,
      username: ADA.email,
      password: ADA.password,
    });
    expect(res.status).toBe(200);
    return (await res.json()) as { access_token: string; refresh_token: string };
  };
  const rows = async (table: 'oauth_access_tokens' | 'oauth_refresh_tokens') =>
    Number(
      (
        await t.app.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('keeps an expired access token whose refresh token is still live, so the refresh grant works after', async () => {
    const { refresh_token } = await passwordGrant();
    t.clock.advance(10 * 24 * HOUR * 1000);
    const before = new Date(t.clock.now().getTime() - 7 * 24 * HOUR * 1000).toISOString();
    const counts = await t.app.container.make(OAuthStoreKey).purge({ revoked: true, expired: true, before });
    expect(counts.refreshTokens).toBe(0);
    const refreshed = await tokenRequest(t, {
      grant_type: 'refresh_token',
      client_id: client.id,
      client_secret: client.secret,
      refresh_token,
    });
    expect(refreshed.status).toBe(200);
  });

  it('deletes every due row across many small batches, and only those', async () => {
    for (let i = 0; i < 7; i++) await passwordGrant();
    const liveAccess = await rows('oauth_access_tokens');
    // 41 days on: every access token expired, and the refresh tokens (30 days) of all but the
    // last refresh too. The revoked ones (the refreshed chain above) go as well.
    t.clock.advance(41 * 24 * HOUR * 1000);
    const { access_token } = await passwordGrant();
    const before = t.clock.now().toISOString();
    const counts = await purgeInBatches(t.app.db, { revoked: true, expired: true, before, batchSize: 2 });
    expect(counts.accessTokens).toBe(liveAccess);
    expect(counts.refreshTokens).toBe(liveAccess);
    expect(await rows('oauth_access_tokens')).toBe(1);
    expect(await rows('oauth_refresh_tokens')).toBe(1);
    const { jti } = JSON.parse(Buffer.from(access_token.split('.')[1], 'base64url').toString());
    const kept = await t.app.db.selectFrom('oauth_access_tokens').select('id').executeTakeFirstOrThrow();
    expect(kept.id).toBe(jti);
  });

  it('two purges at once (two instances, or a cron that overlaps): each row goes once, nothing fails', async () => {
    for (let i = 0; i < 6; i++) await passwordGrant();
    t.clock.advance(41 * 24 * HOUR * 1000);
    const before = t.clock.now().toISOString();
    const due = await rows('oauth_access_tokens');
    const options = { revoked: true, expired: true, before, batchSize: 2 };
    const [a, b] = await Promise.all([purgeInBatches(t.app.db, options), purgeInBatches(t.app.db, options)]);
    expect(a.accessTokens + b.accessTokens).toBe(due);
    expect(a.refreshTokens + b.refreshTokens).toBe(due);
    expect(await rows('oauth_access_tokens')).toBe(0);
  });
});

describe.each(ENGINES)('purging initial access tokens (%s)', (engine) => {
  let t: OAuthTestApp;
  beforeAll(async () => {
    t = await oauthApp({ engine, config: { oauth: { registration: 'token' } } });
  });
  afterAll(async () => t.stop());

  it('RFC 7591 §3: an expired initial access token goes, a live one stays and still registers', async () => {
    const registrations = t.app.container.make(ClientRegistrations);
    const old = await registrations.createInitialToken(HOUR);
    t.clock.advance(10 * 24 * HOUR * 1000);
    const live = await registrations.createInitialToken(HOUR);
    const before = new Date(t.clock.now().getTime() - 7 * 24 * HOUR * 1000).toISOString();
    const store = t.app.container.make(OAuthStoreKey);
    expect((await store.purge({ revoked: false, expired: true, before })).registrationTokens).toBe(1);
    expect((await store.purge({ revoked: true, expired: false, before })).registrationTokens).toBe(0);
    const register = (token: string) =>
      fetch(`${t.url}/oauth/register`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ redirect_uris: ['https://app.example/cb'] }),
      });
    expect((await register(old.token)).status).toBe(401);
    expect((await register(live.token)).status).toBe(201);
  });
});

describe.each(ENGINES)('purging logout session records (%s)', (engine) => {
  let t: OAuthTestApp;
  beforeAll(async () => {
    t = await oauthApp({ engine });
  });
  afterAll(async () => t.stop());

  it("a login session's record of its clients goes once none of its user's sessions is alive", async () => {
    const { client } = await t.createClient();
    const logout = t.app.container.make(ClientLogout);
    const at = t.clock.now().toISOString();
    await logout.recordSession('ada-session', client.id, t.ada.id, at);
    await logout.recordSession('bob-session', client.id, t.bob.id, at);
    // Ada is still logged in somewhere; Bob's sessions are all gone.
    const ada = new Browser(t.url);
    await ada.login(ADA);
    t.clock.advance(HOUR * 1000);
    const before = t.clock.now().toISOString();
    const counts = await t.app.container.make(OAuthStoreKey).purge({ revoked: false, expired: true, before });
    expect(counts.logoutSessions).toBe(1);
    expect(await logout.takeSession('bob-session')).toEqual([]);
    expect(await logout.takeSession('ada-session')).toEqual([{ clientId: client.id, userId: t.ada.id }]);
  });
});
