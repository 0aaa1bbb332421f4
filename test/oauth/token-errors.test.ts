import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuthorizationRequest } from '../../src/oauth/authorization/authorization-request.js';
import { AuthorizationService } from '../../src/oauth/authorization/authorization-service.js';
import { OAuthStoreKey } from '../../src/oauth/stores/contracts.js';
import { ENGINES } from '../support/engines.js';
import { ADA, basic, type OAuthTestApp, oauthApp, REDIRECT, tokenRequest } from './support.js';

const VERIFIER = `${'v'.repeat(43)}erifier-of-fifty-characters`;
const CHALLENGE = createHash('sha256').update(VERIFIER).digest('base64url');

/** Raw-HTTP error cases of the token endpoint (RFC 6749 §5.2). */
describe.each(ENGINES)('POST /oauth/token errors (%s)', (engine) => {
  let t: OAuthTestApp;
  let standard: { id: string; secret: string };
  let password: { id: string; secret: string };
  let publicClient: { id: string };

  beforeAll(async () => {
    t = await oauthApp({ engine });
    const a = await t.createClient();
    standard = { id: a.client.id, secret: a.plainSecret! };
    const p = await t.createClient({ password: true });
    password = { id: p.client.id, secret: p.plainSecret! };
    publicClient = { id: (await t.createClient({ confidential: false })).client.id };
  });
  afterAll(async () => t.stop());

  async function expectError(res: Response, status: number, error: string): Promise<Record<string, string>> {
    const body = (await res.json()) as Record<string, string>;
    expect({ status: res.status, error: body.error }).toEqual({ status, error });
    expect(body.error_description).toBeTypeOf('string');
    expect(res.headers.get('cache-control')).toBe('no-store');
    return body;
  }

  /** A code as the approval page would issue it. */
  async function code(clientId: string, extra: Partial<AuthorizationRequest> = {}): Promise<string> {
    const url = await t.app.container.make(AuthorizationService).approve(
      {
        clientId,
        redirectUri: REDIRECT,
        responseType: 'code',
        scopes: ['check-status'],
        state: null,
        codeChallenge: null,
        codeChallengeMethod: null,
        nonce: null,
        maxAge: null,
        prompt: [],
        ...extra,
      },
      t.ada.id,
    );
    return new URL(url).searchParams.get('code')!;
  }

  const passwordTokens = async (scope = 'check-status place-orders') => {
    const res = await tokenRequest(t, {
      grant_type: 'password',
      client_id: password.id,
      client_secret: password.secret,
      username: ADA.email,
      password: ADA.password,
      scope,
    });
    expect(res.status).toBe(200);
    return (await res.json()) as { access_token: string; refresh_token: string };
  };

  it('§5.2 invalid_request: no grant_type', async () => {
    await expectError(await tokenRequest(t, { client_id: standard.id }), 400, 'invalid_request');
  });

  it('§5.2 unsupported_grant_type', async () => {
    await expectError(
      await tokenRequest(t, { grant_type: 'urn:example:magic', client_id: standard.id }),
      400,
      'unsupported_grant_type',
    );
  });

  it('§3.2 a JSON body is refused with invalid_request', async () => {
    const res = await fetch(`${t.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ grant_type: 'client_credentials' }),
    });
    await expectError(res, 400, 'invalid_request');
  });

  it('§3.2 a repeated parameter is refused', async () => {
    const res = await fetch(`${t.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials&scope=a&scope=b',
    });
    await expectError(res, 400, 'invalid_request');
  });

  it('§5.2 invalid_client: wrong secret → 401 with WWW-Authenticate', async () => {
    const res = await tokenRequest(t, {
      grant_type: 'client_credentials',
      client_id: standard.id,
      client_secret: 'wrong',
    });
    await expectError(res, 401, 'invalid_client');
    expect(res.headers.get('www-authenticate')).toMatch(/^Basic/);
  });

  it('§5.2 invalid_client: wrong secret in HTTP Basic, and an unknown client', async () => {
    await expectError(
      await tokenRequest(
        t,
        { grant_type: 'client_credentials' },
        { authorization: basic(standard.id, 'nope') },
      ),
      401,
      'invalid_client',
    );
    await expectError(
      await tokenRequest(t, { grant_type: 'client_credentials', client_id: 'nobody', client_secret: 'x' }),
      401,
      'invalid_client',
    );
  });

  it('§2.3 two authentication methods at once are refused', async () => {
    const res = await tokenRequest(
      t,
      { grant_type: 'client_credentials', client_secret: standard.secret },
      { authorization: basic(standard.id, standard.secret) },
    );
    await expectError(res, 400, 'invalid_request');
  });

  it('§5.2 unauthorized_client: the password grant needs a password grant client', async () => {
    const res = await tokenRequest(t, {
      grant_type: 'password',
      client_id: standard.id,
      client_secret: standard.secret,
      username: ADA.email,
      password: ADA.password,
    });
    await expectError(res, 400, 'unauthorized_client');
  });

  it('§4.4 unauthorized_client: a public client cannot use client_credentials', async () => {
    await expectError(
      await tokenRequest(t, { grant_type: 'client_credentials', client_id: publicClient.id }),
      400,
      'unauthorized_client',
    );
  });

  it('§5.2 invalid_scope: an unknown scope', async () => {
    await expectError(
      await tokenRequest(t, {
        grant_type: 'client_credentials',
        client_id: standard.id,
        client_secret: standard.secret,
        scope: 'launch-missiles',
      }),
      400,
      'invalid_scope',
    );
  });

  it('spec "Scope": `*` is refused outside the password grant', async () => {
    await expectError(
      await tokenRequest(t, {
        grant_type: 'client_credentials',
        client_id: standard.id,
        client_secret: standard.secret,
        scope: '*',
      }),
      400,
      'invalid_scope',
    );
  });

  it('§4.3.2 invalid_grant: wrong user password; invalid_request: missing username', async () => {
    const base = { grant_type: 'password', client_id: password.id, client_secret: password.secret };
    await expectError(
      await tokenRequest(t, { ...base, username: ADA.email, password: 'wrong password' }),
      400,
      'invalid_grant',
    );
    await expectError(await tokenRequest(t, { ...base, password: 'x' }), 400, 'invalid_request');
  });

  describe('authorization_code', () => {
    const exchange = (c: string, extra: Record<string, string> = {}) =>
      tokenRequest(t, {
        grant_type: 'authorization_code',
        client_id: standard.id,
        client_secret: standard.secret,
        redirect_uri: REDIRECT,
        code: c,
        ...extra,
      });

    it('§4.1.3 invalid_grant: unknown code, and a code of another client', async () => {
      await expectError(await exchange('made-up'), 400, 'invalid_grant');
      const other = await t.createClient();
      const c = await code(other.client.id);
      await expectError(await exchange(c), 400, 'invalid_grant');
    });

    it('§4.1.3 invalid_grant: redirect_uri differs from the authorization request', async () => {
      const c = await code(standard.id);
      await expectError(
        await exchange(c, { redirect_uri: 'http://127.0.0.1:9999/other' }),
        400,
        'invalid_grant',
      );
    });

    it('§4.1.2 invalid_grant: an expired code', async () => {
      const c = await code(standard.id);
      t.clock.advance(601_000);
      try {
        await expectError(await exchange(c), 400, 'invalid_grant');
      } finally {
        t.clock.advance(-601_000);
      }
    });

    it('RFC 7636 §4.6: wrong verifier → invalid_grant, missing verifier → invalid_request', async () => {
      const c = await code(standard.id, { codeChallenge: CHALLENGE, codeChallengeMethod: 'S256' });
      await expectError(await exchange(c, { code_verifier: 'x'.repeat(43) }), 400, 'invalid_grant');
      const c2 = await code(standard.id, { codeChallenge: CHALLENGE, codeChallengeMethod: 'S256' });
      await expectError(await exchange(c2), 400, 'invalid_request');
      const c3 = await code(standard.id, { codeChallenge: CHALLENGE, codeChallengeMethod: 'S256' });
      expect((await exchange(c3, { code_verifier: VERIFIER })).status).toBe(200);
    });

    it('RFC 9700 §4.8.2: a verifier without a challenge (PKCE downgrade) → invalid_grant', async () => {
      const c = await code(standard.id);
      await expectError(await exchange(c, { code_verifier: VERIFIER }), 400, 'invalid_grant');
    });

    it('§4.1.2 security: a reused code fails and revokes what the first use issued', async () => {
      const c = await code(standard.id);
      const first = await exchange(c);
      expect(first.status).toBe(200);
      const tokens = (await first.json()) as { access_token: string; refresh_token: string };
      await expectError(await exchange(c), 400, 'invalid_grant');

      const store = t.app.container.make(OAuthStoreKey);
      const jti = JSON.parse(Buffer.from(tokens.access_token.split('.')[1]!, 'base64url').toString()).jti;
      expect((await store.accessTokens.find(jti))?.revoked).toBe(true);
      // The refresh token of the first exchange is dead too.
      await expectError(
        await tokenRequest(t, {
          grant_type: 'refresh_token',
          client_id: standard.id,
          client_secret: standard.secret,
          refresh_token: tokens.refresh_token,
        }),
        400,
        'invalid_grant',
      );
    });
    it('RFC 9700 §4.2.4: concurrent exchanges of one code: exactly one wins, and its tokens end revoked', async () => {
      const c = await code(standard.id);
      const results = await Promise.all(Array.from({ length: 5 }, () => exchange(c)));
      const statuses = results.map((r) => r.status).sort();
      expect(statuses).toEqual([200, 400, 400, 400, 400]);
      const winner = results.find((r) => r.status === 200)!;
      const { access_token } = (await winner.json()) as { access_token: string };
      const jti = JSON.parse(Buffer.from(access_token.split('.')[1]!, 'base64url').toString()).jti;
      expect((await t.app.container.make(OAuthStoreKey).accessTokens.find(jti))?.revoked).toBe(true);
    });
  });

  describe('refresh_token', () => {
    const refresh = (token: string, extra: Record<string, string> = {}) =>
      tokenRequest(t, {
        grant_type: 'refresh_token',
        client_id: password.id,
        client_secret: password.secret,
        refresh_token: token,
        ...extra,
      });

    it('RFC 9700 §4.14.2 security: a refresh token used twice fails and revokes the chain', async () => {
      const first = await passwordTokens();
      const second = (await (await refresh(first.refresh_token)).json()) as {
        refresh_token: string;
        access_token: string;
      };
      expect(second.refresh_token).toBeTypeOf('string');
      await expectError(await refresh(first.refresh_token), 400, 'invalid_grant');
      // The chain is revoked: the newer refresh token no longer works, nor its access token.
      await expectError(await refresh(second.refresh_token), 400, 'invalid_grant');
      const store = t.app.container.make(OAuthStoreKey);
      const jti = JSON.parse(Buffer.from(second.access_token.split('.')[1]!, 'base64url').toString()).jti;
      expect((await store.accessTokens.find(jti))?.revoked).toBe(true);
    });

    it('RFC 9700 §4.14.2: concurrent uses of one refresh token: one wins, then the chain is revoked', async () => {
      const first = await passwordTokens();
      const results = await Promise.all(Array.from({ length: 4 }, () => refresh(first.refresh_token)));
      expect(results.map((r) => r.status).sort()).toEqual([200, 400, 400, 400]);
      const winner = (await results.find((r) => r.status === 200)!.json()) as { refresh_token: string };
      await expectError(await refresh(winner.refresh_token), 400, 'invalid_grant');
    });

    it('§6 security: a refresh may not widen the scope', async () => {
      const first = await passwordTokens('check-status');
      await expectError(
        await refresh(first.refresh_token, { scope: 'check-status place-orders' }),
        400,
        'invalid_scope',
      );
      // Refused widening does not burn the token.
      expect((await refresh(first.refresh_token, { scope: 'check-status' })).status).toBe(200);
    });

    it('§6 invalid_grant: another client, an unknown and an expired refresh token', async () => {
      const first = await passwordTokens();
      const other = await t.createClient({ password: true });
      await expectError(
        await tokenRequest(t, {
          grant_type: 'refresh_token',
          client_id: other.client.id,
          client_secret: other.plainSecret!,
          refresh_token: first.refresh_token,
        }),
        400,
        'invalid_grant',
      );
      await expectError(await refresh('not-a-token'), 400, 'invalid_grant');
      t.clock.advanceDays(3 * 365);
      try {
        await expectError(await refresh(first.refresh_token), 400, 'invalid_grant');
      } finally {
        t.clock.advanceDays(-3 * 365);
      }
    });
  });
});
