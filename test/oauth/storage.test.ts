import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { User } from '../../src/auth/user.js';
import { UserModelKey, Users } from '../../src/auth/users.js';
import {
  AccessTokenCreated,
  AccessTokenRevoked,
  ClientRevoked,
  HasApiTokens,
  OAuthError,
  PersonalAccessClientMissing,
  RefreshTokenCreated,
} from '../../src/oauth/index.js';
import { AccessTokenVerifier } from '../../src/oauth/jwt/access-token-verifier.js';
import { OAuthStoreKey } from '../../src/oauth/stores/contracts.js';
import { TokenRevoker } from '../../src/oauth/tokens/token-revoker.js';
import { ENGINES } from '../support/engines.js';
import { ADA, type OAuthTestApp, oauthApp, REDIRECT, tokenRequest } from './support.js';

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

class AppUser extends HasApiTokens(User) {}

describe.each(ENGINES)('OAuth storage, events and the HasApiTokens mixin (%s)', (engine) => {
  let t: OAuthTestApp;

  beforeAll(async () => {
    t = await oauthApp({ engine });
    t.app.container.instance(UserModelKey, AppUser);
  });
  afterAll(async () => t.stop());

  it('createToken needs a personal access client: a clear error before `tollgate install`', async () => {
    const user = (await t.app.container.make(Users).find<AppUser>(t.ada.id))!;
    await expect(user.createToken('early')).rejects.toBeInstanceOf(PersonalAccessClientMissing);
    await expect(user.createToken('early')).rejects.toThrow(/tollgate install/);
  });

  it('security: secrets, codes and refresh tokens are stored only as SHA-256 hashes', async () => {
    const { client, plainSecret } = await t.createClient({ password: true });
    const clientRow = await t.app.db
      .selectFrom('oauth_clients')
      .selectAll()
      .where('id', '=', client.id)
      .executeTakeFirstOrThrow();
    expect(clientRow.secret).toBe(sha256(plainSecret!));
    expect(JSON.stringify(clientRow)).not.toContain(plainSecret!);

    const res = await tokenRequest(t, {
      grant_type: 'password',
      client_id: client.id,
      client_secret: plainSecret!,
      username: ADA.email,
      password: ADA.password,
    });
    const tokens = (await res.json()) as { access_token: string; refresh_token: string };
    const refreshRows = await t.app.db.selectFrom('oauth_refresh_tokens').selectAll().execute();
    expect(refreshRows.map((r) => r.id)).toContain(sha256(tokens.refresh_token));
    const accessRows = await t.app.db.selectFrom('oauth_access_tokens').selectAll().execute();
    const everything = JSON.stringify([refreshRows, accessRows]);
    expect(everything).not.toContain(tokens.refresh_token);
    expect(everything).not.toContain(tokens.access_token);
    expect(everything).not.toContain(tokens.access_token.split('.')[2]!);

    // An authorization code: only its hash is kept.
    const { client: web } = await t.createClient();
    const { AuthorizationService } = await import('../../src/oauth/authorization/authorization-service.js');
    const url = await t.app.container.make(AuthorizationService).approve(
      {
        clientId: web.id,
        redirectUri: REDIRECT,
        responseType: 'code',
        scopes: [],
        state: null,
        codeChallenge: null,
        codeChallengeMethod: null,
        nonce: null,
        maxAge: null,
        prompt: [],
      },
      t.ada.id,
    );
    const code = new URL(url).searchParams.get('code')!;
    const codeRows = await t.app.db.selectFrom('oauth_auth_codes').selectAll().execute();
    expect(codeRows.map((r) => r.id)).toContain(sha256(code));
    expect(JSON.stringify(codeRows)).not.toContain(code);
  });

  it('raises AccessTokenCreated and RefreshTokenCreated on every issue; listeners may revoke other tokens', async () => {
    const { client, plainSecret } = await t.createClient({ password: true });
    const created: AccessTokenCreated[] = [];
    const refreshed: RefreshTokenCreated[] = [];
    const revoker = t.app.container.make(TokenRevoker);
    const store = t.app.container.make(OAuthStoreKey);
    // Passport's classic listener: keep only the newest token per user and client.
    const stop = [
      t.app.events.listen(AccessTokenCreated, async (event) => {
        created.push(event);
        const others = (await store.accessTokens.forUser(event.userId!, { now: t.clock.now().toISOString() }))
          .filter((x) => x.clientId === event.clientId && x.id !== event.tokenId)
          .map((x) => x.id);
        await revoker.announce(await revoker.revokeAccessTokens(others));
      }),
      t.app.events.listen(RefreshTokenCreated, (event) => {
        refreshed.push(event);
      }),
    ];
    try {
      const issue = async () =>
        (await (
          await tokenRequest(t, {
            grant_type: 'password',
            client_id: client.id,
            client_secret: plainSecret!,
            username: ADA.email,
            password: ADA.password,
          })
        ).json()) as { access_token: string };
      const first = await issue();
      const second = await issue();
      const verifier = t.app.container.make(AccessTokenVerifier);
      const a = await verifier.verify(first.access_token);
      const b = await verifier.verify(second.access_token);
      expect(created.map((e) => [e.tokenId, e.userId, e.clientId])).toEqual([
        [a.jti, t.ada.id, client.id],
        [b.jti, t.ada.id, client.id],
      ]);
      expect(refreshed.map((e) => e.accessTokenId)).toEqual([a.jti, b.jti]);
      expect((await store.accessTokens.find(a.jti))?.revoked).toBe(true);
      expect((await store.accessTokens.find(b.jti))?.revoked).toBe(false);
    } finally {
      for (const off of stop) off();
    }
  });

  it('HasApiTokens: createToken, tokens, withAccessToken, tokenCan', async () => {
    await t.createClient({ personalAccess: true, name: 'Personal Access Client' });
    const user = (await t.app.container.make(Users).find<AppUser>(t.ada.id))!;
    const { accessToken, token } = await user.createToken('Deploy key', ['check-status']);
    expect(token).toMatchObject({ name: 'Deploy key', scopes: ['check-status'], userId: t.ada.id });
    const claims = await t.app.container.make(AccessTokenVerifier).verify(accessToken);
    expect(claims.jti).toBe(token.id);
    expect((await user.tokens()).map((x) => x.id)).toContain(token.id);

    expect(user.tokenCan('check-status')).toBe(false);
    user.withAccessToken(token);
    expect(user.token()?.id).toBe(token.id);
    expect(user.tokenCan('check-status')).toBe(true);
    expect(user.tokenCan('place-orders')).toBe(false);
    user.withAccessToken({ ...token, scopes: ['*'] });
    expect(user.tokenCan('place-orders')).toBe(true);

    await expect(user.createToken('bad', ['*'])).rejects.toBeInstanceOf(OAuthError);
    await expect(user.createToken('bad', ['nope'])).rejects.toMatchObject({ code: 'invalid_scope' });
  });

  it('personal access tokens ignore the configured access token lifetime', async () => {
    const short = await oauthApp({ engine, config: { oauth: { accessTokenTtlSeconds: 60 } } });
    try {
      short.app.container.instance(UserModelKey, AppUser);
      await short.createClient({ personalAccess: true });
      const user = (await short.app.container.make(Users).find<AppUser>(short.ada.id))!;
      const { accessToken } = await user.createToken('long');
      const claims = await short.app.container.make(AccessTokenVerifier).verify(accessToken);
      expect(claims.exp - claims.iat).toBe(365 * 24 * 3600);
      const { client, plainSecret } = await short.createClient();
      const cc = (await (
        await tokenRequest(short, {
          grant_type: 'client_credentials',
          client_id: client.id,
          client_secret: plainSecret!,
        })
      ).json()) as { expires_in: number };
      expect(cc.expires_in).toBe(60);
    } finally {
      await short.stop();
    }
  });

  it('revoke(tokenId) raises AccessTokenRevoked; revoking a client raises ClientRevoked; findWithClient sees both', async () => {
    const { client, plainSecret } = await t.createClient();
    const issue = async () =>
      (
        (await (
          await tokenRequest(t, {
            grant_type: 'client_credentials',
            client_id: client.id,
            client_secret: plainSecret!,
          })
        ).json()) as { access_token: string }
      ).access_token;
    const verifier = t.app.container.make(AccessTokenVerifier);
    const one = (await verifier.verify(await issue())).jti;
    const two = (await verifier.verify(await issue())).jti;
    const revokedEvents: string[] = [];
    const clientEvents: string[] = [];
    const offs = [
      t.app.events.listen(AccessTokenRevoked, (e) => {
        revokedEvents.push(e.tokenId);
      }),
      t.app.events.listen(ClientRevoked, (e) => {
        clientEvents.push(e.clientId);
      }),
    ];
    try {
      const revoker = t.app.container.make(TokenRevoker);
      expect(await revoker.revoke(one)).toBe(true);
      expect(await revoker.revoke(one)).toBe(false);
      expect(revokedEvents).toEqual([one]);
      const store = t.app.container.make(OAuthStoreKey);
      expect(await store.accessTokens.findWithClient(one)).toMatchObject({
        revoked: true,
        client: { revoked: false },
      });
      await revoker.revokeClient(client.id);
      expect(clientEvents).toEqual([client.id]);
      expect(revokedEvents).toEqual([one, two]);
      expect(await store.accessTokens.findWithClient(two)).toMatchObject({
        revoked: true,
        client: { revoked: true },
      });
    } finally {
      for (const off of offs) off();
    }
  });

  it('the verifier refuses expired tokens (injected clock), foreign signatures and garbage', async () => {
    const { client, plainSecret } = await t.createClient();
    const { access_token } = (await (
      await tokenRequest(t, {
        grant_type: 'client_credentials',
        client_id: client.id,
        client_secret: plainSecret!,
      })
    ).json()) as { access_token: string };
    const verifier = t.app.container.make(AccessTokenVerifier);
    t.clock.advanceDays(366);
    try {
      await expect(verifier.verify(access_token)).rejects.toMatchObject({
        code: 'invalid_token',
        status: 401,
      });
    } finally {
      t.clock.advanceDays(-366);
    }
    const [h, p] = access_token.split('.');
    await expect(verifier.verify(`${h}.${p}.AAAA`)).rejects.toMatchObject({ code: 'invalid_token' });
    await expect(verifier.verify('not.a.jwt')).rejects.toMatchObject({ code: 'invalid_token' });
    const other = await oauthApp({ engine });
    try {
      await expect(other.app.container.make(AccessTokenVerifier).verify(access_token)).rejects.toMatchObject({
        code: 'invalid_token',
      });
    } finally {
      await other.stop();
    }
  });

  it('purge deletes revoked and expired rows', async () => {
    const store = t.app.container.make(OAuthStoreKey);
    const count = async () =>
      Number(
        (
          await t.app.db
            .selectFrom('oauth_access_tokens')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await count();
    const revoked = await store.purge({ revoked: true, expired: false, before: t.clock.now().toISOString() });
    expect(revoked.accessTokens).toBeGreaterThan(0);
    expect(await count()).toBe(before - revoked.accessTokens);
    const none = await store.purge({ revoked: false, expired: true, before: t.clock.now().toISOString() });
    expect(none.accessTokens).toBe(0);
    const all = await store.purge({
      revoked: false,
      expired: true,
      before: new Date(t.clock.now().getTime() + 10 * 365 * 86_400_000).toISOString(),
    });
    expect(all.accessTokens).toBe(await count().then((n) => before - revoked.accessTokens - n));
    expect(await count()).toBe(0);
  });
});
