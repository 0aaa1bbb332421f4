import type { Kysely } from 'kysely';
import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountsProvider } from '../../src/accounts/provider.js';
import { codeAt } from '../../src/accounts/two-factor/totp.js';
import { TwoFactor } from '../../src/accounts/two-factor/two-factor.js';
import { Users } from '../../src/auth/users.js';
import { mailProvider } from '../../src/mail/provider.js';
import { ACR_ONE_FACTOR, ACR_TWO_FACTORS } from '../../src/oauth/oidc/amr.js';
import { AuditLog } from '../../src/observability/audit/audit-log.js';
import { observabilityProvider } from '../../src/observability/provider.js';
import { signinProvider } from '../../src/signin/provider.js';
import { authorizeInBrowser, exchange, openIdClient, openIdRequest } from '../oauth/openid-support.js';
import { ADA, BOB, Browser, type OAuthTestApp, oauthApp, tokenIn } from '../oauth/support.js';
import { ENGINES } from '../support/engines.js';
import { startUpstreamIdp, type UpstreamIdp } from '../support/upstream-idp.js';
import { IdpBrowser, pathOf, upstreamRedirect } from './upstream-flow.js';

/**
 * "Sign in with …" against a real OpenID Connect provider (oidc-provider) started here: the app's
 * redirect (PKCE, state, nonce), the provider's login page, the callback, over HTTP.
 */
describe.each(ENGINES)('Upstream identity providers (%s)', (engine) => {
  let t: OAuthTestApp;
  let idp: UpstreamIdp;

  const identities = (): Promise<Array<{ user_id: number; provider: string; subject: string }>> =>
    (t.app.db as Kysely<any>)
      .selectFrom('signin_upstream_identities')
      .select(['user_id', 'provider', 'subject'])
      .execute();
  /** A sign-in at the provider as `login`, from `start`: the app's answer to the callback. */
  async function viaProvider(
    browser: Browser,
    login: string,
    start: Parameters<typeof upstreamRedirect>[1] = { get: '/login/idp' },
  ): Promise<Response> {
    const authorization = await upstreamRedirect(browser, start);
    const callback = await new IdpBrowser().authorize(authorization, login);
    return browser.get(pathOf(callback));
  }

  /** The ID token an OpenID Connect client (oauth4webapi) gets from the signed-in `browser`. */
  async function idTokenOf(browser: Browser) {
    const clientId = (await t.createClient({ confidential: false })).client.id;
    const client = openIdClient(t, clientId);
    const request = await openIdRequest(clientId);
    const callback = await authorizeInBrowser(browser, request.path);
    const response = await exchange(t, client, oauth.None(), callback, request);
    const tokens = await oauth.processAuthorizationCodeResponse(t.as, client, response, {
      expectedNonce: request.nonce,
    });
    return oauth.getValidatedIdTokenClaims(tokens)!;
  }

  beforeAll(async () => {
    idp = await startUpstreamIdp();
    t = await oauthApp({
      engine,
      providers: [observabilityProvider()],
      modules: [mailProvider(), accountsProvider(), signinProvider()],
      config: {
        signin: {
          upstream: {
            providers: {
              idp: {
                type: 'oidc',
                label: 'Test IdP',
                issuer: idp.issuer,
                clientId: idp.clientId,
                clientSecret: idp.clientSecret,
              },
            },
          },
        },
      },
    });
    await idp.register(`${t.app.config.app.url}/login/idp/callback`);
    idp.accounts.set('grace', { email: 'grace@example.com', email_verified: true, name: 'Grace Hopper' });
    idp.accounts.set('ada-upstream', { email: ADA.email, email_verified: true, name: 'Ada L.' });
    idp.accounts.set('bob-unverified', { email: BOB.email, email_verified: false, name: 'Not Bob' });
    idp.accounts.set('bob-elsewhere', { email: 'bob@elsewhere.example', email_verified: false, name: 'Bob' });
  });
  afterAll(async () => {
    await t?.stop();
    await idp?.stop();
  });

  it('the login page links to each configured provider', async () => {
    const page = await (await new Browser(t.url).get('/login')).text();
    expect(page).toContain('href="/login/idp"');
    expect(page).toContain('Sign in with Test IdP');
  });

  it('the redirect carries PKCE (S256), state and nonce, and the registered callback', async () => {
    const url = new URL(await upstreamRedirect(new Browser(t.url), { get: '/login/idp' }));
    expect(url.origin).toBe(idp.issuer);
    const params = url.searchParams;
    expect(params.get('code_challenge_method')).toBe('S256');
    expect(params.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(params.get('state')).toMatch(/^[\w-]{20,}$/);
    expect(params.get('nonce')).toMatch(/^[\w-]{20,}$/);
    expect(params.get('redirect_uri')).toBe('http://localhost/login/idp/callback');
    expect(params.get('scope')).toBe('openid email profile');
  });

  it('signs up a new user with the verified address, no password, and the provider’s sub stored', async () => {
    const browser = new Browser(t.url);
    const res = await viaProvider(browser, 'grace');
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/dashboard');
    const user = await t.app.db
      .selectFrom('users')
      .selectAll()
      .where('email', '=', 'grace@example.com')
      .executeTakeFirstOrThrow();
    expect(user.name).toBe('Grace Hopper');
    expect(user.password).toBe('');
    expect(user.email_verified_at).not.toBeNull();
    expect(await identities()).toEqual([{ user_id: user.id, provider: 'idp', subject: 'grace' }]);
    // Nobody signs in to a passwordless account with a password, not even an empty one.
    const login = await browser.get('/login');
    expect(login.status).toBe(302);
    const other = new Browser(t.url);
    const form = await other.get('/login');
    const refused = await other.post('/login', {
      _token: tokenIn(await form.text()),
      email: 'grace@example.com',
      password: 'x',
    });
    expect(refused.status).toBe(422);
  });

  it('signs in again through the same upstream subject', async () => {
    const browser = new Browser(t.url);
    const res = await viaProvider(browser, 'grace');
    expect(res.headers.get('location')).toBe('/dashboard');
    const account = await (await browser.get('/account')).text();
    expect(account).toContain('grace@example.com');
    expect(account).toContain('Unlink Test IdP');
  });

  it('an ID token after an upstream sign-in says amr fed, one factor', async () => {
    const browser = new Browser(t.url);
    await viaProvider(browser, 'grace');
    const claims = await idTokenOf(browser);
    expect(claims.amr).toEqual(['fed']);
    expect(claims.acr).toBe(ACR_ONE_FACTOR);
  });

  it('unlinking the last sign-in method is refused', async () => {
    const browser = new Browser(t.url);
    await viaProvider(browser, 'grace');
    const csrf = await browser.csrfToken();
    const res = await browser.json('POST', '/account/sign-in/idp/unlink', {}, csrf);
    expect(res.status).toBe(422);
    expect(((await res.json()) as { message: string }).message).toContain('only way to sign in');
    expect(await identities()).toHaveLength(1);
  });

  it('links to an existing account by a verified address only once its password is given', async () => {
    const browser = new Browser(t.url);
    const res = await viaProvider(browser, 'ada-upstream');
    expect(res.headers.get('location')).toBe('/login/idp/link');
    const page = await browser.get('/login/idp/link');
    const html = await page.text();
    expect(html).toContain('There is already an account for <strong>ada@example.com</strong>');
    const wrong = await browser.post('/login/idp/link', { _token: tokenIn(html), password: 'not it' });
    expect(wrong.status).toBe(422);
    expect(await wrong.text()).toContain('The password is incorrect.');
    expect((await identities()).some((row) => row.subject === 'ada-upstream')).toBe(false);
    const right = await browser.post('/login/idp/link', { _token: tokenIn(html), password: ADA.password });
    expect(right.headers.get('location')).toBe('/dashboard');
    expect(await identities()).toContainEqual({
      user_id: t.ada.id,
      provider: 'idp',
      subject: 'ada-upstream',
    });
    // From now on the provider alone signs Ada in.
    expect((await viaProvider(new Browser(t.url), 'ada-upstream')).headers.get('location')).toBe(
      '/dashboard',
    );
  });

  it('an address the provider has not verified is never linked to the account that has it', async () => {
    const browser = new Browser(t.url);
    const res = await viaProvider(browser, 'bob-unverified');
    expect(res.status).toBe(409);
    expect(await res.text()).toContain('Test IdP has not verified that the address is yours');
    expect((await identities()).some((row) => row.user_id === t.bob.id)).toBe(false);
    expect((await browser.get('/dashboard')).status).toBe(302);
  });

  it('links from the account page, then unlinks while the password remains', async () => {
    const browser = new Browser(t.url);
    await browser.login(BOB);
    const linked = await viaProvider(browser, 'bob-elsewhere', {
      post: '/account/sign-in/idp/link',
      page: '/account',
    });
    expect(linked.status).toBe(303);
    expect(linked.headers.get('location')).toBe('/account#linked-accounts');
    expect(await identities()).toContainEqual({
      user_id: t.bob.id,
      provider: 'idp',
      subject: 'bob-elsewhere',
    });
    const page = await (await browser.get('/account')).text();
    expect(page).toContain('Test IdP is linked: you can sign in with it.');
    const unlinked = await browser.post('/account/sign-in/idp/unlink', { _token: tokenIn(page) });
    expect(unlinked.status).toBe(303);
    expect((await identities()).some((row) => row.user_id === t.bob.id)).toBe(false);
    expect(await (await browser.get('/account')).text()).toContain('Test IdP is unlinked.');
    await t.app.container.make(AuditLog).flush();
    const audited = await (t.app.db as Kysely<any>)
      .selectFrom('audit_events')
      .select(['kind', 'details'])
      .where('user_id', '=', t.bob.id)
      .where('kind', 'like', 'sign-in.upstream-%')
      .orderBy('id')
      .execute();
    expect(audited.map((row) => [row.kind, JSON.parse(row.details)])).toEqual([
      ['sign-in.upstream-linked', { provider: 'idp', via: 'account' }],
      ['sign-in.upstream-unlinked', { provider: 'idp' }],
    ]);
  });

  it('a callback whose state is not this browser’s is refused (another browser’s sign-in)', async () => {
    const attacker = new Browser(t.url);
    const callback = await new IdpBrowser().authorize(
      await upstreamRedirect(attacker, { get: '/login/idp' }),
      'grace',
    );
    const victim = new Browser(t.url);
    await upstreamRedirect(victim, { get: '/login/idp' });
    const res = await victim.get(pathOf(callback));
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('This sign-in did not start in this browser, or it expired.');
    expect((await victim.get('/dashboard')).status).toBe(302);
    // Without any sign-in waiting, the same.
    expect((await new Browser(t.url).get(pathOf(callback))).status).toBe(400);
  });

  it('an ID token whose nonce is not the one sent is refused', async () => {
    idp.replaceNonce = 'a-nonce-from-another-sign-in';
    try {
      const browser = new Browser(t.url);
      const res = await viaProvider(browser, 'grace');
      expect(res.status).toBe(400);
      expect(await res.text()).toContain('The answer from Test IdP was not meant for this sign-in.');
      expect((await browser.get('/dashboard')).status).toBe(302);
    } finally {
      idp.replaceNonce = undefined;
    }
  });

  it('an error from the provider is shown as a clear page', async () => {
    const browser = new Browser(t.url);
    const res = await viaProvider(browser, 'deny');
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain('Sign-in with Test IdP was cancelled: The user refused.');
    expect(html).not.toContain('at ');
  });

  it('a user with the authenticator app gives its code after the provider: amr fed otp, two factors', async () => {
    idp.accounts.set('hedy', { email: 'hedy@example.com', email_verified: true, name: 'Hedy Lamarr' });
    await viaProvider(new Browser(t.url), 'hedy');
    const hedy = (await t.app.container.make(Users).findByEmail('hedy@example.com'))!;
    const twoFactor = t.app.container.make(TwoFactor);
    const seed = (await twoFactor.begin(hedy))!.seed;
    await twoFactor.confirm(hedy, codeAt(seed, t.clock.now()), {});
    t.clock.advance(30_000);

    const browser = new Browser(t.url);
    const res = await viaProvider(browser, 'hedy');
    expect(res.headers.get('location')).toBe('/login/two-factor');
    expect((await browser.get('/dashboard')).status).toBe(302);
    const step = await browser.get('/login/two-factor');
    const done = await browser.post('/login/two-factor', {
      _token: tokenIn(await step.text()),
      code: codeAt(seed, t.clock.now()),
    });
    expect(done.headers.get('location')).toBe('/dashboard');
    const claims = await idTokenOf(browser);
    expect(claims.amr).toEqual(['fed', 'otp']);
    expect(claims.acr).toBe(ACR_TWO_FACTORS);
  });

  it('a browser remembered at the second step skips it after the provider too: amr fed, one factor', async () => {
    const hedy = (await t.app.container.make(Users).findByEmail('hedy@example.com'))!;
    const recovery = (await t.app.container.make(TwoFactor).regenerate(hedy, {}))!;
    const browser = new Browser(t.url);
    expect((await viaProvider(browser, 'hedy')).headers.get('location')).toBe('/login/two-factor');
    const step = await browser.get('/login/two-factor');
    const page = await step.text();
    expect(page).toContain('Remember this device for 30 days');
    const done = await browser.post('/login/two-factor', {
      _token: tokenIn(page),
      code: recovery[0]!,
      remember_device: '1',
    });
    expect(done.headers.get('location')).toBe('/dashboard');
    const dashboard = await browser.get('/dashboard');
    await browser.post('/logout', { _token: tokenIn(await dashboard.text()) });
    expect((await browser.get('/dashboard')).status).toBe(302);

    expect((await viaProvider(browser, 'hedy')).headers.get('location')).toBe('/dashboard');
    const claims = await idTokenOf(browser);
    expect(claims.amr).toEqual(['fed']);
    expect(claims.acr).toBe(ACR_ONE_FACTOR);
    // Another browser still gives the code.
    expect((await viaProvider(new Browser(t.url), 'hedy')).headers.get('location')).toBe('/login/two-factor');
  });

  it('an unknown provider is a 404', async () => {
    expect((await new Browser(t.url).get('/login/nope')).status).toBe(404);
  });
});
