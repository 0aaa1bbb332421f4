import * as oauth from 'oauth4webapi';
import type { CDPSession } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Callback, discover, listenForCallback } from '../../examples/client-app/client.js';
import { SessionStore } from '../../src/auth/index.js';
import { listen } from '../../src/kernel/server.js';
import { Clients } from '../../src/oauth/index.js';
import { AuditLog } from '../../src/observability/index.js';
import { ENGINES } from '../support/engines.js';
import { holdUntilBoth } from '../support/hold-until-both.js';
import { type Chromium, launchChromium } from './chromium.js';
import { type ReferenceServer, startReferenceServer } from './server.js';
import { signUpAndLogIn } from './sign-up.js';

const ADA = { name: 'Ada Lovelace', email: 'ada@example.com', password: 'correct horse battery' };

/**
 * Passkeys in Chromium against the reference service, with Chromium's virtual authenticator
 * (a platform authenticator holding discoverable credentials, verifying the user): add one from the
 * account page, sign in with it alone and as the second step after the password, an OpenID Connect
 * client's `amr`/`acr`, the refusals (a reused challenge, another origin, a counter gone back, the
 * last sign-in method), and removing it.
 */
describe.each(ENGINES)('Passkeys in Chromium (%s)', { timeout: 60_000 }, (engine) => {
  let server: ReferenceServer;
  let browser: Chromium;
  let cdp: CDPSession;
  let authenticatorId: string;

  const page = () => browser.page;
  const go = (path: string) => page().goto(`${server.url}${path}`);
  const db = () => server.app.db as never as import('kysely').Kysely<any>;
  const logOut = () =>
    Promise.all([
      page().waitForURL(`${server.url}/login`),
      page().click('header button:has-text("Log out")'),
    ]);
  const passkeyButton = () => page().locator('main button[data-passkey-sign-in]');
  /**
   * The virtual authenticator answers the login page's autofill request (conditional UI) at once,
   * signing in by itself: tests that drive the ceremony by hand keep the page's own script away.
   */
  const SCRIPT = '**/signin/passkeys/passkeys.js*';
  const withoutPageScript = async <T>(work: () => Promise<T>): Promise<T> => {
    await page().route(SCRIPT, (route) => route.abort());
    try {
      return await work();
    } finally {
      await page().unroute(SCRIPT);
    }
  };
  const auditKinds = async () => {
    await server.app.container.make(AuditLog).flush();
    const rows = await db().selectFrom('audit_events').select(['kind', 'details']).orderBy('id').execute();
    return rows.map((r: { kind: string }) => r.kind);
  };
  /** A passkey assertion made in the page (as the login page's script does) without posting it. */
  const assertionAt = (origin: string) =>
    page().evaluate(async (at) => {
      const token = (document.querySelector('input[name="_token"]') as HTMLInputElement).value;
      const res = await fetch('/login/passkey/options', {
        method: 'POST',
        headers: { Accept: 'application/json', 'X-CSRF-TOKEN': token },
      });
      const optionsJSON = await res.json();
      const lib = (globalThis as any).SimpleWebAuthnBrowser;
      return { credential: await lib.startAuthentication({ optionsJSON }), at, token };
    }, origin);
  const postAssertion = (body: { credential: unknown; token: string }) =>
    page().evaluate(async ({ credential, token }) => {
      const res = await fetch('/login/passkey', {
        method: 'POST',
        headers: { Accept: 'application/json', 'Content-Type': 'application/json', 'X-CSRF-TOKEN': token },
        body: JSON.stringify({ credential }),
      });
      return { status: res.status, body: await res.json() };
    }, body);

  beforeAll(async () => {
    browser = await launchChromium();
    server = await startReferenceServer({}, { engine, urlHost: 'localhost' });
    cdp = await browser.context.newCDPSession(page());
    await cdp.send('WebAuthn.enable');
    ({ authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    }));
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('adds a named passkey from the account page (a discoverable credential), with a notice and an audit event', async () => {
    await signUpAndLogIn(page(), server.url, ADA);
    await go('/account');
    await expect(page().locator('#passkeys').textContent()).resolves.toContain('No passkeys yet.');
    await Promise.all([
      page().waitForURL(`${server.url}/account/passkeys/new`),
      page().click('text=Add a passkey'),
    ]);
    await page().fill('#field-name', 'Work laptop');
    await Promise.all([
      page().waitForURL(`${server.url}/account#passkeys`),
      page().click('main button:has-text("Add the passkey")'),
    ]);
    const row = page().locator('#passkeys tbody tr');
    await expect(row.count()).resolves.toBe(1);
    await expect(row.first().textContent()).resolves.toMatch(/Work laptop.*Never/);
    await browser.shot('passkeys-01-added');

    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    expect(credentials).toHaveLength(1);
    expect(credentials[0]!.isResidentCredential).toBe(true);
    expect(await auditKinds()).toContain('sign-in-method.added');
    const notices = await db().selectFrom('account_notifications').select('kind').execute();
    expect(notices.map((n: { kind: string }) => n.kind)).toContain('sign-in-method-added');
  });

  it('signs in with the passkey alone through the login page autofill (conditional UI): no e-mail, no password', async () => {
    await withoutPageScript(async () => {
      await logOut();
      await expect(page().locator('#field-email').getAttribute('autocomplete')).resolves.toBe(
        'username webauthn',
      );
    });
    // With the script, the page asks for a passkey in the e-mail field's autofill; the authenticator answers.
    await Promise.all([page().waitForURL(`${server.url}/dashboard`), page().reload()]);
    await go('/account');
    await expect(page().locator('#passkeys tbody tr').first().textContent()).resolves.not.toContain('Never');
  });

  it('after the password, asks for the passkey as the second step', async () => {
    await withoutPageScript(async () => {
      await logOut();
      await page().fill('#field-email', ADA.email);
      await page().fill('#field-password', ADA.password);
      await Promise.all([
        page().waitForURL(`${server.url}/login/passkey`),
        page().click('main form button[type="submit"]'),
      ]);
    });
    await page().reload();
    await browser.shot('passkeys-02-second-step');
    await Promise.all([page().waitForURL(`${server.url}/dashboard`), passkeyButton().click()]);
  });

  it('an OpenID Connect client asking for two factors gets amr hwk+user and the two-factor acr', async () => {
    const callback: Callback = await listenForCallback(0);
    try {
      const created = await server.app.container
        .make(Clients)
        .create({ name: 'Relying party', redirect: callback.redirectUri });
      const { http, as } = await discover(server.url);
      const client: oauth.Client = { client_id: created.client.id };
      const verifier = oauth.generateRandomCodeVerifier();
      const nonce = oauth.generateRandomNonce();
      const url = new URL(as.authorization_endpoint!);
      url.search = new URLSearchParams({
        client_id: client.client_id,
        redirect_uri: callback.redirectUri,
        response_type: 'code',
        scope: 'openid',
        nonce,
        prompt: 'login',
        acr_values: 'urn:tollgate:acr:2fa',
        code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
      }).toString();
      const returned = callback.next();
      // prompt=login: the login page, where the passkey (autofill) signs in again.
      await page().goto(url.href);
      const approval = page().locator('button[value="approve"]');
      await Promise.race([approval.waitFor().then(() => approval.click()), returned]);
      const { url: back, respond } = await returned;
      respond('Signed in.');
      const params = oauth.validateAuthResponse(as, client, back, oauth.expectNoState);
      const response = await oauth.authorizationCodeGrantRequest(
        as,
        client,
        oauth.ClientSecretPost(created.plainSecret!),
        params,
        callback.redirectUri,
        verifier,
        http,
      );
      const tokens = await oauth.processAuthorizationCodeResponse(as, client, response, {
        expectedNonce: nonce,
      });
      const claims = oauth.getValidatedIdTokenClaims(tokens)!;
      expect(claims.amr).toEqual(['hwk', 'user']);
      expect(claims.acr).toBe('urn:tollgate:acr:2fa');
      expect(typeof claims.auth_time).toBe('number');
    } finally {
      await callback.close();
    }
  });

  it('refuses a challenge used twice, and a challenge from another session', async () => {
    await page().route(SCRIPT, (route) => route.abort());
    await go('/dashboard');
    await logOut();
    const first = await assertionAt(server.url);
    // Both answers load the session, challenge included, before either takes the challenge or signs in
    // (which replaces the session the other carries): the single-use claim decides on every run,
    // rather than the scheduler's interleaving (else the later one finds a new session: 419).
    const held = holdUntilBoth(server.app.container.make(SessionStore), 'load');
    const answers = await Promise.all([postAssertion(first), postAssertion(first)]).finally(() =>
      held.mockRestore(),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 400]);
    await go('/dashboard');
    await logOut();
    // The same assertion again, in the session that follows: its challenge belonged to another.
    const token = await page().locator('input[name="_token"]').first().inputValue();
    const again = await postAssertion({ credential: first.credential, token });
    expect(again.status).toBe(400);
    expect(again.body.message).toMatch(/expired or was already answered/);
    expect(await auditKinds()).toContain('passkey.refused');
  });

  it('refuses an assertion made on another origin (another port under the same RP id)', async () => {
    // Options from this origin's session; the assertion made at evil.localhost, then posted here.
    const token = await page().locator('input[name="_token"]').first().inputValue();
    const optionsJSON = await page().evaluate(async (t) => {
      const res = await fetch('/login/passkey/options', {
        method: 'POST',
        headers: { Accept: 'application/json', 'X-CSRF-TOKEN': t },
      });
      return res.json();
    }, token);
    // The same pages served on a second port: another origin the RP id `localhost` is valid for.
    const other = await listen(server.app, '127.0.0.1', 0);
    const evil = other.url.replace('127.0.0.1', 'localhost');
    await page().goto(`${evil}/login`);
    const credential = await page().evaluate(
      (options) => (globalThis as any).SimpleWebAuthnBrowser.startAuthentication({ optionsJSON: options }),
      optionsJSON,
    );
    const clientData = JSON.parse(Buffer.from(credential.response.clientDataJSON, 'base64url').toString());
    expect(clientData.origin).toBe(evil);
    await other.close();
    await go('/login');
    const answer = await postAssertion({ credential, token });
    expect(answer.status).toBe(422);
    expect(answer.body.message).toBe('This passkey could not sign you in.');
  });

  it('refuses an assertion whose signature counter went back (a cloned authenticator)', async () => {
    await db().updateTable('signin_passkeys').set({ counter: 1_000_000 }).execute();
    await go('/login');
    const token = await page().locator('input[name="_token"]').first().inputValue();
    const made = await assertionAt(server.url);
    const answer = await postAssertion({ credential: made.credential, token });
    expect(answer.status).toBe(422);
    await go('/dashboard');
    expect(page().url()).toMatch(new RegExp(`^${server.url}/login`));
    await db().updateTable('signin_passkeys').set({ counter: 0 }).execute();
    await page().unroute(SCRIPT);
  });

  it('renames a passkey from the account page (no fresh sign-in needed), audited; not a passkey of someone else', async () => {
    await Promise.all([page().waitForURL(`${server.url}/dashboard`), go('/login')]);
    await go('/account');
    const card = page().locator('#passkeys');
    await card.locator('summary:has-text("Rename")').click();
    await card.locator('.inline-rename input[name="name"]').fill('  Phone\u0007 in my pocket  ');
    await Promise.all([
      page().waitForURL(`${server.url}/account#passkeys`),
      card.locator('.inline-rename button[type="submit"]').click(),
    ]);
    await expect(card.locator('tbody tr').first().textContent()).resolves.toMatch(/^Phone in my pocket/);
    await expect(page().locator('.flash').first().textContent()).resolves.toContain(
      'Passkey renamed to “Phone in my pocket”.',
    );
    await server.app.container.make(AuditLog).flush();
    const renamed = await db()
      .selectFrom('audit_events')
      .select('details')
      .where('kind', '=', 'passkey.renamed')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(renamed.details)).toEqual({ from: 'Work laptop', to: 'Phone in my pocket' });

    const answer = await page().evaluate(async () => {
      const token = (document.querySelector('input[name="_token"]') as HTMLInputElement).value;
      const res = await fetch('/account/passkeys/999999/rename', {
        method: 'POST',
        headers: { Accept: 'application/json', 'X-CSRF-TOKEN': token },
        body: new URLSearchParams({ name: 'Mine now' }),
      });
      return { status: res.status, body: await res.json() };
    });
    expect(answer).toEqual({ status: 404, body: { message: 'There is no such passkey.' } });
  });

  it('refuses removing the last way to sign in, and removes a passkey while the password remains', async () => {
    await Promise.all([page().waitForURL(`${server.url}/dashboard`), go('/login')]);
    // Ada without a password: the passkey is all she has.
    await db().updateTable('users').set({ password: '' }).where('email', '=', ADA.email).execute();
    await go('/account');
    await Promise.all([
      page().waitForURL(`${server.url}/account#passkeys`),
      page().click('#passkeys button:has-text("Remove")'),
    ]);
    await expect(page().locator('[role="alert"]').first().textContent()).resolves.toContain(
      'This is your only way to sign in',
    );
    await expect(page().locator('#passkeys tbody tr').count()).resolves.toBe(1);

    const hash = await (await import('../../src/auth/password.js')).hashPassword(ADA.password);
    await db().updateTable('users').set({ password: hash }).where('email', '=', ADA.email).execute();
    await Promise.all([
      page().waitForURL(`${server.url}/account#passkeys`),
      page().click('#passkeys button:has-text("Remove")'),
    ]);
    await expect(page().locator('#passkeys').textContent()).resolves.toContain('No passkeys yet.');
    expect(await auditKinds()).toContain('sign-in-method.removed');
  });
});
