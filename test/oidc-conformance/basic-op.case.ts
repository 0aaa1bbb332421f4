import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DocumentServer, documentServer } from '../oauth/document-server.js';
import { ISSUER, logInAgain, verifySignatureAndAtHash } from '../oauth/openid-support.js';
import { ADA, Browser, insecure, REDIRECT } from '../oauth/support.js';
import type { Engine } from '../support/engines.js';
import {
  approveIn,
  authorizationResponse,
  codeFlow,
  exchangeCode,
  type Plan,
  planRequest,
  type ResponseMode,
  secretAuth,
  startPlan,
  userInfo,
} from './support.js';

/**
 * The Basic OP certification plan (`oidcc-basic-certification-test-plan`), one test per module of
 * its list, in the plan's order; with `form_post`, the Form Post Basic OP plan (the same list).
 * Modules the plan skips for a feature Tollgate declines check that the discovery document says so.
 */
export function describeBasicOp(mode: ResponseMode, engine: Engine) {
  const profile = mode === 'form_post' ? 'Form Post OP' : 'Basic OP';
  describe(`${profile} certification modules`, () => {
    let plan: Plan;
    let metadata: Record<string, unknown>;
    /** The client's site, serving its request objects (a `request_uri`) on loopback. */
    let site: DocumentServer;

    beforeAll(async () => {
      plan = await startPlan(mode, {
        engine,
        config: { oauth: { clientFetch: { allowAddressRanges: ['loopback'] } } },
      });
      metadata = await (await fetch(`${plan.t.url}/.well-known/openid-configuration`)).json();
      site = await documentServer();
    });
    afterAll(async () => {
      await plan.t.stop();
      await site.close();
    });

    /** The error of an authorization response sent back to the client. */
    async function errorOf(res: Response, state: string) {
      const params = await authorizationResponse(plan, res);
      expect(params, `status ${res.status}`).toBeDefined();
      expect(params!.get('state')).toBe(state);
      return params!.get('error');
    }

    it('oidcc-server', async () => {
      const { tokens, claims } = await codeFlow(plan);
      expect(claims).toMatchObject({
        iss: 'http://localhost',
        aud: plan.client.id,
        sub: String(plan.t.ada.id),
      });
      await userInfo(plan, tokens.access_token, claims.sub);
    });

    it('oidcc-response-type-missing', async () => {
      const request = await planRequest(plan);
      const path = request.path.replace(/&?response_type=code/, '');
      expect(await errorOf(await plan.ada.get(path), request.state)).toBe('invalid_request');
    });

    it('oidcc-idtoken-signature', async () => {
      const { tokens } = await codeFlow(plan);
      const { protectedHeader } = await verifySignatureAndAtHash(
        plan.t,
        tokens.id_token!,
        tokens.access_token,
      );
      expect(protectedHeader.kid).toBeTruthy();
      expect(metadata.id_token_signing_alg_values_supported).toContain(protectedHeader.alg);
    });

    it("oidcc-idtoken-unsigned (skipped by the plan: \"id_token_signing_alg_values_supported doesn't support 'none'\")", () => {
      expect(metadata.id_token_signing_alg_values_supported).not.toContain('none');
    });

    it('oidcc-userinfo-get', async () => {
      const { tokens, claims } = await codeFlow(plan);
      expect((await userInfo(plan, tokens.access_token, claims.sub)).sub).toBe(claims.sub);
    });

    it('oidcc-userinfo-post-header', async () => {
      const { tokens, claims } = await codeFlow(plan);
      const res = await fetch(`${plan.t.url}/oauth/userinfo`, {
        method: 'POST',
        headers: { authorization: `Bearer ${tokens.access_token}` },
      });
      expect((await userInfo(plan, tokens.access_token, claims.sub, res)).sub).toBe(claims.sub);
    });

    it('oidcc-userinfo-post-body', async () => {
      const { tokens, claims } = await codeFlow(plan);
      // RFC 6750 §2.2: the access token as a form-encoded body parameter.
      const res = await fetch(`${plan.t.url}/oauth/userinfo`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ access_token: tokens.access_token }),
      });
      expect((await userInfo(plan, tokens.access_token, claims.sub, res)).sub).toBe(claims.sub);
      // §2: one way at a time.
      const both = await fetch(`${plan.t.url}/oauth/userinfo`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${tokens.access_token}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: new URLSearchParams({ access_token: tokens.access_token }),
      });
      expect(both.status).toBe(400);
    });

    it('oidcc-ensure-request-without-nonce-succeeds-for-code-flow', async () => {
      const { claims } = await codeFlow(plan, { params: { nonce: '' } });
      expect(claims.nonce).toBeUndefined();
    });

    it('oidcc-scope-profile', async () => {
      const { tokens, claims } = await codeFlow(plan, { params: { scope: 'openid profile' } });
      const info = await userInfo(plan, tokens.access_token, claims.sub);
      expect(info.name ?? claims.name).toBe(ADA.name);
    });

    it('oidcc-scope-email', async () => {
      const { tokens, claims } = await codeFlow(plan, { params: { scope: 'openid email' } });
      const info = await userInfo(plan, tokens.access_token, claims.sub);
      // Core §5.4: the email scope asks for email and email_verified.
      expect(info).toMatchObject({ email: ADA.email, email_verified: false });
    });

    for (const scope of ['address', 'phone', 'all']) {
      it(`oidcc-scope-${scope} (skipped by the plan: "scopes_supported … doesn't support the scopes required")`, () => {
        const wanted = scope === 'all' ? ['address', 'phone'] : [scope];
        for (const name of wanted) expect(metadata.scopes_supported).not.toContain(name);
      });
    }

    it('oidcc-alternate-happy-flow', async () => {
      const { tokens, claims } = await codeFlow(plan, { params: { scope: 'openid email profile' } });
      expect(await userInfo(plan, tokens.access_token, claims.sub)).toMatchObject({ email: ADA.email });
    });

    for (const display of ['page', 'popup']) {
      it(`oidcc-display-${display}`, async () => {
        await codeFlow(plan, { params: { display } });
      });
    }

    it('oidcc-prompt-login', async () => {
      const first = await codeFlow(plan);
      plan.t.clock.advance(2_000);
      const request = await planRequest(plan, { prompt: 'login' });
      const asked = await plan.ada.get(request.path);
      const answered = await logInAgain(plan.ada, asked, ADA);
      const callback = await approveIn(plan, plan.ada, answered);
      const second = await processCode(callback, request);
      expect(second.auth_time).toBeGreaterThan(first.claims.auth_time!);
    });

    it('oidcc-prompt-none-not-logged-in', async () => {
      const request = await planRequest(plan, { prompt: 'none' });
      const stranger = new Browser(plan.t.url);
      expect(await errorOf(await stranger.get(request.path), request.state)).toBe('login_required');
    });

    it('oidcc-prompt-none-logged-in', async () => {
      await codeFlow(plan);
      const request = await planRequest(plan, { prompt: 'none' });
      const callback = await authorizationResponse(plan, await plan.ada.get(request.path));
      expect((await processCode(callback!, request)).sub).toBe(String(plan.t.ada.id));
    });

    it('oidcc-max-age-1', async () => {
      await codeFlow(plan);
      plan.t.clock.advance(2_000);
      const request = await planRequest(plan, { max_age: '1' });
      const answered = await logInAgain(plan.ada, await plan.ada.get(request.path), ADA);
      const claims = await processCode(await approveIn(plan, plan.ada, answered), request, 1);
      expect(claims.auth_time).toBe(Math.floor(plan.t.clock.now().getTime() / 1000));
    });

    it('oidcc-max-age-10000', async () => {
      const { claims } = await codeFlow(plan, { params: { max_age: '10000' } });
      expect(claims.auth_time).toEqual(expect.any(Number));
    });

    it('oidcc-ensure-request-with-unknown-parameter-succeeds', async () => {
      await codeFlow(plan, { params: { extra: 'foobar' } });
    });

    it('oidcc-id-token-hint', async () => {
      const first = await codeFlow(plan);
      const request = await planRequest(plan, { prompt: 'none', id_token_hint: first.tokens.id_token! });
      const callback = await authorizationResponse(plan, await plan.ada.get(request.path));
      const second = await processCode(callback!, request);
      expect(second.sub).toBe(first.claims.sub);
      expect(second.auth_time).toBe(first.claims.auth_time);
    });

    const hints: Record<string, Record<string, string>> = {
      'oidcc-login-hint': { login_hint: ADA.email },
      'oidcc-ui-locales': { ui_locales: 'se' },
      'oidcc-claims-locales': { claims_locales: 'se' },
      'oidcc-ensure-request-with-acr-values-succeeds': { acr_values: '1 2' },
    };
    for (const [module, params] of Object.entries(hints)) {
      it(module, async () => {
        await codeFlow(plan, { params });
      });
    }

    for (const wait of [0, 30_000]) {
      it(wait ? 'oidcc-codereuse-30seconds' : 'oidcc-codereuse', async () => {
        const request = await planRequest(plan);
        const callback = await approveIn(plan, plan.ada, await plan.ada.get(request.path));
        const first = await oauth.processAuthorizationCodeResponse(
          plan.as,
          plan.client.oauth,
          await exchangeCode(plan, callback, request),
          { expectedNonce: request.nonce },
        );
        plan.t.clock.advance(wait);
        const again = await exchangeCode(plan, callback, request);
        expect(again.status).toBe(400);
        expect(await again.json()).toMatchObject({ error: 'invalid_grant' });
        // RFC 6749 §4.1.2: the tokens issued for the code are revoked.
        const res = await oauth.userInfoRequest(plan.as, plan.client.oauth, first.access_token, insecure);
        expect(res.status).toBe(401);
      });
    }

    it('oidcc-ensure-registered-redirect-uri', async () => {
      const request = await planRequest(plan, { redirect_uri: 'https://evil.example/callback' });
      const res = await plan.ada.get(request.path);
      expect(res.status).toBe(400);
      expect(res.headers.get('location')).toBeNull();
      expect(await res.text()).not.toContain('evil.example');
    });

    it('oidcc-ensure-post-request-succeeds', async () => {
      // OpenID Connect Core §3.1.2.1: the authorization endpoint takes POST as well as GET.
      const request = await planRequest(plan);
      const fields = Object.fromEntries(new URL(request.path, plan.t.url).searchParams);
      const clientSite = { origin: new URL(REDIRECT).origin };
      const page = await plan.ada.post('/oauth/authorize', fields, clientSite);
      const callback = await approveIn(plan, plan.ada, page);
      expect((await processCode(callback, request)).sub).toBe(String(plan.t.ada.id));
      // Nobody logged in: the login page, then the same request as a GET.
      const stranger = new Browser(plan.t.url);
      const res = await stranger.post('/oauth/authorize', fields, clientSite);
      expect(res.status).toBe(302);
      const login = new URL(res.headers.get('location')!, plan.t.url);
      expect(login.pathname).toBe('/login');
      const back = new URL(login.searchParams.get('intended')!, plan.t.url);
      expect(Object.fromEntries(back.searchParams)).toEqual(fields);
    });

    it('oidcc-server-client-secret-post', async () => {
      await codeFlow(plan, { auth: secretAuth(plan, 'post') });
    });

    /** The plan's request object: the request's parameters as an unsigned JWT (`alg: none`). */
    async function unsignedRequestObject() {
      const request = await planRequest(plan);
      const params = Object.fromEntries(new URL(request.path, plan.t.url).searchParams);
      const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
      const jwt = `${encode({ alg: 'none' })}.${encode({ ...params, iss: plan.client.id, aud: ISSUER })}.`;
      // Core §6.1: response_type, client_id, scope (and the redirect_uri) also as plain parameters.
      const plain = Object.fromEntries(
        ['client_id', 'response_type', 'scope', 'redirect_uri', 'response_mode']
          .filter((name) => params[name] !== undefined)
          .map((name) => [name, params[name]!]),
      );
      return { plain, jwt, state: request.state };
    }

    /** An authorization request by GET with `params`. */
    const authorize = (params: Record<string, string>) =>
      plan.ada.get(`/oauth/authorize?${new URLSearchParams(params)}`);

    /** The request object was read: the answer is a code for the object's state, at its redirect URI. */
    async function supportedCorrectly(res: Response, state: string) {
      const callback = await approveIn(plan, plan.ada, res);
      expect(callback.get('state')).toBe(state);
      expect(callback.get('code')).toEqual(expect.any(String));
    }

    it('oidcc-request-uri-unsigned-supported-correctly-or-rejected-as-unsupported', async () => {
      expect(metadata.request_uri_parameter_supported).toBe(true);
      const { plain, jwt, state } = await unsignedRequestObject();
      site.serve('/request.jwt', {
        headers: { 'content-type': 'application/oauth-authz-req+jwt' },
        body: jwt,
      });
      const res = await authorize({ ...plain, request_uri: site.url('/request.jwt') });
      await supportedCorrectly(res, state);
    });

    it('oidcc-unsigned-request-object-supported-correctly-or-rejected-as-unsupported', async () => {
      expect(metadata.request_parameter_supported).toBe(true);
      const { jwt, plain, state } = await unsignedRequestObject();
      const res = await authorize({ ...plain, request: jwt });
      await supportedCorrectly(res, state);
    });

    it('oidcc-ensure-request-object-with-redirect-uri', async () => {
      // The object names the registered redirect URI, the plain parameter another: the object's wins.
      const { jwt, plain, state } = await unsignedRequestObject();
      const res = await authorize({ ...plain, redirect_uri: 'https://evil.example/cb', request: jwt });
      await supportedCorrectly(res, state);
    });

    it('oidcc-claims-essential', async () => {
      // Core §5.5: name asked for as essential at userinfo, with the openid scope alone.
      const claims = JSON.stringify({ userinfo: { name: { essential: true } } });
      const { tokens, claims: idToken } = await codeFlow(plan, { params: { claims } });
      const info = await userInfo(plan, tokens.access_token, idToken.sub);
      expect(info).toMatchObject({ sub: idToken.sub, name: ADA.name });
      // Asked for at userinfo only: not in the ID token.
      expect(idToken).not.toHaveProperty('name');
      expect(metadata.claims_parameter_supported).toBe(true);
    });

    it('oidcc-refresh-token', async () => {
      const { tokens, claims } = await codeFlow(plan);
      expect(tokens.refresh_token).toBeTruthy();
      const res = await oauth.refreshTokenGrantRequest(
        plan.as,
        plan.client.oauth,
        secretAuth(plan),
        tokens.refresh_token!,
        insecure,
      );
      const refreshed = await oauth.processRefreshTokenResponse(plan.as, plan.client.oauth, res);
      expect(oauth.getValidatedIdTokenClaims(refreshed)?.sub).toBe(claims.sub);
    });

    it('oidcc-ensure-request-with-valid-pkce-succeeds', async () => {
      const { request } = await codeFlow(plan);
      expect(request.path).toContain('code_challenge_method=S256');
    });

    /** Exchanges the code of `callback` and returns the ID token's validated claims. */
    async function processCode(
      callback: URLSearchParams,
      request: { state: string; verifier: string; nonce: string },
      maxAge?: number,
    ) {
      const tokens = await oauth.processAuthorizationCodeResponse(
        plan.as,
        plan.client.oauth,
        await exchangeCode(plan, callback, request),
        { expectedNonce: request.nonce, requireIdToken: true, ...(maxAge ? { maxAge } : {}) },
      );
      return oauth.getValidatedIdTokenClaims(tokens)!;
    }
  });
}
