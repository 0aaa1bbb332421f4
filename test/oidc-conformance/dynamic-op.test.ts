import { randomUUID } from 'node:crypto';
import {
  createLocalJWKSet,
  decodeProtectedHeader,
  type JSONWebKeySet,
  type JWTPayload,
  jwtVerify,
  SignJWT,
  UnsecuredJWT,
} from 'jose';
import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rotateKeys } from '../../src/oauth/keys/rotation.js';
import { SigningKeys } from '../../src/oauth/keys/signing-keys.js';
import { type ClientKey, clientKey, keyAuth } from '../oauth/client-key-support.js';
import { type DocumentServer, documentServer } from '../oauth/document-server.js';
import { ISSUER, openIdClient } from '../oauth/openid-support.js';
import { insecure, REDIRECT } from '../oauth/support.js';
import { ANY_ENGINE } from '../support/engines.js';
import {
  approveIn,
  clientAuth,
  codeFlow,
  exchangeCode,
  type Plan,
  planRequest,
  startPlan,
  userInfo,
} from './support.js';

/**
 * The Dynamic OP plan (`oidcc-dynamic-certification-test-plan`), one test per module of its list,
 * in its order. The plan registers every client itself (`dynamic_client`) for `private_key_jwt`
 * client authentication with its keys (`jwks`, or `jwks_uri` where a module says so), as here;
 * the client's site (its `jwks_uri`, a `request_uri`) is a server on loopback, which the plan's
 * server may fetch from (`clientFetch.allowAddressRanges`).
 */
describe(`Dynamic OP certification modules`, () => {
  let plan: Plan;
  let metadata: Record<string, unknown>;
  let site: DocumentServer;
  let key: ClientKey;

  beforeAll(async () => {
    plan = await startPlan('query', {
      engine: ANY_ENGINE,
      config: {
        oauth: {
          registration: 'open',
          throttle: { register: { address: { points: 1000, durationSeconds: 3600 } } },
          clientFetch: { allowAddressRanges: ['loopback'] },
        },
      },
    });
    metadata = await (await fetch(`${plan.t.url}/.well-known/openid-configuration`)).json();
    site = await documentServer();
    key = await clientKey('plan-key-1');
  });
  afterAll(async () => {
    await plan.t.stop();
    await site.close();
  });

  /** RFC 7591 / OpenID Connect Dynamic Client Registration: the raw registration response. */
  const register = (body: Record<string, unknown>) =>
    fetch(`${plan.t.url}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client_name: 'conformance',
        grant_types: ['authorization_code', 'refresh_token'],
        ...body,
      }),
    });

  /**
   * A client registered as the plan registers it (`private_key_jwt` with its `jwks`, unless `body`
   * says otherwise), as the plan's client, authenticating with `signer`.
   */
  async function registered(body: Record<string, unknown> = {}, signer: ClientKey = key): Promise<Plan> {
    const res = await register({
      redirect_uris: [REDIRECT],
      token_endpoint_auth_method: 'private_key_jwt',
      ...(body.jwks_uri ? {} : { jwks: { keys: [signer.jwk] } }),
      ...body,
    });
    expect(res.status).toBe(201);
    const client = (await res.json()) as { client_id: string; client_secret?: string };
    expect(client).not.toHaveProperty('client_secret');
    return {
      ...plan,
      client: {
        id: client.client_id,
        secret: '',
        oauth: openIdClient(plan.t, client.client_id),
        auth: keyAuth(signer),
      },
    };
  }

  /** The authorization endpoint's answer must be an error page, never a redirect. */
  async function errorPage(res: Response) {
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
    expect(await res.text()).toContain('redirect_uri');
  }

  it('oidcc-idtoken-rs256', async () => {
    const client = await registered({ id_token_signed_response_alg: 'RS256' });
    const { tokens } = await codeFlow(client);
    expect(decodeProtectedHeader(tokens.id_token!)).toMatchObject({ alg: 'RS256', kid: expect.any(String) });
  });

  it(`oidcc-idtoken-unsigned (skipped by the plan: "The discovery endpoint 'id_token_signing_alg_values_supported' doesn't support 'none' algorithm")`, () => {
    expect(metadata.id_token_signing_alg_values_supported).not.toContain('none');
  });

  it('oidcc-userinfo-rs256', async () => {
    expect(metadata.userinfo_signing_alg_values_supported).toEqual(['RS256']);
    const client = await registered({ userinfo_signed_response_alg: 'RS256' });
    const { tokens, claims } = await codeFlow(client, { params: { scope: 'openid email' } });
    const res = await oauth.userInfoRequest(plan.as, client.client.oauth, tokens.access_token, insecure);
    expect(res.headers.get('content-type')).toBe('application/jwt');
    const jwt = await res.clone().text();
    // Signed by the server's current key, with iss and aud (Core §5.3.2).
    const { payload, protectedHeader } = await jwtVerify(jwt, createLocalJWKSet(await jwks()), {
      issuer: ISSUER,
      audience: client.client.id,
      currentDate: plan.t.clock.now(),
    });
    expect(protectedHeader).toMatchObject({ alg: 'RS256', kid: expect.any(String) });
    expect(payload).toMatchObject({ sub: claims.sub, email: 'ada@example.com' });
    const read = await userInfo(
      {
        ...client,
        client: {
          ...client.client,
          oauth: { ...client.client.oauth, userinfo_signed_response_alg: 'RS256' },
        },
      },
      tokens.access_token,
      claims.sub,
      res,
    );
    expect(read.email).toBe('ada@example.com');
  });

  it("registration refuses a userinfo_signed_response_alg other than the server's own", async () => {
    for (const alg of ['HS256', 'none', 'ES256', 7]) {
      const res = await register({ redirect_uris: [REDIRECT], userinfo_signed_response_alg: alg });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({
        error: 'invalid_client_metadata',
        error_description: "The userinfo_signed_response_alg must be RS256, this server's signing algorithm.",
      });
    }
  });

  it('oidcc-ensure-redirect-uri-in-authorization-request', async () => {
    const client = await registered({ redirect_uris: [REDIRECT, `${REDIRECT}/other`] });
    const request = await planRequest(client);
    await errorPage(await plan.ada.get(request.path.replace(/&?redirect_uri=[^&]*/, '')));
  });

  it('oidcc-redirect-uri-query-OK', async () => {
    const withQuery = `${REDIRECT}?foo=bar`;
    const client = await registered({ redirect_uris: [withQuery] });
    const request = await planRequest(client, { redirect_uri: withQuery });
    const callback = await approveIn(client, plan.ada, await plan.ada.get(request.path));
    expect(callback.get('foo')).toBe('bar');
    const params = oauth.validateAuthResponse(plan.as, client.client.oauth, callback, request.state);
    const res = await oauth.authorizationCodeGrantRequest(
      plan.as,
      client.client.oauth,
      clientAuth(client),
      params,
      withQuery,
      request.verifier,
      insecure,
    );
    const tokens = await oauth.processAuthorizationCodeResponse(plan.as, client.client.oauth, res, {
      expectedNonce: request.nonce,
      requireIdToken: true,
    });
    expect(oauth.getValidatedIdTokenClaims(tokens)?.aud).toBe(client.client.id);
  });

  it('oidcc-redirect-uri-query-mismatch', async () => {
    const client = await registered({ redirect_uris: [`${REDIRECT}?foo=bar`] });
    const request = await planRequest(client, { redirect_uri: `${REDIRECT}?foo=baz` });
    await errorPage(await plan.ada.get(request.path));
  });

  it('oidcc-redirect-uri-query-added', async () => {
    const client = await registered();
    const request = await planRequest(client, { redirect_uri: `${REDIRECT}?foo=bar` });
    await errorPage(await plan.ada.get(request.path));
  });

  it('oidcc-redirect-uri-regfrag', async () => {
    const res = await register({ redirect_uris: [`${REDIRECT}#fragment`] });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(await res.json()).toMatchObject({ error: 'invalid_redirect_uri' });
  });

  it('oidcc-discovery-endpoint-verification', async () => {
    const res = await fetch(`${plan.t.url}/.well-known/openid-configuration`);
    const discovered = await oauth.processDiscoveryResponse(new URL(ISSUER), res);
    expect(discovered).toMatchObject({
      issuer: ISSUER,
      registration_endpoint: `${ISSUER}/oauth/register`,
      claims_parameter_supported: true,
    });
    expect(discovered.scopes_supported).toContain('openid');
    expect(discovered.response_types_supported).toContain('code');
    expect(discovered.subject_types_supported).toEqual(['public']);
  });

  it('oidcc-server', async () => {
    const client = await registered();
    const { tokens, claims } = await codeFlow(client);
    expect(claims).toMatchObject({ iss: ISSUER, aud: client.client.id });
    expect(claims).not.toHaveProperty('name');
    await userInfo(client, tokens.access_token, claims.sub);
  });

  /**
   * The registration modules for the pages a client shows users: the value is registered, read
   * back (RFC 7592), and the approval page shows it (the plan asks for a screenshot of it).
   */
  const pages = [
    [
      'logo_uri',
      (html: string, uri: string) =>
        expect(html).toContain(`<img class="client-logo" src="${uri}" alt="conformance logo"`),
    ],
    [
      'policy_uri',
      (html: string, uri: string) =>
        expect(html).toMatch(new RegExp(`<a class="client-policy" href="${uri}"[^>]*>Privacy policy</a>`)),
    ],
    [
      'tos_uri',
      (html: string, uri: string) =>
        expect(html).toMatch(new RegExp(`<a class="client-tos" href="${uri}"[^>]*>Terms of service</a>`)),
    ],
  ] as const;
  for (const [field, shown] of pages) {
    it(`oidcc-registration-${field.replace('_', '-')}`, async () => {
      const uri = `https://client.example/${field}.png`;
      const res = await register({ redirect_uris: [REDIRECT], [field]: uri });
      expect(res.status).toBe(201);
      const registration = (await res.json()) as Record<string, string>;
      expect(registration[field]).toBe(uri);
      const read = await fetch(registration.registration_client_uri!.replace(ISSUER, plan.t.url), {
        headers: { authorization: `Bearer ${registration.registration_access_token}` },
      });
      expect(await read.json()).toMatchObject({ [field]: uri });
      const client: Plan = {
        ...plan,
        client: {
          id: registration.client_id!,
          secret: registration.client_secret!,
          oauth: openIdClient(plan.t, registration.client_id!),
        },
      };
      const page = await plan.ada.get((await planRequest(client)).path);
      expect(page.status).toBe(200);
      shown(await page.text(), uri);
    });
  }

  it('registration refuses page URLs that are not https (nor http on localhost), with credentials or a fragment', async () => {
    for (const uri of [
      'javascript:alert(1)',
      'http://client.example/logo.png',
      'https://user:pass@client.example/logo.png',
      'https://client.example/logo.png#x',
      'not a url',
      42,
    ]) {
      const res = await register({ redirect_uris: [REDIRECT], logo_uri: uri });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({
        error: 'invalid_client_metadata',
        error_description: expect.stringContaining('The logo_uri must be an https URL'),
      });
    }
    const local = await register({ redirect_uris: [REDIRECT], tos_uri: 'http://localhost:8080/tos' });
    expect(local.status).toBe(201);
  });

  it('oidcc-registration-jwks-uri', async () => {
    const signer = await clientKey('jwks-uri-key');
    const jwksUri = site.url('/registration-jwks-uri/jwks.json');
    site.serve('/registration-jwks-uri/jwks.json', { body: JSON.stringify({ keys: [signer.jwk] }) });
    const client = await registered({ jwks_uri: jwksUri }, signer);
    const { claims } = await codeFlow(client);
    expect(claims.aud).toBe(client.client.id);
    expect(site.hits('/registration-jwks-uri/jwks.json')).toBe(1);
  });

  for (const module of ['oidcc-registration-sector-uri', 'oidcc-registration-sector-bad']) {
    it(`${module} (skipped by the plan: "Server configuration does not explicitly support pairwise subject type")`, () => {
      expect(metadata.subject_types_supported).not.toContain('pairwise');
    });
  }

  it('oidcc-server-rotate-keys', async () => {
    const before = await jwks();
    await rotateKeys(plan.t.app.config.storagePath, plan.t.app.config.oauth.signingAlgorithm, {
      now: plan.t.clock.now(),
    });
    await plan.t.app.container.make(SigningKeys).refresh({ force: true });
    const after = await jwks();
    const kids = (set: JSONWebKeySet) => set.keys.map((key) => key.kid);
    // A new signing key, the old one still there; every kid distinct (RFC 7517 §4.5).
    expect(kids(after).filter((kid) => !kids(before).includes(kid))).toHaveLength(1);
    expect(kids(after)).toEqual(expect.arrayContaining(kids(before)));
    expect(new Set(kids(after)).size).toBe(after.keys.length);
    // ID tokens are signed with the new key.
    const { tokens } = await codeFlow(await registered());
    const { protectedHeader } = await jwtVerify(tokens.id_token!, createLocalJWKSet(after), {
      currentDate: plan.t.clock.now(),
    });
    expect(kids(before)).not.toContain(protectedHeader.kid);
  });

  it('oidcc-refresh-token-rp-key-rotation', async () => {
    const first = await clientKey('rotation-key-1');
    const path = '/rp-key-rotation/jwks.json';
    site.serve(path, { body: JSON.stringify({ keys: [first.jwk] }) });
    const client = await registered({ jwks_uri: site.url(path) }, first);
    const { tokens, claims } = await codeFlow(client);
    // The client puts a new key with a new kid in its jwks_uri, waits 60 seconds, then refreshes.
    const second = await clientKey('rotation-key-2');
    site.serve(path, { body: JSON.stringify({ keys: [second.jwk] }) });
    plan.t.clock.advance(60_000);
    const later = openIdClient(plan.t, client.client.id);
    const res = await oauth.refreshTokenGrantRequest(
      plan.as,
      later,
      keyAuth(second),
      tokens.refresh_token!,
      insecure,
    );
    const refreshed = await oauth.processRefreshTokenResponse(plan.as, later, res);
    expect(oauth.getValidatedIdTokenClaims(refreshed)?.sub).toBe(claims.sub);
    expect(site.hits(path)).toBe(2);
  });

  /** OpenID Connect Core §6: the plan's request as a request object, made from its parameters by `sign`. */
  async function objectRequest(
    client: Plan,
    sign: (claims: JWTPayload) => Promise<string>,
    options: { byValue?: boolean; outer?: Record<string, string> } = {},
  ) {
    const request = await planRequest(client);
    const jwt = await sign(Object.fromEntries(new URL(request.path, plan.t.url).searchParams));
    let passed: Record<string, string> = { request: jwt };
    if (!options.byValue) {
      const path = `/request-objects/${randomUUID()}.jwt`;
      site.serve(path, { headers: { 'content-type': 'application/oauth-authz-req+jwt' }, body: jwt });
      passed = { request_uri: site.url(path) };
    }
    const query = new URLSearchParams({ client_id: client.client.id, ...passed, ...options.outer });
    return { request, res: await plan.ada.get(`/oauth/authorize?${query}`) };
  }

  /** Approves, exchanges the code and checks the ID token's nonce: the request object was read. */
  async function completes(client: Plan, { request, res }: Awaited<ReturnType<typeof objectRequest>>) {
    const callback = await approveIn(client, plan.ada, res);
    const response = await exchangeCode(client, callback, request);
    const tokens = await oauth.processAuthorizationCodeResponse(plan.as, client.client.oauth, response, {
      expectedNonce: request.nonce,
      requireIdToken: true,
    });
    return oauth.getValidatedIdTokenClaims(tokens)!;
  }

  const unsigned = (claims: JWTPayload) => Promise.resolve(new UnsecuredJWT(claims).encode());
  const signedBy = (signer: ClientKey, client: Plan) => (claims: JWTPayload) =>
    new SignJWT({ iss: client.client.id, aud: ISSUER, ...claims })
      .setProtectedHeader({ alg: 'RS256', kid: signer.kid })
      .sign(signer.privateKey);

  it('oidcc-request-uri-unsigned', async () => {
    expect(metadata).toMatchObject({
      request_uri_parameter_supported: true,
      require_request_uri_registration: false,
    });
    const client = await registered();
    const claims = await completes(client, await objectRequest(client, unsigned));
    expect(claims.aud).toBe(client.client.id);
  });

  it('oidcc-request-uri-signed-rs256', async () => {
    expect(metadata.request_object_signing_alg_values_supported).toContain('RS256');
    const client = await registered({ request_object_signing_alg: 'RS256' });
    const claims = await completes(client, await objectRequest(client, signedBy(key, client)));
    expect(claims.aud).toBe(client.client.id);
  });

  it('oidcc-ensure-request-object-with-redirect-uri', async () => {
    // The object names the registered redirect URI, the plain parameter another: the object's wins.
    const client = await registered();
    const flow = await objectRequest(client, unsigned, {
      byValue: true,
      outer: { redirect_uri: 'https://evil.example/cb' },
    });
    expect((await completes(client, flow)).aud).toBe(client.client.id);
  });

  it('request objects that fail their checks are shown as errors, never redirected', async () => {
    const strict = await registered({ request_object_signing_alg: 'RS256' });
    const impostor = await clientKey(key.kid);
    const now = Math.floor(plan.t.clock.now().getTime() / 1000);
    const cases: [Plan, (claims: JWTPayload) => Promise<string>, string, { byValue?: boolean }?][] = [
      [strict, unsigned, 'This client registered request objects signed with RS256.'],
      [strict, signedBy(impostor, strict), "signature does not verify with the client's keys"],
      [
        strict,
        (claims) => signedBy(key, strict)({ ...claims, exp: now - 60 }),
        'The request object has expired.',
      ],
      [
        strict,
        (claims) => signedBy(key, strict)({ ...claims, aud: 'https://elsewhere.example' }),
        'aud must be http://localhost',
      ],
      [
        strict,
        (claims) => signedBy(key, strict)({ ...claims, client_id: 'another' }),
        'names another client_id',
      ],
      [strict, () => Promise.resolve('not a jwt'), 'The request object is not a JWT.', { byValue: true }],
    ];
    for (const [client, sign, message, options] of cases) {
      const { res } = await objectRequest(client, sign, options);
      expect(res.status).toBe(400);
      expect(res.headers.get('location')).toBeNull();
      expect(await res.text()).toContain(message.replace(/'/g, '&#39;'));
    }
  });

  it('a request_uri that does not answer, answers an error or is not https is refused with invalid_request_uri', async () => {
    const client = await registered();
    const request = await planRequest(client);
    site.serve('/request-objects/missing.jwt', { status: 404, body: 'not found' });
    for (const [uri, message] of [
      [site.url('/request-objects/missing.jwt'), 'Its server answered 404.'],
      ['http://client.example/request.jwt', 'The request_uri must be an https URL'],
    ] as const) {
      const query = new URLSearchParams({ client_id: client.client.id, request_uri: uri });
      const res = await plan.ada.get(`/oauth/authorize?${query}`);
      expect(res.status).toBe(400);
      expect(await res.text()).toContain(message);
    }
    expect(request.state).toEqual(expect.any(String));
  });

  it('oidcc-refresh-token', async () => {
    const client = await registered();
    const { tokens, claims } = await codeFlow(client);
    const res = await oauth.refreshTokenGrantRequest(
      plan.as,
      client.client.oauth,
      clientAuth(client),
      tokens.refresh_token!,
      insecure,
    );
    const refreshed = await oauth.processRefreshTokenResponse(plan.as, client.client.oauth, res);
    expect(oauth.getValidatedIdTokenClaims(refreshed)).toMatchObject({ sub: claims.sub, sid: claims.sid });
  });

  it('oidcc-ensure-client-assertion-with-iss-aud-succeeds', async () => {
    const client = await registered();
    const issuerAud = keyAuth(key, (_header, payload) => {
      payload.aud = ISSUER;
    });
    const { tokens } = await codeFlow(client, { auth: issuerAud });
    expect(tokens.access_token).toEqual(expect.any(String));
  });

  async function jwks(): Promise<JSONWebKeySet> {
    return (await (await fetch(`${plan.t.url}/oauth/jwks`)).json()) as JSONWebKeySet;
  }
});
