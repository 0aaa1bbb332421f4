import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountsProvider } from '../../src/accounts/provider.js';
import { codeAt } from '../../src/accounts/two-factor/totp.js';
import { TwoFactor } from '../../src/accounts/two-factor/two-factor.js';
import { Users } from '../../src/auth/users.js';
import { mailProvider } from '../../src/mail/provider.js';
import { ACR_ONE_FACTOR, ACR_TWO_FACTORS } from '../../src/oauth/oidc/amr.js';
import { ANY_ENGINE } from '../support/engines.js';
import { authorizeInBrowser, exchange, openIdClient, openIdRequest } from './openid-support.js';
import { ADA, BOB, Browser, insecure, type OAuthTestApp, oauthApp, tokenIn } from './support.js';

/** OpenID Connect `acr_values`, `max_age`, and the ID token's `acr`, `amr`, `auth_time` (oauth4webapi as the client). */
describe(`OpenID Connect: acr, amr and step-up to a second factor`, () => {
  let t: OAuthTestApp;
  let clientId: string;
  /** The seed of the user signing in with a code. */
  let seed: string;

  const now = () => Math.floor(t.clock.now().getTime() / 1000);
  const nextStep = () => t.clock.advance(30_000);

  /** The whole flow from the signed-in `browser`: the validated ID token's claims. */
  async function idToken(
    browser: Browser,
    params: Record<string, string>,
    follow?: (res: Response) => Promise<Response>,
  ) {
    const client = openIdClient(t, clientId);
    const request = await openIdRequest(clientId, params);
    const first = await browser.get(request.path);
    const path = follow
      ? new URL((await follow(first)).headers.get('location') ?? request.path, t.url)
      : undefined;
    const callback = await authorizeInBrowser(browser, path ? path.pathname + path.search : request.path);
    const response = await exchange(t, client, oauth.None(), callback, request);
    const tokens = await oauth.processAuthorizationCodeResponse(t.as, client, response, {
      expectedNonce: request.nonce,
      ...(params.max_age ? { maxAge: Number(params.max_age) } : {}),
    });
    return Object.assign(oauth.getValidatedIdTokenClaims(tokens)!, { refreshToken: tokens.refresh_token });
  }

  /** The password, then (when asked) the app's code; returns the last answer. */
  async function signIn(browser: Browser, user: { email: string; password: string }, intended?: string) {
    const page = await browser.get(intended ? `/login?intended=${encodeURIComponent(intended)}` : '/login');
    const fields = { _token: tokenIn(await page.text()), ...user, ...(intended ? { intended } : {}) };
    const res = await browser.post('/login', fields);
    if (res.headers.get('location') !== '/login/two-factor') return res;
    const step = await browser.get('/login/two-factor');
    return browser.post('/login/two-factor', {
      _token: tokenIn(await step.text()),
      code: codeAt(seed, t.clock.now()),
    });
  }

  beforeAll(async () => {
    t = await oauthApp({ engine: ANY_ENGINE, modules: [mailProvider(), accountsProvider()] });
    clientId = (await t.createClient({ confidential: false })).client.id;
  });
  afterAll(async () => t?.stop());

  it('discovery lists the acr values and the acr and amr claims', async () => {
    const metadata = (await (await fetch(`${t.url}/.well-known/openid-configuration`)).json()) as Record<
      string,
      string[]
    >;
    expect(metadata.acr_values_supported).toEqual([ACR_ONE_FACTOR, ACR_TWO_FACTORS]);
    expect(metadata.claims_supported).toEqual(expect.arrayContaining(['acr', 'amr', 'auth_time']));
  });

  it('a password sign-in: amr pwd, one factor, auth_time its time; acr_values for two cannot be met without a second factor', async () => {
    const browser = new Browser(t.url);
    const at = now();
    expect((await signIn(browser, ADA)).status).toBe(302);
    t.clock.advance(5_000);
    const claims = await idToken(browser, { max_age: '60', acr_values: ACR_TWO_FACTORS });
    expect(claims.amr).toEqual(['pwd']);
    expect(claims.acr).toBe(ACR_ONE_FACTOR);
    expect(claims.auth_time).toBe(at);
  });

  it('password and code: amr pwd otp, two factors', async () => {
    const twoFactor = t.app.container.make(TwoFactor);
    seed = (await twoFactor.begin(t.bob))!.seed;
    expect(await twoFactor.confirm(t.bob, codeAt(seed, t.clock.now()), {})).toHaveLength(10);
    nextStep();
    const browser = new Browser(t.url);
    const at = now();
    const done = await signIn(browser, BOB);
    expect(done.headers.get('location')).toBe('/dashboard');
    const claims = await idToken(browser, { acr_values: `${ACR_TWO_FACTORS} ${ACR_ONE_FACTOR}` });
    expect(claims.amr).toEqual(['pwd', 'otp']);
    expect(claims.acr).toBe(ACR_TWO_FACTORS);
    expect(claims.auth_time).toBe(at);

    // Core §12.2: the ID token issued on refresh tells the same sign-in.
    const client = openIdClient(t, clientId);
    const res = await oauth.refreshTokenGrantRequest(
      t.as,
      client,
      oauth.None(),
      claims.refreshToken!,
      insecure,
    );
    const refreshed = oauth.getValidatedIdTokenClaims(
      await oauth.processRefreshTokenResponse(t.as, client, res),
    )!;
    expect([refreshed.amr, refreshed.acr, refreshed.auth_time]).toEqual([
      ['pwd', 'otp'],
      ACR_TWO_FACTORS,
      at,
    ]);
  });

  it('acr_values for two factors after a password alone: the user signs in again with the code (step-up)', async () => {
    // Carol signs in with her password, and turns the app on afterwards: her session has one factor.
    const carol = { name: 'Carol', email: 'carol@example.com', password: 'analytical engine' };
    const user = await t.app.container.make(Users).create(carol);
    const browser = new Browser(t.url);
    expect((await signIn(browser, carol)).headers.get('location')).toBe('/dashboard');
    const twoFactor = t.app.container.make(TwoFactor);
    seed = (await twoFactor.begin(user))!.seed;
    await twoFactor.confirm(user, codeAt(seed, t.clock.now()), {});
    nextStep();

    const plain = await idToken(browser, {});
    expect(plain.amr).toEqual(['pwd']);
    expect(plain.acr).toBe(ACR_ONE_FACTOR);

    // Without the user, no step-up: prompt=none gets login_required.
    const silent = await openIdRequest(clientId, { acr_values: ACR_TWO_FACTORS, prompt: 'none' });
    const refused = new URL((await browser.get(silent.path)).headers.get('location')!);
    expect(refused.searchParams.get('error')).toBe('login_required');

    t.clock.advance(60_000);
    const stepUpAt = now();
    const claims = await idToken(browser, { acr_values: ACR_TWO_FACTORS }, async (res) => {
      expect(res.status).toBe(302);
      const login = new URL(res.headers.get('location')!, t.url);
      expect(login.pathname).toBe('/login');
      const done = await signIn(browser, carol, login.searchParams.get('intended')!);
      expect(done.status).toBe(302);
      return done;
    });
    expect(claims.amr).toEqual(['pwd', 'otp']);
    expect(claims.acr).toBe(ACR_TWO_FACTORS);
    expect(claims.auth_time).toBe(stepUpAt);
  });

  it('refuses malformed acr_values at the redirect URI', async () => {
    const browser = new Browser(t.url);
    await signIn(browser, ADA);
    const request = await openIdRequest(clientId, { acr_values: 'a'.repeat(300) });
    const res = await browser.get(request.path);
    const location = new URL(res.headers.get('location')!);
    expect(location.searchParams.get('error')).toBe('invalid_request');
  });
});
