import { SignJWT } from 'jose';
import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referenceConfig } from '../../app/config.js';
import { Clients } from '../../src/oauth/index.js';
import { ENGINES } from '../support/engines.js';
import { type Instances, twoInstances } from './instances.js';
import { ADA, dpopGet, type ProtectionApp, protectionApp } from './support.js';

const insecure = { [oauth.allowInsecureRequests]: true } as const;
const LIFETIME = 300;

/** RFC 9449 §8 and §9 over real HTTP with oauth4webapi: server nonces at the token endpoint and at a protected route. */
describe.each(ENGINES)('DPoP nonces (%s)', (engine) => {
  let t: ProtectionApp;
  let as: oauth.AuthorizationServer;
  let client: oauth.Client;
  let auth: oauth.ClientAuth;
  let keys: CryptoKeyPair;

  beforeAll(async () => {
    t = await protectionApp({
      engine,
      config: {
        oauth: { ...referenceConfig.oauth, dpopNonces: { enabled: true, lifetimeSeconds: LIFETIME } },
      },
    });
    as = { issuer: t.url, token_endpoint: `${t.url}/oauth/token` };
    const created = await t.app.container
      .make(Clients)
      .create({ name: 'Machine', redirect: 'http://localhost' });
    const now = Math.floor(t.clock.now().getTime() / 1000);
    client = { client_id: created.client.id, [oauth.clockSkew]: now - Math.floor(Date.now() / 1000) };
    auth = oauth.ClientSecretBasic(created.plainSecret!);
    keys = await oauth.generateKeyPair('ES256');
  });
  afterAll(() => t?.stop());

  const tokenRequest = (handle: oauth.DPoPHandle) =>
    oauth.clientCredentialsGrantRequest(
      as,
      client,
      auth,
      { scope: 'check-status' },
      { ...insecure, DPoP: handle },
    );

  /** A call to a protected route; oauth4webapi throws on a 401 challenge, whose response is returned here. */
  async function resourceRequest(token: string, handle: oauth.DPoPHandle): Promise<Response> {
    try {
      return await dpopGet(`${t.url}/probe/machine`, token, handle);
    } catch (err) {
      if (!(err instanceof oauth.WWWAuthenticateChallengeError)) throw err;
      expect(oauth.isDPoPNonceError(err)).toBe(true);
      return err.response;
    }
  }

  /** oauth4webapi's retry: the handle kept the nonce from the refusal, so the second try carries it. */
  async function token(handle: oauth.DPoPHandle): Promise<string> {
    try {
      return (await oauth.processClientCredentialsResponse(as, client, await tokenRequest(handle)))
        .access_token;
    } catch (err) {
      if (!oauth.isDPoPNonceError(err)) throw err;
      return (await oauth.processClientCredentialsResponse(as, client, await tokenRequest(handle)))
        .access_token;
    }
  }

  it('RFC 9449 §8: a proof without a nonce at the token endpoint is 400 use_dpop_nonce with DPoP-Nonce; the retry with it gets a token', async () => {
    const handle = oauth.DPoP(client, keys);
    const refused = await tokenRequest(handle);
    expect(refused.status).toBe(400);
    const nonce = refused.headers.get('dpop-nonce');
    expect(nonce).toMatch(/^[0-9a-z]+\.[\w-]{22}$/);
    await expect(oauth.processClientCredentialsResponse(as, client, refused)).rejects.toSatisfy((err) =>
      oauth.isDPoPNonceError(err),
    );
    const issued = await tokenRequest(handle);
    expect(issued.status).toBe(200);
    expect(issued.headers.get('dpop-nonce')).toBe(nonce);
    const body = await oauth.processClientCredentialsResponse(as, client, issued);
    expect(body.token_type).toBe('dpop');
  });

  it('RFC 9449 §9: at a protected route a proof without the nonce is 401 DPoP error="use_dpop_nonce" with DPoP-Nonce; the retry passes', async () => {
    const accessToken = await token(oauth.DPoP(client, keys));
    // A new handle has no nonce yet, as a resource server reached for the first time.
    const handle = oauth.DPoP(client, keys);
    const refused = await resourceRequest(accessToken, handle);
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toMatch(/^DPoP error="use_dpop_nonce"/);
    expect(refused.headers.get('dpop-nonce')).toBeTruthy();
    const passed = await resourceRequest(accessToken, handle);
    expect(passed.status).toBe(200);
    expect(passed.headers.get('dpop-nonce')).toBeTruthy();
    expect(await passed.json()).toEqual({ client: client.client_id });
  });

  it('RFC 9449 §8.2: nonces rotate; the last one handed out still works a window later, an older one is refused', async () => {
    const handle = oauth.DPoP(client, keys);
    const accessToken = await token(handle);
    const first = (await resourceRequest(accessToken, handle)).headers.get('dpop-nonce')!;
    const url = `${t.url}/probe/machine`;
    const callWith = async (nonce: string) =>
      fetch(url, {
        headers: {
          authorization: `DPoP ${accessToken}`,
          dpop: await signedProof(keys, { htm: 'GET', htu: url, nonce, token: accessToken }, t.clock.now()),
        },
      });
    t.clock.advance(LIFETIME * 1000);
    // One window on, the client's nonce is still good, and the answer carries the new one.
    const next = await callWith(first);
    expect(next.status).toBe(200);
    const second = next.headers.get('dpop-nonce')!;
    expect(second).not.toBe(first);
    // Two windows on, a client that kept only the first nonce is refused and handed the current one.
    t.clock.advance(LIFETIME * 1000);
    const refused = await callWith(first);
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toMatch(/^DPoP error="use_dpop_nonce"/);
    expect(refused.headers.get('dpop-nonce')).not.toBe(first);
    expect((await callWith(second)).status).toBe(200);
    expect((await callWith(`${second.split('.')[0]}.forgedforgedforgedforg`)).status).toBe(401);
  });

  it('RFC 9449 §8: without a DPoP header, bearer token requests are untouched by nonces', async () => {
    const res = await oauth.clientCredentialsGrantRequest(
      as,
      client,
      auth,
      { scope: 'check-status' },
      insecure,
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('dpop-nonce')).toBeNull();
  });
});

/** A proof by hand, carrying a chosen nonce (oauth4webapi always uses the latest one it saw). */
async function signedProof(
  keys: CryptoKeyPair,
  claims: { htm: string; htu: string; nonce?: string; token?: string },
  now: Date,
): Promise<string> {
  const jwk = await crypto.subtle.exportKey('jwk', keys.publicKey);
  const ath = claims.token
    ? Buffer.from(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(claims.token))).toString(
        'base64url',
      )
    : undefined;
  return new SignJWT({
    jti: crypto.randomUUID(),
    htm: claims.htm,
    htu: claims.htu,
    ...(ath ? { ath } : {}),
    ...(claims.nonce ? { nonce: claims.nonce } : {}),
    iat: Math.floor(now.getTime() / 1000),
  })
    .setProtectedHeader({
      alg: 'ES256',
      typ: 'dpop+jwt',
      jwk: { kty: jwk.kty!, crv: jwk.crv!, x: jwk.x!, y: jwk.y! },
    })
    .sign(keys.privateKey);
}

/** §8's "valid across instances": two processes with one application key and no shared store. */
describe.each(ENGINES)('DPoP nonces across instances (%s)', (engine) => {
  let t: Instances;
  let keys: CryptoKeyPair;
  let client: { id: string; secret: string };

  beforeAll(async () => {
    t = await twoInstances(engine, { oauth: { dpopNonces: { enabled: true, lifetimeSeconds: LIFETIME } } });
    const created = await t.a.container
      .make(Clients)
      .create({ name: 'CLI', redirect: 'http://localhost', password: true });
    client = { id: created.client.id, secret: created.plainSecret! };
    keys = await oauth.generateKeyPair('ES256');
  });
  afterAll(() => t?.close());

  const tokenRequest = async (app: Instances['a'], nonce?: string) =>
    app.fetch(
      new Request('http://localhost/oauth/token', {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: `Basic ${Buffer.from(`${client.id}:${client.secret}`).toString('base64')}`,
          dpop: await signedProof(keys, { htm: 'POST', htu: 'http://localhost/oauth/token', nonce }, now()),
        },
        body: new URLSearchParams({
          grant_type: 'password',
          username: ADA.email,
          password: ADA.password,
          scope: 'check-status',
        }),
      }),
    );
  const now = () => new Date('2026-01-15T12:00:00Z');

  it('a nonce handed out by instance A is accepted by instance B, at the token endpoint and at a protected route', async () => {
    const refused = await tokenRequest(t.a);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ error: 'use_dpop_nonce' });
    const nonce = refused.headers.get('dpop-nonce')!;

    const issued = await tokenRequest(t.b, nonce);
    expect(issued.status).toBe(200);
    const { access_token, token_type } = (await issued.json()) as {
      access_token: string;
      token_type: string;
    };
    expect(token_type).toBe('DPoP');

    const url = 'http://localhost/api/orders';
    const call = await t.a.fetch(
      new Request(url, {
        headers: {
          accept: 'application/json',
          authorization: `DPoP ${access_token}`,
          dpop: await signedProof(keys, { htm: 'GET', htu: url, nonce, token: access_token }, now()),
        },
      }),
    );
    expect(call.status).toBe(200);
  });
});
