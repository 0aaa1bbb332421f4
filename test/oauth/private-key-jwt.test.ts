import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from '../support/engines.js';
import { type ClientKey, clientKey, TOKEN_ENDPOINT } from './client-key-support.js';
import { type DocumentServer, documentServer } from './document-server.js';
import { ISSUER } from './openid-support.js';
import { basic, type OAuthTestApp, oauthApp } from './support.js';

const JWT_BEARER = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

/** `private_key_jwt` (RFC 7523) at the token endpoint: what it refuses, and why it says so. */
describe.each(ENGINES)('private_key_jwt client authentication (%s)', (engine) => {
  let t: OAuthTestApp;
  let site: DocumentServer;
  let silent: Server;
  let key: ClientKey;
  let clientId: string;

  beforeAll(async () => {
    t = await oauthApp({
      engine,
      config: {
        oauth: {
          registration: 'open',
          throttle: {
            register: { address: { points: 1000, durationSeconds: 3600 } },
            token: {
              client: { points: 1000, durationSeconds: 60 },
              address: { points: 1000, durationSeconds: 60 },
            },
          },
          clientFetch: { allowAddressRanges: ['loopback'], timeoutMs: 300 },
        },
      },
    });
    site = await documentServer();
    // A client site that accepts the connection and never answers.
    silent = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    key = await clientKey('key-1');
    clientId = await register({ jwks: { keys: [key.jwk] } });
  });
  afterAll(async () => {
    await t.stop();
    await site.close();
    silent.closeAllConnections();
    await new Promise((resolve) => silent.close(resolve));
  });

  async function register(body: Record<string, unknown>): Promise<string> {
    const res = await registration(body);
    expect(res.status).toBe(201);
    return ((await res.json()) as { client_id: string }).client_id;
  }

  function registration(body: Record<string, unknown>): Promise<Response> {
    return fetch(`${t.url}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        grant_types: ['client_credentials'],
        token_endpoint_auth_method: 'private_key_jwt',
        ...body,
      }),
    });
  }

  /** A client assertion by `signer` for `id`, valid for a minute from the server's clock. */
  function assertion(
    id: string,
    signer: ClientKey = key,
    claims: Record<string, unknown> = {},
  ): Promise<string> {
    const now = Math.floor(t.clock.now().getTime() / 1000);
    const payload = {
      jti: randomUUID(),
      iss: id,
      sub: id,
      aud: TOKEN_ENDPOINT,
      iat: now,
      exp: now + 60,
      ...claims,
    };
    return new SignJWT(payload)
      .setProtectedHeader({ alg: signer.jwk.alg!, kid: signer.kid })
      .sign(signer.privateKey);
  }

  function token(form: Record<string, string>, headers: Record<string, string> = {}): Promise<Response> {
    return fetch(`${t.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_assertion_type: JWT_BEARER,
        ...form,
      }),
    });
  }

  async function refused(res: Response, description: string) {
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({
      error: 'invalid_client',
      error_description: expect.stringContaining(description),
    });
  }

  it('registration refuses a private_key_jwt client without keys, with both jwks and jwks_uri, with private key material or an unknown alg', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{}, 'must register its keys: jwks or jwks_uri'],
      [{ jwks: { keys: [key.jwk] }, jwks_uri: 'https://client.example/jwks' }, 'not both'],
      [{ jwks: { keys: [{ ...key.jwk, d: 'secret' }] } }, 'private or secret key material'],
      [{ jwks: { keys: [] } }, 'keys must be an array of 1 to 20 keys'],
      [{ jwks_uri: 'http://client.example/jwks' }, 'The jwks_uri must be an https URL'],
      [{ jwks: { keys: [key.jwk] }, token_endpoint_auth_signing_alg: 'HS256' }, 'RS256, PS256, ES256'],
    ];
    for (const [body, description] of cases) {
      const res = await registration(body);
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({
        error: 'invalid_client_metadata',
        error_description: expect.stringContaining(description),
      });
    }
  });

  it('a signed assertion authenticates the client; the same jti again is refused', async () => {
    const signed = await assertion(clientId);
    const first = await token({ client_assertion: signed });
    expect(first.status).toBe(200);
    await refused(
      await token({ client_assertion: signed }),
      'The client assertion was used before (its jti).',
    );
  });

  it('of five requests with one assertion at once, exactly one gets a token', async () => {
    const signed = await assertion(clientId);
    const answers = await Promise.all(Array.from({ length: 5 }, () => token({ client_assertion: signed })));
    expect(answers.map((res) => res.status).sort()).toEqual([200, 401, 401, 401, 401]);
  });

  it('refuses a bad signature, a wrong aud, an expired or too long-lived assertion, and iss other than sub', async () => {
    const impostor = await clientKey('key-1');
    await refused(
      await token({ client_assertion: await assertion(clientId, impostor) }),
      'signature does not verify',
    );
    await refused(
      await token({
        client_assertion: await assertion(clientId, key, { aud: 'https://elsewhere.example/token' }),
      }),
      'its aud claim is wrong',
    );
    const now = Math.floor(t.clock.now().getTime() / 1000);
    await refused(
      await token({ client_assertion: await assertion(clientId, key, { exp: now - 120 }) }),
      'expired',
    );
    await refused(
      await token({ client_assertion: await assertion(clientId, key, { exp: now + 7200 }) }),
      'at most 3600 seconds from now',
    );
    await refused(
      await token({ client_assertion: await assertion(clientId, key, { iss: 'someone-else' }) }),
      'must name the client in both iss and sub',
    );
    await refused(await token({ client_assertion: 'not.a.jwt' }), 'not a JWT');
    await refused(
      await token({ client_assertion: await assertion(clientId), client_assertion_type: 'urn:example' }),
      `must be ${JWT_BEARER}`,
    );
  });

  it('the issuer is an accepted aud too (OpenID Connect Core §9)', async () => {
    const res = await token({ client_assertion: await assertion(clientId, key, { aud: ISSUER }) });
    expect(res.status).toBe(200);
  });

  it('a client registered for a secret cannot send an assertion, nor a private_key_jwt client a secret', async () => {
    const res = await registration({ token_endpoint_auth_method: 'client_secret_basic' });
    const secretClient = (await res.json()) as { client_id: string; client_secret: string };
    await refused(
      await token({ client_assertion: await assertion(secretClient.client_id) }),
      'Client authentication failed.',
    );
    // Its secret authenticates it as before; an assertion beside a secret is refused outright.
    const both = await token(
      { client_assertion: await assertion(secretClient.client_id) },
      { authorization: basic(secretClient.client_id, secretClient.client_secret) },
    );
    expect(both.status).toBe(400);
    const bySecret = await fetch(`${t.url}/oauth/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: basic(clientId, 'a guessed secret'),
      },
      body: new URLSearchParams({ grant_type: 'client_credentials' }),
    });
    expect(bySecret.status).toBe(401);
  });

  it('keys at a jwks_uri are fetched once and kept; an unknown kid soon after does not fetch again', async () => {
    const signer = await clientKey('uri-key');
    site.serve('/kept/jwks.json', { body: JSON.stringify({ keys: [signer.jwk] }) });
    const id = await register({ jwks_uri: site.url('/kept/jwks.json') });
    expect((await token({ client_assertion: await assertion(id, signer) })).status).toBe(200);
    expect((await token({ client_assertion: await assertion(id, signer) })).status).toBe(200);
    const stranger = await clientKey('unknown-kid');
    await refused(
      await token({ client_assertion: await assertion(id, stranger) }),
      'no registered key matches',
    );
    expect(site.hits('/kept/jwks.json')).toBe(1);
  });

  it('a jwks_uri that does not answer in time, answers an error or serves no key set refuses the client, saying why', async () => {
    const port = (silent.address() as AddressInfo).port;
    const hanging = await register({ jwks_uri: `http://127.0.0.1:${port}/jwks.json` });
    await refused(
      await token({ client_assertion: await assertion(hanging) }),
      'did not arrive within 300 ms',
    );
    site.serve('/gone/jwks.json', { status: 404, body: 'not found' });
    const gone = await register({ jwks_uri: site.url('/gone/jwks.json') });
    await refused(await token({ client_assertion: await assertion(gone) }), 'Its server answered 404.');
    site.serve('/private/jwks.json', { body: JSON.stringify({ keys: [{ ...key.jwk, d: 'x' }] }) });
    const leaky = await register({ jwks_uri: site.url('/private/jwks.json') });
    await refused(
      await token({ client_assertion: await assertion(leaky) }),
      'private or secret key material',
    );
  });

  it("a client's expired jtis are cleared when it authenticates again", async () => {
    const id = await register({ jwks: { keys: [key.jwk] } });
    expect((await token({ client_assertion: await assertion(id) })).status).toBe(200);
    t.clock.advance(120_000);
    expect((await token({ client_assertion: await assertion(id) })).status).toBe(200);
    const kept = await t.app.db
      .selectFrom('oauth_client_assertions')
      .select('jti')
      .where('client_id', '=', id)
      .execute();
    expect(kept).toHaveLength(1);
  });
});
