import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountDeletion } from '../../src/accounts/deletion/account-deletion.js';
import { PasswordReset, TwoFactor } from '../../src/accounts/index.js';
import { codeAt } from '../../src/accounts/two-factor/totp.js';
import { Users } from '../../src/auth/index.js';
import { Clients } from '../../src/oauth/index.js';
import { ACR_ONE_FACTOR, ACR_TWO_FACTORS, acrOf } from '../../src/oauth/oidc/amr.js';
import { ENGINES } from '../support/engines.js';
import { type Chromium, launchChromium } from './chromium.js';
import { type ReferenceServer, startReferenceServer } from './server.js';
import { signUpAndLogIn } from './sign-up.js';

const ADA = { name: 'Ada Lovelace', email: 'ada@example.com', password: 'correct horse battery' };
const BOB = { name: 'Bob Babbage', email: 'bob@example.com', password: 'difference engine two' };
const COOKIE = 'tollgate_device';

/**
 * "Remember this device for 30 days" in Chromium against the reference service: after the second
 * factor with the box ticked, the browser's next login of the same user skips it (and says so:
 * `amr` pwd only, one-factor `acr`) unless the login was asked for again; the account page lists
 * and forgets it; a forged, expired,
 * forgotten or another user's cookie asks again; a new password, "sign out other sessions", 2FA
 * off and account deletion forget every remembered browser.
 */
describe.each(ENGINES)('Remember this device in Chromium (%s)', { timeout: 90_000 }, (engine) => {
  let server: ReferenceServer;
  let browser: Chromium;
  const recovery: Record<string, string[]> = {};

  const page = () => browser.page;
  const go = (path: string) => page().goto(`${server.url}${path}`);
  const db = () => server.app.db as never as Kysely<any>;
  const submit = (path: string) =>
    Promise.all([page().waitForURL(`${server.url}${path}`), page().click('main button[type="submit"]')]);
  const logOut = () =>
    Promise.all([
      page().waitForURL(`${server.url}/login`),
      page().click('header button:has-text("Log out")'),
    ]);
  /** The password, then wherever the login leads: the dashboard, or the second step. */
  const password = async (user: typeof ADA, to: string) => {
    await go('/login');
    await page().fill('#field-email', user.email);
    await page().fill('#field-password', user.password);
    await submit(to);
  };
  /** The second step with a recovery code (each used once), ticking "Remember this device". */
  const secondStep = async (user: typeof ADA, remember: boolean) => {
    if (remember) await page().check('input[name="remember_device"]');
    await page().fill('#field-code', recovery[user.email]!.shift()!);
    await submit('/dashboard');
  };
  const deviceCookie = async () => (await browser.context.cookies()).find((cookie) => cookie.name === COOKIE);
  const devicesOf = async (email: string) => {
    const user = await server.app.container.make(Users).findByEmail(email);
    return db().selectFrom('signin_remembered_devices').selectAll().where('user_id', '=', user!.id).execute();
  };
  const enrol = async (who: typeof ADA) => {
    await signUpAndLogIn(page(), server.url, who);
    await logOut();
    const user = (await server.app.container.make(Users).findByEmail(who.email))!;
    const twoFactor = server.app.container.make(TwoFactor);
    const { seed } = (await twoFactor.begin(user))!;
    recovery[who.email] = (await twoFactor.confirm(user, codeAt(seed, new Date()), {}))!;
  };

  beforeAll(async () => {
    browser = await launchChromium();
    server = await startReferenceServer({}, { engine });
    await enrol(ADA);
    await enrol(BOB);
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('remembers the browser after the second factor, then skips it: amr pwd, one-factor acr', async () => {
    await password(ADA, '/login/two-factor');
    await expect(page().locator('label:has(input[name="remember_device"])').textContent()).resolves.toContain(
      'Remember this device for 30 days',
    );
    await secondStep(ADA, true);

    const cookie = (await deviceCookie())!;
    expect(cookie).toMatchObject({ path: '/login', httpOnly: true, sameSite: 'Lax' });
    expect(cookie.expires * 1000 - Date.now()).toBeGreaterThan(29 * 86_400_000);
    // `<id>.<secret>.<signature>`; the row holds only the SHA-256 of the secret.
    const [id, secret, signature] = decodeURIComponent(cookie.value).split('.');
    expect(signature).toBeTruthy();
    const [row] = await devicesOf(ADA.email);
    expect(String(row.id)).toBe(id);
    expect(row.secret_hash).toBe(createHash('sha256').update(secret!).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(secret);

    await logOut();
    await password(ADA, '/dashboard');
    const session = await db()
      .selectFrom('sessions')
      .select('payload')
      .where('user_id', '=', row.user_id)
      .orderBy('last_activity', 'desc')
      .executeTakeFirstOrThrow();
    const methods = JSON.parse(session.payload).data['auth.methods'];
    expect(methods).toEqual(['pwd']);
    expect(acrOf(methods)).toBe(ACR_ONE_FACTOR);

    await go('/account');
    const card = page().locator('#remembered-devices');
    await expect(card.locator('tbody tr').count()).resolves.toBe(1);
    await expect(card.textContent()).resolves.toContain('Chrome on Linux');
  });

  it('a login asked for again (prompt=login, acr_values two factors) never skips the second factor', async () => {
    const { client } = await server.app.container
      .make(Clients)
      .create({ name: 'Relying party', redirect: `${server.url}/callback` });
    const authorize = new URL('/oauth/authorize', server.url);
    authorize.search = new URLSearchParams({
      client_id: client.id,
      redirect_uri: `${server.url}/callback`,
      response_type: 'code',
      scope: 'openid',
      nonce: 'n-0S6_WzA2Mj',
      prompt: 'login',
      acr_values: ACR_TWO_FACTORS,
      code_challenge: createHash('sha256').update('a'.repeat(43)).digest('base64url'),
      code_challenge_method: 'S256',
    }).toString();
    await page().goto(authorize.href);
    await page().waitForURL(/\/login\?intended=/);
    await page().fill('#field-email', ADA.email);
    await page().fill('#field-password', ADA.password);
    await submit('/login/two-factor');
    await page().fill('#field-code', recovery[ADA.email]!.shift()!);
    await Promise.all([page().waitForURL(/\/oauth\/authorize/), page().click('main button[type="submit"]')]);
    await go('/dashboard');
    expect(page().url()).toBe(`${server.url}/dashboard`);
  });

  it("another user's login on that browser still asks for their second factor", async () => {
    await logOut();
    await password(BOB, '/login/two-factor');
    await go('/login');
  });

  it('a forged or expired cookie is ignored: the second step is asked again', async () => {
    const original = (await deviceCookie())!;
    const raw = decodeURIComponent(original.value);
    const forged = raw.replace(/\.(.)/, (_, first: string) => `.${first === 'A' ? 'B' : 'A'}`);
    await browser.context.addCookies([{ ...original, value: encodeURIComponent(forged) }]);
    await password(ADA, '/login/two-factor');

    await browser.context.clearCookies();
    await browser.context.addCookies([original]);
    const [row] = await devicesOf(ADA.email);
    await db()
      .updateTable('signin_remembered_devices')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', row.id)
      .execute();
    await password(ADA, '/login/two-factor');
    await db()
      .updateTable('signin_remembered_devices')
      .set({ expires_at: row.expires_at })
      .where('id', '=', row.id)
      .execute();
    await browser.context.clearCookies();
    await browser.context.addCookies([original]);
    await password(ADA, '/dashboard');
  });

  it('forgetting the device on the account page asks for the second step again', async () => {
    await go('/account');
    await Promise.all([
      page().waitForURL(`${server.url}/account#remembered-devices`),
      page().click('#remembered-devices button:has-text("Forget")'),
    ]);
    await expect(page().locator('#remembered-devices').textContent()).resolves.toContain(
      'No remembered devices.',
    );
    await logOut();
    await password(ADA, '/login/two-factor');
    await secondStep(ADA, true);
    expect(await devicesOf(ADA.email)).toHaveLength(1);
  });

  it('"sign out other sessions" forgets every remembered browser', async () => {
    await go('/account');
    await Promise.all([
      page().waitForURL(`${server.url}/account`),
      page().click('#sessions button:has-text("Sign out other sessions")'),
    ]);
    expect(await devicesOf(ADA.email)).toHaveLength(0);
    await logOut();
    await password(ADA, '/login/two-factor');
    await secondStep(ADA, true);
  });

  it('changing the password on the account page forgets them', async () => {
    await go('/account');
    await page().fill('#password-current-password', ADA.password);
    ADA.password = 'a brand new passphrase';
    await page().fill('#field-password', ADA.password);
    await page().fill('#field-password_confirmation', ADA.password);
    await page().click('#password button[type="submit"]');
    await page().waitForLoadState();
    expect(await devicesOf(ADA.email)).toHaveLength(0);
    await logOut();
    await password(ADA, '/login/two-factor');
    await secondStep(ADA, true);
    expect(await devicesOf(ADA.email)).toHaveLength(1);
  });

  it('a password reset, turning 2FA off and deleting the account forget them too', async () => {
    const { container } = server.app;
    const reset = (await container.make(PasswordReset).link(ADA.email))!;
    const token = new URL(reset.link).searchParams.get('token')!;
    ADA.password = 'reset to something else';
    expect(await container.make(PasswordReset).redeem(token, ADA.password)).toMatchObject({ ok: true });
    expect(await devicesOf(ADA.email)).toHaveLength(0);

    await password(ADA, '/login/two-factor');
    await secondStep(ADA, true);
    expect(await devicesOf(ADA.email)).toHaveLength(1);
    const ada = (await container.make(Users).findByEmail(ADA.email))!;
    expect(await container.make(TwoFactor).disable(ada, {})).toBe(true);
    expect(await devicesOf(ADA.email)).toHaveLength(0);

    await logOut();
    await password(BOB, '/login/two-factor');
    await secondStep(BOB, true);
    const bob = (await container.make(Users).findByEmail(BOB.email))!;
    expect(await devicesOf(BOB.email)).toHaveLength(1);
    expect(await container.make(AccountDeletion).delete(bob, {})).toBe(true);
    const left = await db()
      .selectFrom('signin_remembered_devices')
      .select('id')
      .where('user_id', '=', bob.id)
      .execute();
    expect(left).toHaveLength(0);
  });
});
