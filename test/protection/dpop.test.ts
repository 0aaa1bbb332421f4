import { decodeJwt, SignJWT } from 'jose';
import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Clients } from '../../src/oauth/index.js';
import { ENGINES } from '../support/engines.js';
import { ADA, dpopGet, type ProtectionApp, protectionApp } from './support.js';

const insecure = { [oauth.allowInsecureRequests]: true } as const;

/** A hand-made proof, for the cases oauth4webapi would never produce. */
async function proof(
  keys: CryptoKeyPair,
  claims: { htm: string; htu: string; ath?: string; iat: number; jti?: string },
): Promise<string> {
  const jwk = await crypto.subtle.exportKey('jwk', keys.publicKey);
  return new SignJWT({ jti: crypto.randomUUID(), ...claims })
    .setProtectedHeader({
      alg: 'ES256',
      typ: 'dpop+jwt',
      jwk: { kty: jwk.kty!, crv: jwk.crv!, x: jwk.x!, y: jwk.y! },
    })
    .sign(keys.privateKey);
}

const ath = async (token: string) =>
  Buffer.from(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(token))).toString('base64url');

/** RFC 9449 over real HTTP, driven by oauth4webapi's DPoP support: issuance, the guard, refusals. */
describe.each(ENGINES)('DPoP (%s)', (engine) => {
  let t: ProtectionApp;
  let as: oauth.AuthorizationServer;
  let client: oauth.Client;
  let auth: oauth.ClientAuth;
  let keys: CryptoKeyPair;
  let now: number;

  beforeAll(async () => {
    t = await protectionApp({ engine });
    as = { issuer: t.url, token_endpoint: `${t.url}/oauth/token` };
    const created = await t.app.container
      .make(Clients)
      .create({ name: 'Machine', redirect: 'http://localhost' });
    now = Math.floor(t.clock.now().getTime() / 1000);
    // The test clock is fixed: oauth4webapi's proofs follow it through the client's clock skew.
    client = { client_id: created.client.id, [oauth.clockSkew]: now - Math.floor(Date.now() / 1000) };
    auth = oauth.ClientSecretBasic(created.plainSecret!);
    keys = await oauth.generateKeyPair('ES256');
  });
  afterAll(() => t?.stop());

  async function dpopToken(pair = keys): Promise<{ token: string; handle: oauth.DPoPHandle }> {
    const handle = oauth.DPoP(client, pair);
    const res = await oauth.clientCredentialsGrantRequest(
      as,
      client,
      auth,
      { scope: 'check-status' },
      {
        ...insecure,
        DPoP: handle,
      },
    );
    const body = await oauth.processClientCredentialsResponse(as, client, res);
    expect(body.token_type).toBe('dpop');
    return { token: body.access_token, handle };
  }

  it('advertises the proof algorithms (RFC 8414)', async () => {
    const res = await fetch(`${t.url}/.well-known/oauth-authorization-server`);
    const metadata = (await res.json()) as Record<string, unknown>;
    expect(metadata.dpop_signing_alg_values_supported).toContain('ES256');
  });

  it('binds a client_credentials token to the proof key (cnf.jkt, token_type DPoP)', async () => {
    const { token, handle } = await dpopToken();
    expect(decodeJwt(token).cnf).toEqual({ jkt: await handle.calculateThumbprint() });
  });

  it('accepts the bound token with a proof at a protected route, request after request', async () => {
    const { token, handle } = await dpopToken();
    for (let i = 0; i < 3; i++) {
      const res = await dpopGet(`${t.url}/probe/machine`, token, handle);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ client: client.client_id });
    }
  });

  it('refuses a replayed proof', async () => {
    const { token } = await dpopToken();
    const url = `${t.url}/probe/machine`;
    const sent = await proof(keys, { htm: 'GET', htu: url, ath: await ath(token), iat: now });
    const headers = { authorization: `DPoP ${token}`, dpop: sent };
    expect((await fetch(url, { headers })).status).toBe(200);
    const again = await fetch(url, { headers });
    expect(again.status).toBe(401);
    expect(again.headers.get('www-authenticate')).toMatch(
      /^DPoP error="invalid_dpop_proof".*algs="[^"]*ES256/,
    );
  });

  it('refuses a proof for another URL, another method, another token or an old iat', async () => {
    const { token } = await dpopToken();
    const url = `${t.url}/probe/machine`;
    const hash = await ath(token);
    const bad = [
      { htm: 'GET', htu: `${t.url}/probe/all`, ath: hash, iat: now },
      { htm: 'POST', htu: url, ath: hash, iat: now },
      { htm: 'GET', htu: url, ath: await ath(`${token}x`), iat: now },
      { htm: 'GET', htu: url, ath: hash, iat: now - 600 },
    ];
    for (const claims of bad) {
      const res = await fetch(url, {
        headers: { authorization: `DPoP ${token}`, dpop: await proof(keys, claims) },
      });
      expect(res.status).toBe(401);
    }
  });

  it('refuses a proof signed by another key', async () => {
    const { token } = await dpopToken();
    const url = `${t.url}/probe/machine`;
    const other = await oauth.generateKeyPair('ES256');
    const sent = await proof(other, { htm: 'GET', htu: url, ath: await ath(token), iat: now });
    const res = await fetch(url, { headers: { authorization: `DPoP ${token}`, dpop: sent } });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^DPoP error="invalid_dpop_proof"/);
  });

  it('refuses a bound token sent as Bearer, and a bearer token sent as DPoP', async () => {
    const { token } = await dpopToken();
    for (let i = 0; i < 3; i++) {
      const res = await t.call('/probe/machine', token);
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token"/);
    }
    const plain = await t.passwordToken('check-status');
    const url = `${t.url}/probe/can`;
    const sent = await proof(keys, { htm: 'GET', htu: url, ath: await ath(plain), iat: now });
    const res = await fetch(url, { headers: { authorization: `DPoP ${plain}`, dpop: sent } });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^DPoP error="invalid_token"/);
  });

  it('binds a user token (password grant) and authenticates its user with a proof', async () => {
    const handle = oauth.DPoP(client, keys);
    const password = { client_id: t.passwordClient.client.id, [oauth.clockSkew]: client[oauth.clockSkew] };
    const res = await oauth.genericTokenEndpointRequest(
      as,
      password,
      oauth.ClientSecretPost(t.passwordClient.plainSecret!),
      'password',
      { username: ADA.email, password: ADA.password, scope: 'check-status' },
      { ...insecure, DPoP: handle },
    );
    const body = await oauth.processGenericTokenEndpointResponse(as, password, res);
    expect(body.token_type).toBe('dpop');
    const call = await oauth.protectedResourceRequest(
      body.access_token,
      'GET',
      new URL(`${t.url}/probe/can`),
      new Headers(),
      null,
      {
        ...insecure,
        DPoP: handle,
      },
    );
    expect(call.status).toBe(200);
    expect(await call.json()).toEqual({ place: false, check: true });
  });

  it('answers a bad proof at the token endpoint with 400 invalid_dpop_proof', async () => {
    const sent = await proof(keys, { htm: 'POST', htu: `${t.url}/oauth/elsewhere`, iat: now });
    const res = await fetch(`${t.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', dpop: sent },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: client.client_id,
        client_secret: '',
      }),
    });
    expect(res.status).toBeGreaterThanOrEqual(400);
    const good = await proof(keys, { htm: 'POST', htu: `${t.url}/oauth/token`, iat: now - 3600 });
    const old = await oauth.clientCredentialsGrantRequest(
      as,
      client,
      auth,
      {},
      {
        ...insecure,
        headers: { dpop: good },
      },
    );
    expect(old.status).toBe(400);
    expect(await old.json()).toMatchObject({ error: 'invalid_dpop_proof' });
  });

  it('requires a proof from a client registered with dpop_bound_access_tokens', async () => {
    const created = await t.app.container
      .make(Clients)
      .create({ name: 'Bound', redirect: 'http://localhost', dpopBoundAccessTokens: true });
    const bound = { client_id: created.client.id, [oauth.clockSkew]: client[oauth.clockSkew] };
    const bare = await oauth.clientCredentialsGrantRequest(
      as,
      bound,
      oauth.ClientSecretBasic(created.plainSecret!),
      {},
      insecure,
    );
    expect(bare.status).toBe(400);
    const withProof = await oauth.clientCredentialsGrantRequest(
      as,
      bound,
      oauth.ClientSecretBasic(created.plainSecret!),
      {},
      {
        ...insecure,
        DPoP: oauth.DPoP(bound, keys),
      },
    );
    expect(withProof.status).toBe(200);
  });
});
