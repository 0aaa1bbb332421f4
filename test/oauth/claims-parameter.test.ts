import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  authorizationResponse,
  codeFlow,
  type Plan,
  planRequest,
  secretAuth,
  startPlan,
  userInfo,
} from '../oidc-conformance/support.js';
import { ANY_ENGINE } from '../support/engines.js';
import { ADA, insecure } from './support.js';

/** OpenID Connect Core §5.5: the `claims` request parameter. */
describe(`the claims request parameter`, () => {
  let plan: Plan;

  beforeAll(async () => {
    plan = await startPlan('query', { engine: ANY_ENGINE });
  });
  afterAll(async () => plan.t.stop());

  it('§5.5: claims asked for in the ID token go there, not to userinfo; the approval page asks for their scope', async () => {
    const claims = JSON.stringify({ id_token: { email: { essential: true }, email_verified: null } });
    const request = await planRequest(plan, { claims, prompt: 'consent' });
    const page = await (await plan.ada.get(request.path)).text();
    expect(page).toContain('See your e-mail address');
    const { tokens, claims: idToken } = await codeFlow(plan, { params: { claims } });
    expect(idToken).toMatchObject({ email: ADA.email, email_verified: false });
    const info = await userInfo(plan, tokens.access_token, idToken.sub);
    expect(info).not.toHaveProperty('email');
    expect(info).not.toHaveProperty('name');
  });

  it('§12.2: the ID token and access token issued on refresh keep the claims request and the sid', async () => {
    const claims = JSON.stringify({ id_token: { name: null }, userinfo: { email: null } });
    const { tokens, claims: first } = await codeFlow(plan, { params: { claims } });
    expect(first.name).toBe(ADA.name);
    expect(first.sid).toEqual(expect.any(String));
    const res = await oauth.refreshTokenGrantRequest(
      plan.as,
      plan.client.oauth,
      secretAuth(plan),
      tokens.refresh_token!,
      insecure,
    );
    const refreshed = await oauth.processRefreshTokenResponse(plan.as, plan.client.oauth, res);
    const again = oauth.getValidatedIdTokenClaims(refreshed)!;
    expect(again).toMatchObject({ sub: first.sub, name: ADA.name, sid: first.sid });
    const info = await userInfo(plan, refreshed.access_token, first.sub);
    expect(info).toMatchObject({ email: ADA.email });
    expect(info).not.toHaveProperty('name');
  });

  for (const [what, claims] of [
    ['not JSON', '{name'],
    ['not an object', '["name"]'],
    ['a member that is not an object', '{"userinfo":"name"}'],
    ['an essential that is not a boolean', '{"userinfo":{"name":{"essential":"yes"}}}'],
  ]) {
    it(`§5.5: a claims parameter that is ${what} is invalid_request, sent back to the client`, async () => {
      const request = await planRequest(plan, { claims: claims! });
      const params = await authorizationResponse(plan, await plan.ada.get(request.path));
      expect(params?.get('error')).toBe('invalid_request');
      expect(params?.get('error_description')).toContain('claims');
      expect(params?.get('state')).toBe(request.state);
    });
  }

  it('a client limited to the openid scope gets no claim of another scope by naming it', async () => {
    const { client, plainSecret } = await plan.t.createClient({ allowedScopes: ['openid'] });
    const limited: Plan = {
      ...plan,
      client: { id: client.id, secret: plainSecret!, oauth: { ...plan.client.oauth, client_id: client.id } },
    };
    const claims = JSON.stringify({ userinfo: { name: { essential: true } }, id_token: { email: null } });
    const { tokens, claims: idToken } = await codeFlow(limited, { params: { claims } });
    expect(idToken).not.toHaveProperty('email');
    expect(await userInfo(limited, tokens.access_token, idToken.sub)).not.toHaveProperty('name');
  });
});
