import { createLocalJWKSet, type JSONWebKeySet, jwtVerify } from 'jose';
import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ISSUER } from '../oauth/openid-support.js';
import { ANY_ENGINE } from '../support/engines.js';
import { codeFlow, type Plan, startPlan } from './support.js';

/** The Config OP plan (`oidcc-config-certification-test-plan`): its one module. */
describe(`Config OP certification modules`, () => {
  let plan: Plan;

  beforeAll(async () => {
    plan = await startPlan('query', { engine: ANY_ENGINE });
  });
  afterAll(async () => plan.t.stop());

  it('oidcc-discovery-endpoint-verification', async () => {
    const res = await fetch(`${plan.t.url}/.well-known/openid-configuration`);
    expect(res.headers.get('content-type')).toContain('application/json');
    const metadata = await oauth.processDiscoveryResponse(new URL(ISSUER), res);
    // Issuer, endpoints, scopes with openid, response and subject types, signing algorithms, claims.
    expect(metadata.issuer).toBe(ISSUER);
    for (const endpoint of [
      'authorization_endpoint',
      'token_endpoint',
      'userinfo_endpoint',
      'jwks_uri',
    ] as const) {
      expect(new URL(metadata[endpoint] as string).origin).toBe(ISSUER);
    }
    expect(metadata.scopes_supported).toContain('openid');
    expect(metadata.response_types_supported).toContain('code');
    expect(metadata.response_modes_supported).toEqual(expect.arrayContaining(['query', 'form_post']));
    expect(metadata.subject_types_supported).toEqual(['public']);
    expect(metadata.id_token_signing_alg_values_supported).toContain('RS256');
    expect(metadata.claims_supported).toEqual(
      expect.arrayContaining(['sub', 'iss', 'email_verified', 'sid']),
    );
    expect(metadata.claims_parameter_supported).toBe(true);
    // The JWKS: public keys only, each with kid, use and alg; it verifies the ID tokens.
    const jwks = (await (await fetch(`${plan.t.url}/oauth/jwks`)).json()) as JSONWebKeySet;
    for (const key of jwks.keys) {
      expect(key).toMatchObject({ kid: expect.any(String), use: 'sig' });
      expect(key).not.toHaveProperty('d');
    }
    const { tokens } = await codeFlow(plan);
    const { payload } = await jwtVerify(tokens.id_token!, createLocalJWKSet(jwks), {
      issuer: metadata.issuer,
      currentDate: plan.t.clock.now(),
    });
    expect(payload.iss).toBe(metadata.issuer);
  });
});
