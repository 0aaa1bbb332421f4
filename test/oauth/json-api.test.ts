import { afterAll, beforeAll, describe, expect, it, type MockInstance } from 'vitest';
import { Clients } from '../../src/oauth/clients/clients.js';
import { AccessTokenRevoked, ClientRevoked } from '../../src/oauth/events.js';
import { AccessTokenVerifier } from '../../src/oauth/jwt/access-token-verifier.js';
import { OPENID_SCOPES } from '../../src/oauth/oidc/scopes.js';
import { PersonalAccessTokens } from '../../src/oauth/personal/personal-access-tokens.js';
import { REDIRECT_SHAPE } from '../../src/oauth/rules/check-redirect-uri.js';
import { OAuthStoreKey } from '../../src/oauth/stores/contracts.js';
import { ENGINES } from '../support/engines.js';
import { holdUntilBoth } from '../support/hold-until-both.js';
import { ADA, BOB, Browser, type OAuthTestApp, oauthApp, SCOPES, tokenRequest } from './support.js';

/** The session-authenticated JSON APIs: the user's own records only, 422 on bad bodies. */
describe.each(ENGINES)('OAuth JSON APIs (%s)', (engine) => {
  let t: OAuthTestApp;
  let ada: Browser;
  let bob: Browser;
  let adaCsrf: string;
  let bobCsrf: string;

  beforeAll(async () => {
    t = await oauthApp({ engine });
    await t.createClient({ personalAccess: true, name: 'Personal Access Client' });
    ada = new Browser(t.url);
    await ada.login(ADA);
    adaCsrf = await ada.csrfToken();
    bob = new Browser(t.url);
    await bob.login(BOB);
    bobCsrf = await bob.csrfToken();
  });
  afterAll(async () => t.stop());

  /**
   * Ada sends the same DELETE twice at once, both requests finding the record before either deletes
   * it (`hold` puts a `holdUntilBoth` on the lookup): one deletes (204), the other answers as for a
   * record already gone (404 `{ message }`). Returns the access tokens announced revoked meanwhile.
   */
  async function deleteTwiceAtOnce(path: string, hold: () => MockInstance): Promise<string[]> {
    const announced: string[] = [];
    const stop = t.app.events.listen(AccessTokenRevoked, (e) => {
      announced.push(e.tokenId);
    });
    const lookup = hold();
    const answers = await Promise.all([1, 2].map(() => ada.json('DELETE', path, undefined, adaCsrf))).finally(
      () => {
        stop();
        lookup.mockRestore();
      },
    );
    const statuses = answers.map((res) => res.status);
    expect([...statuses].sort()).toEqual([204, 404]);
    expect(await answers[statuses.indexOf(404)]!.json()).toEqual({ message: 'Not Found' });
    return announced;
  }

  it('needs a session: 401 JSON without one, 419 without the CSRF header on writes', async () => {
    const anonymous = await new Browser(t.url).json('GET', '/oauth/clients');
    expect(anonymous.status).toBe(401);
    const noCsrf = await ada.json('POST', '/oauth/clients', { name: 'x', redirect: 'https://x.example/cb' });
    expect(noCsrf.status).toBe(419);
  });

  it('GET /oauth/scopes lists the application scopes, then the OpenID Connect ones', async () => {
    const res = await ada.json('GET', '/oauth/scopes');
    expect(await res.json()).toEqual(
      Object.entries({ ...SCOPES, ...OPENID_SCOPES }).map(([id, description]) => ({ id, description })),
    );
  });

  describe('clients', () => {
    it('POST creates a client and shows its secret once; GET lists without secrets', async () => {
      const res = await ada.json(
        'POST',
        '/oauth/clients',
        { name: 'Shop', redirect: 'https://shop.example/cb' },
        adaCsrf,
      );
      expect(res.status).toBe(201);
      const client = (await res.json()) as Record<string, unknown>;
      expect(client).toMatchObject({ name: 'Shop', redirect: 'https://shop.example/cb', user_id: t.ada.id });
      expect(client.secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
      const list = (await (await ada.json('GET', '/oauth/clients')).json()) as Record<string, unknown>[];
      expect(list.map((c) => c.id)).toContain(client.id);
      expect(list.every((c) => !('secret' in c))).toBe(true);
      // The secret works at the token endpoint.
      const token = await tokenRequest(t, {
        grant_type: 'client_credentials',
        client_id: String(client.id),
        client_secret: String(client.secret),
      });
      expect(token.status).toBe(200);
    });

    it('POST validates: 422 with per-field errors; redirect must be an absolute http(s) URL', async () => {
      for (const body of [
        {},
        { name: '', redirect: 'https://ok.example' },
        { name: 'x', redirect: '/relative' },
        { name: 'x', redirect: 'javascript:alert(1)' },
        { name: 'x', redirect: 'ftp://files.example/' },
      ]) {
        const res = await ada.json('POST', '/oauth/clients', body, adaCsrf);
        expect(res.status).toBe(422);
        const error = (await res.json()) as { message: string; errors: Record<string, string[]> };
        expect(error.message).toBeTypeOf('string');
        expect(Object.keys(error.errors).length).toBeGreaterThan(0);
      }
      // Laravel's shape and wording: the first message as `message`, every message under its field.
      const cases: Array<[Record<string, unknown>, unknown]> = [
        [
          {},
          {
            message: 'The name field is required. (and 1 more error)',
            errors: { name: ['The name field is required.'], redirect: ['The redirect field is required.'] },
          },
        ],
        [
          { name: 42, redirect: '/relative' },
          {
            message: 'The name field must be a string. (and 1 more error)',
            errors: { name: ['The name field must be a string.'], redirect: [REDIRECT_SHAPE] },
          },
        ],
        [
          { name: 'x', redirect: 'https://ok.example/cb', confidential: 'yes', scopes: 'check-status' },
          {
            message: 'The confidential field must be true or false. (and 1 more error)',
            errors: {
              confidential: ['The confidential field must be true or false.'],
              scopes: ['The scopes field must be an array.'],
            },
          },
        ],
      ];
      for (const [body, expected] of cases) {
        const res = await ada.json('POST', '/oauth/clients', body, adaCsrf);
        expect([res.status, await res.json()]).toEqual([422, expected]);
      }
    });

    it('PUT updates the own client; another user gets 404', async () => {
      const created = (await (
        await ada.json('POST', '/oauth/clients', { name: 'Old', redirect: 'https://a.example/cb' }, adaCsrf)
      ).json()) as { id: string };
      const res = await ada.json(
        'PUT',
        `/oauth/clients/${created.id}`,
        { name: 'New', redirect: 'https://b.example/cb' },
        adaCsrf,
      );
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({
        id: created.id,
        name: 'New',
        redirect: 'https://b.example/cb',
      });
      const invalid = await ada.json('PUT', `/oauth/clients/${created.id}`, { name: 'New' }, adaCsrf);
      expect(invalid.status).toBe(422);
      const other = await bob.json(
        'PUT',
        `/oauth/clients/${created.id}`,
        { name: 'Hijack', redirect: 'https://evil.example' },
        bobCsrf,
      );
      expect(other.status).toBe(404);
      expect((await bob.json('GET', '/oauth/clients').then((r) => r.json())) as unknown[]).toEqual([]);
    });

    it('DELETE revokes the client and its tokens; another user gets 404', async () => {
      const created = (await (
        await ada.json(
          'POST',
          '/oauth/clients',
          { name: 'Doomed', redirect: 'https://d.example/cb' },
          adaCsrf,
        )
      ).json()) as { id: string; secret: string };
      const token = (await (
        await tokenRequest(t, {
          grant_type: 'client_credentials',
          client_id: created.id,
          client_secret: created.secret,
        })
      ).json()) as { access_token: string };
      expect((await bob.json('DELETE', `/oauth/clients/${created.id}`, undefined, bobCsrf)).status).toBe(404);
      expect((await ada.json('DELETE', `/oauth/clients/${created.id}`, undefined, adaCsrf)).status).toBe(204);
      const claims = await t.app.container.make(AccessTokenVerifier).verify(token.access_token);
      const stored = await t.app.container.make(OAuthStoreKey).accessTokens.findWithClient(claims.jti);
      expect(stored?.revoked).toBe(true);
      expect(stored?.client.revoked).toBe(true);
      const again = await tokenRequest(t, {
        grant_type: 'client_credentials',
        client_id: created.id,
        client_secret: created.secret,
      });
      expect(again.status).toBe(401);
      expect((await ada.json('DELETE', `/oauth/clients/${created.id}`, undefined, adaCsrf)).status).toBe(404);
    });

    it('DELETE twice at once: one 204, the other 404; the client and its token revoked once', async () => {
      const created = (await (
        await ada.json('POST', '/oauth/clients', { name: 'Raced', redirect: 'https://r.example/cb' }, adaCsrf)
      ).json()) as { id: string; secret: string };
      const issued = await tokenRequest(t, {
        grant_type: 'client_credentials',
        client_id: created.id,
        client_secret: created.secret,
      });
      const { jti } = await t.app.container
        .make(AccessTokenVerifier)
        .verify(((await issued.json()) as { access_token: string }).access_token);
      const revoked: string[] = [];
      const stop = t.app.events.listen(ClientRevoked, (e) => {
        revoked.push(e.clientId);
      });
      const announced = await deleteTwiceAtOnce(`/oauth/clients/${created.id}`, () =>
        holdUntilBoth(t.app.container.make(Clients), 'findForUser'),
      ).finally(stop);
      expect(revoked).toEqual([created.id]);
      expect(announced).toEqual([jti]);
    });
  });

  describe('personal access tokens', () => {
    it('POST creates one (accessToken), GET lists it, DELETE removes it; 404 for another user', async () => {
      const res = await ada.json(
        'POST',
        '/oauth/personal-access-tokens',
        { name: 'CLI', scopes: ['check-status'] },
        adaCsrf,
      );
      expect(res.status).toBe(200);
      const body = (await res.json()) as {
        accessToken: string;
        token: { id: string; name: string; scopes: string[] };
      };
      expect(body.token).toMatchObject({ name: 'CLI', scopes: ['check-status'] });
      const claims = await t.app.container.make(AccessTokenVerifier).verify(body.accessToken);
      expect(claims).toMatchObject({ jti: body.token.id, sub: String(t.ada.id), scopes: ['check-status'] });
      // Always long-lived.
      expect(claims.exp - claims.iat).toBe(365 * 24 * 3600);

      const list = (await (await ada.json('GET', '/oauth/personal-access-tokens')).json()) as {
        id: string;
      }[];
      expect(list.map((x) => x.id)).toEqual([body.token.id]);
      expect((await (await bob.json('GET', '/oauth/personal-access-tokens')).json()) as unknown[]).toEqual(
        [],
      );

      expect(
        (await bob.json('DELETE', `/oauth/personal-access-tokens/${body.token.id}`, undefined, bobCsrf))
          .status,
      ).toBe(404);
      expect(
        (await ada.json('DELETE', `/oauth/personal-access-tokens/${body.token.id}`, undefined, adaCsrf))
          .status,
      ).toBe(204);
      expect((await (await ada.json('GET', '/oauth/personal-access-tokens')).json()) as unknown[]).toEqual(
        [],
      );
    });

    it('DELETE twice at once: one 204, the other 404; the token revoked once', async () => {
      const created = await ada.json(
        'POST',
        '/oauth/personal-access-tokens',
        { name: 'Raced', scopes: [] },
        adaCsrf,
      );
      const { token } = (await created.json()) as { token: { id: string } };
      const hold = () => holdUntilBoth(t.app.container.make(PersonalAccessTokens), 'findForUser');
      expect(await deleteTwiceAtOnce(`/oauth/personal-access-tokens/${token.id}`, hold)).toEqual([token.id]);
    });

    it('POST validates name and scopes (empty scopes allowed; unknown and `*` refused)', async () => {
      const empty = await ada.json(
        'POST',
        '/oauth/personal-access-tokens',
        { name: 'No scopes', scopes: [] },
        adaCsrf,
      );
      expect(empty.status).toBe(200);
      for (const [body, field] of [
        [{ scopes: [] }, 'name'],
        [{ name: 'x' }, 'scopes'],
        [{ name: 'x', scopes: ['launch-missiles'] }, 'scopes'],
        [{ name: 'x', scopes: ['*'] }, 'scopes'],
        [{ name: 'x', scopes: 'check-status' }, 'scopes'],
      ] as const) {
        const res = await ada.json('POST', '/oauth/personal-access-tokens', body, adaCsrf);
        expect(res.status).toBe(422);
        expect(((await res.json()) as { errors: Record<string, string[]> }).errors[field]).toBeDefined();
      }
      const missing = await ada.json('POST', '/oauth/personal-access-tokens', { name: ' ' }, adaCsrf);
      expect(await missing.json()).toEqual({
        message: 'The name field is required. (and 1 more error)',
        errors: { name: ['The name field is required.'], scopes: ['The scopes field is required.'] },
      });
      const notArray = await ada.json(
        'POST',
        '/oauth/personal-access-tokens',
        { name: 'x', scopes: 'check-status' },
        adaCsrf,
      );
      expect(await notArray.json()).toEqual({
        message: 'The scopes field must be an array.',
        errors: { scopes: ['The scopes field must be an array.'] },
      });
    });
  });

  describe('authorized applications (Passport revoke routes)', () => {
    /** A password client called `name`, and the tokens Ada gets from it (`jti`: the access token's id). */
    const authorize = async (name: string) => {
      const { client, plainSecret } = await t.createClient({ password: true, name });
      const res = await tokenRequest(t, {
        grant_type: 'password',
        client_id: client.id,
        client_secret: plainSecret!,
        username: ADA.email,
        password: ADA.password,
      });
      const tokens = (await res.json()) as { access_token: string; refresh_token: string };
      const { jti } = await t.app.container.make(AccessTokenVerifier).verify(tokens.access_token);
      return { client, plainSecret, refresh_token: tokens.refresh_token, jti };
    };

    it('GET /oauth/tokens lists tokens of other clients; DELETE revokes; 404 for another user', async () => {
      const { client, plainSecret, refresh_token, jti } = await authorize('Mobile app');
      const list = (await (await ada.json('GET', '/oauth/tokens')).json()) as {
        id: string;
        client: { name: string };
      }[];
      expect(list.find((x) => x.id === jti)?.client.name).toBe('Mobile app');
      expect((await bob.json('DELETE', `/oauth/tokens/${jti}`, undefined, bobCsrf)).status).toBe(404);
      expect((await ada.json('DELETE', `/oauth/tokens/${jti}`, undefined, adaCsrf)).status).toBe(204);
      const after = (await (await ada.json('GET', '/oauth/tokens')).json()) as { id: string }[];
      expect(after.map((x) => x.id)).not.toContain(jti);
      // Its refresh token went with it.
      const refresh = await tokenRequest(t, {
        grant_type: 'refresh_token',
        client_id: client.id,
        client_secret: plainSecret!,
        refresh_token,
      });
      expect(refresh.status).toBe(400);
    });

    it('DELETE twice at once: one 204, the other 404; the token revoked once', async () => {
      const { jti } = await authorize('Raced app');
      const hold = () => holdUntilBoth(t.app.container.make(OAuthStoreKey).accessTokens, 'findWithClient');
      expect(await deleteTwiceAtOnce(`/oauth/tokens/${jti}`, hold)).toEqual([jti]);
    });
  });
});
