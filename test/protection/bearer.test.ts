import { request } from 'node:http';
import { type Context, Hono } from 'hono';
import { generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TokenGuard } from '../../src/oauth/guard/index.js';
import { AccessTokenSigner, Clients, OAuthError, PersonalAccessTokens } from '../../src/oauth/index.js';
import { ENGINES } from '../support/engines.js';
import { ADA, Browser, type ProtectionApp, protectionApp } from './support.js';

/** `auth:api` with bearer tokens over HTTP, on the reference routes (app/api). */
describe.each(ENGINES)('auth:api bearer tokens (%s)', (engine) => {
  let t: ProtectionApp;

  beforeAll(async () => {
    t = await protectionApp({ engine });
  });
  afterAll(async () => t.stop());

  async function expectUnauthenticated(res: Response, error: boolean): Promise<string> {
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ message: 'Unauthenticated.' });
    const challenge = res.headers.get('www-authenticate') ?? '';
    if (error) expect(challenge).toMatch(/^Bearer error="invalid_token"/);
    // RFC 9728 §5.1: the challenge names the metadata of the resource (the app itself by default).
    else
      expect(challenge).toBe(
        `Bearer resource_metadata="http://localhost/.well-known/oauth-protected-resource"`,
      );
    return challenge;
  }

  it('a valid personal access token reaches GET /api/user and gets the user, without secrets', async () => {
    const { accessToken } = await t.ada.createToken('cli', []);
    const res = await t.call('/api/user', accessToken);
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ id: t.ada.id, email: 'ada@example.com' });
    expect(body).not.toHaveProperty('password');
    // Again, from the caches: the same answer.
    const again = await t.call('/api/user', accessToken);
    expect(await again.json()).toEqual(body);
  });

  it('a token is verified on its first two uses, then served from the cache until it expires', async () => {
    const guard = t.app.container.make(TokenGuard);
    const { accessToken } = await t.ada.createToken('cache', []);
    const before = guard.verified.size;
    expect((await t.call('/api/user', accessToken)).status).toBe(200);
    expect(guard.verified.size).toBe(before);
    expect((await t.call('/api/user', accessToken)).status).toBe(200);
    expect(guard.verified.size).toBe(before + 1);
    expect((await t.call('/api/user', accessToken)).status).toBe(200);
    expect(guard.verified.size).toBe(before + 1);
  });

  it('RFC 6750 §3.1: no token → 401 with a bare Bearer challenge', async () => {
    await expectUnauthenticated(await t.call('/api/user'), false);
    // Not a bearer credential at all counts as none.
    await expectUnauthenticated(
      await t.call('/api/user', undefined, { headers: { authorization: 'Basic YTpi' } }),
      false,
    );
  });

  it('RFC 6750 §2.3: a token in the query string is not accepted', async () => {
    const { accessToken } = await t.ada.createToken('query', []);
    await expectUnauthenticated(await t.call(`/api/user?access_token=${accessToken}`), false);
  });

  it('RFC 6750 §2.2: a token in a form body is not accepted', async () => {
    const { accessToken } = await t.ada.createToken('form', ['place-orders']);
    const res = await t.call('/api/orders', undefined, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ access_token: accessToken }),
    });
    await expectUnauthenticated(res, false);
  });

  it('RFC 6750 §3.1: a malformed token → 401 invalid_token', async () => {
    await expectUnauthenticated(await t.call('/api/user', 'not-a-jwt'), true);
    await expectUnauthenticated(await t.call('/api/user', 'a.b.c'), true);
    await expectUnauthenticated(
      await t.call('/api/user', undefined, { headers: { authorization: 'Bearer' } }),
      true,
    );
  });

  it('two Authorization fields are one value joined by a comma (RFC 9110 §5.3), not a bearer token', async () => {
    const { accessToken } = await t.ada.createToken('twice', []);
    // fetch() would join them itself; Node's client sends each as its own field line.
    const twice = await new Promise<{ status: number; challenge: string }>((resolve, reject) => {
      const token = `Bearer ${accessToken}`;
      // A raw list, so Node sends no Host of its own.
      const headers = ['Host', new URL(t.url).host, 'Accept', 'application/json'];
      const req = request(`${t.url}/api/user`, {
        headers: [...headers, 'Authorization', token, 'Authorization', token],
      });
      req.on('response', (res) => {
        res.resume();
        resolve({ status: res.statusCode!, challenge: String(res.headers['www-authenticate']) });
      });
      req.on('error', reject);
      req.end();
    });
    expect(twice.status).toBe(401);
    expect(twice.challenge).toMatch(/^Bearer error="invalid_token"/);
    expect((await t.call('/api/user', accessToken)).status).toBe(200);
  });

  it('the scheme is case-insensitive (RFC 7235 §2.1)', async () => {
    const { accessToken } = await t.ada.createToken('case', []);
    const res = await t.call('/api/user', undefined, { headers: { authorization: `bearer ${accessToken}` } });
    expect(res.status).toBe(200);
  });

  it('a bad signature → 401 invalid_token, whether tampered or signed by another key', async () => {
    const { accessToken } = await t.ada.createToken('sig', []);
    // Cached first (the second use admits it): a forgery sharing its signature must not pass for it.
    expect((await t.call('/api/user', accessToken)).status).toBe(200);
    expect((await t.call('/api/user', accessToken)).status).toBe(200);
    const [header, payload, signature] = accessToken.split('.');
    const flipped = signature![0] === 'A' ? `B${signature!.slice(1)}` : `A${signature!.slice(1)}`;
    await expectUnauthenticated(await t.call('/api/user', `${header}.${payload}.${flipped}`), true);

    // The same claims, signed with a key that is not ours.
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString()) as Record<string, unknown>;
    const { privateKey } = await generateKeyPair('RS256');
    const forged = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'RS256', typ: 'at+jwt' })
      .sign(privateKey);
    await expectUnauthenticated(await t.call('/api/user', forged), true);
    // A changed payload under the real signature.
    const elevated = Buffer.from(JSON.stringify({ ...claims, scopes: ['*'], scope: '*' })).toString(
      'base64url',
    );
    await expectUnauthenticated(await t.call('/api/user', `${header}.${elevated}.${signature}`), true);
    // The genuine token still works: failures did not poison the cache.
    expect((await t.call('/api/user', accessToken)).status).toBe(200);
  });

  it('an expired token → 401 invalid_token, even one the guard has cached (TestClock)', async () => {
    const start = t.clock.now();
    const { accessToken } = await t.ada.createToken('short', []);
    expect((await t.call('/api/user', accessToken)).status).toBe(200);
    try {
      const ttl = t.app.config.oauth.personalAccessTokenTtlSeconds * 1000;
      t.clock.advance(ttl - 1000);
      expect((await t.call('/api/user', accessToken)).status).toBe(200);
      t.clock.advance(1000);
      const challenge = await expectUnauthenticated(await t.call('/api/user', accessToken), true);
      expect(challenge).toContain('expired');
    } finally {
      t.clock.set(start);
    }
  });

  it('an expired token never seen before → 401 invalid_token', async () => {
    const start = t.clock.now();
    const { accessToken } = await t.ada.createToken('unseen', []);
    try {
      t.clock.advanceDays(400);
      const challenge = await expectUnauthenticated(await t.call('/api/user', accessToken), true);
      expect(challenge).toContain('expired');
    } finally {
      t.clock.set(start);
    }
  });

  it('a token revoked through the JSON API (DELETE /oauth/personal-access-tokens/{id}) is refused at once', async () => {
    const { accessToken, token } = await t.ada.createToken('to revoke', ['check-status']);
    expect((await t.call('/api/orders', accessToken)).status).toBe(200);
    const browser = new Browser(t.url);
    await browser.login(ADA);
    const csrf = await browser.page('/dashboard');
    const deleted = await browser.request(`/oauth/personal-access-tokens/${token.id}`, {
      method: 'DELETE',
      headers: { accept: 'application/json', 'x-csrf-token': csrf, origin: t.url },
    });
    expect(deleted.status).toBeLessThan(300);
    await expectUnauthenticated(await t.call('/api/orders', accessToken), true);
    await expectUnauthenticated(await t.call('/api/user', accessToken), true);
  });

  it('RFC 7009: a token revoked at /oauth/revoke is refused at once', async () => {
    const accessToken = await t.passwordToken('check-status');
    expect((await t.call('/api/orders', accessToken)).status).toBe(200);
    const revoked = await fetch(`${t.url}/oauth/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        token: accessToken,
        client_id: t.passwordClient.client.id,
        client_secret: t.passwordClient.plainSecret!,
      }),
    });
    expect(revoked.status).toBe(200);
    await expectUnauthenticated(await t.call('/api/orders', accessToken), true);
  });

  it('a token revoked in code (PersonalAccessTokens.revoke) is refused at once', async () => {
    const { accessToken, token } = await t.ada.createToken('in code', []);
    expect((await t.call('/api/user', accessToken)).status).toBe(200);
    await t.app.container.make(PersonalAccessTokens).revoke(token.id);
    await expectUnauthenticated(await t.call('/api/user', accessToken), true);
  });

  it('a token revoked behind the guard’s back is refused once its state is re-read', async () => {
    const { accessToken, token } = await t.ada.createToken('db revoke', []);
    expect((await t.call('/api/user', accessToken)).status).toBe(200);
    await t.app.db
      .updateTable('oauth_access_tokens')
      .set({ revoked: 1 })
      .where('id', '=', token.id)
      .execute();
    // No event: the cached state holds until flushed (Redis reconnect) or re-checked.
    t.app.container.make(TokenGuard).flush();
    await expectUnauthenticated(await t.call('/api/user', accessToken), true);
  });

  it('a token of a revoked client is refused at once', async () => {
    const accessToken = await t.passwordToken('check-status');
    expect((await t.call('/api/orders', accessToken)).status).toBe(200);
    await t.app.container.make(Clients).delete(t.passwordClient.client);
    await expectUnauthenticated(await t.call('/api/orders', accessToken), true);
  });

  it("a validly signed token whose sub is not its row's user is refused on every request, cached or not", async () => {
    const { accessToken, token } = await t.ada.createToken('bound', []);
    // Ada's token is verified, its row read and cached as live, then admitted to the cache.
    for (let i = 0; i < 3; i++) expect((await t.call('/api/user', accessToken)).status).toBe(200);
    // Our own key signs the same jti for Bob: only the stored row can tell.
    const borrowed = await t.app.container.make(AccessTokenSigner).sign({
      tokenId: token.id,
      userId: t.bob.id,
      clientId: token.clientId,
      scopes: [],
      issuedAt: Math.floor(t.clock.now().getTime() / 1000),
      expiresAt: Math.floor(t.clock.now().getTime() / 1000) + 3600,
    });
    for (let i = 0; i < 3; i++) {
      const challenge = await expectUnauthenticated(await t.call('/api/user', borrowed), true);
      expect(challenge).toContain('invalid');
    }
    expect((await t.call('/api/user', accessToken)).status).toBe(200);
  });

  it('a new token of a stored token whose state and user are cached is answered without waiting; revoked, it is refused', async () => {
    const guard = t.app.container.make(TokenGuard);
    const { accessToken, token } = await t.ada.createToken('new each time', []);
    expect((await t.call('/api/user', accessToken)).status).toBe(200);
    const now = Math.floor(t.clock.now().getTime() / 1000);
    const [first, second, third] = await Promise.all(
      [1, 2, 3].map((i) =>
        t.app.container.make(AccessTokenSigner).sign({
          tokenId: token.id,
          userId: t.ada.id,
          clientId: token.clientId,
          scopes: [],
          issuedAt: now - i,
          expiresAt: now + 3600,
        }),
      ),
    );
    // The guard's answer, and what the request carries, inside a real Hono context.
    const ask = async (jwt: string) => {
      let answer: unknown;
      let carried: unknown;
      const probe = new Hono().get('/', (c: Context) => {
        try {
          answer = guard.user(c, `Bearer ${jwt}`);
        } catch (err) {
          answer = err;
        }
        carried = c.get('accessToken');
        return c.text('');
      });
      await probe.request('/');
      return { answer, carried };
    };
    await (await ask(first!)).answer; // the user's model, loaded again if its second went by
    const { answer, carried } = await ask(second!);
    expect(answer).not.toBeInstanceOf(Promise);
    expect((answer as { id: number }).id).toBe(t.ada.id);
    expect((carried as { id: string }).id).toBe(token.id);
    await t.app.container.make(PersonalAccessTokens).revoke(token.id);
    const refused = (await ask(third!)).answer;
    expect(refused).toBeInstanceOf(OAuthError);
    expect((refused as OAuthError).reason).toBe('revoked');
  });

  it('a client_credentials token (no user) is refused by auth:api', async () => {
    const { client, plainSecret } = await t.app.container
      .make(Clients)
      .create({ name: 'Machine', redirect: 'http://localhost' });
    const res = await fetch(`${t.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: client.id,
        client_secret: plainSecret!,
        scope: 'check-status',
      }),
    });
    const { access_token } = (await res.json()) as { access_token: string };
    await expectUnauthenticated(await t.call('/api/user', access_token), true);
    // The `client` middleware is the door for machines.
    const machine = await t.call('/probe/machine', access_token);
    expect(machine.status).toBe(200);
    expect(await machine.json()).toEqual({ client: client.id });
    expect((await t.call('/probe/machine-status', access_token)).status).toBe(200);
    await expectUnauthenticated(await t.call('/probe/machine'), false);
  });
});
