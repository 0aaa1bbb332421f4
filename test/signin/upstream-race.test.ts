import type { Kysely } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { accountsProvider } from '../../src/accounts/provider.js';
import { mailProvider } from '../../src/mail/provider.js';
import { signinProvider } from '../../src/signin/provider.js';
import { UpstreamSignIn } from '../../src/signin/upstream/upstream-sign-in.js';
import { Browser, type OAuthTestApp, oauthApp } from '../oauth/support.js';
import { ENGINES } from '../support/engines.js';
import { holdUntilBoth } from '../support/hold-until-both.js';
import { startUpstreamIdp, type UpstreamIdp } from '../support/upstream-idp.js';
import { IdpBrowser, pathOf, upstreamRedirect } from './upstream-flow.js';

/**
 * Two upstream sign-ups at once for one address (the same person twice, or two identities with one
 * address): one account, no 500. Both callbacks are held until each has resolved the identity as
 * new, so they race on every run.
 */
describe.each(ENGINES)('Upstream sign-ups racing (%s)', (engine) => {
  let t: OAuthTestApp;
  let idp: UpstreamIdp;
  let hold: ReturnType<typeof holdUntilBoth> | undefined;

  const db = () => t.app.db as Kysely<any>;
  const usersWith = (email: string) =>
    db().selectFrom('users').selectAll().where('email', '=', email).execute();
  const linksOf = (userId: number) =>
    db()
      .selectFrom('signin_upstream_identities')
      .select(['user_id', 'subject'])
      .where('user_id', '=', userId)
      .execute();
  /** Each browser signed in at the provider as its login, up to the app's callback URL (not yet followed). */
  const callbacksFor = (logins: string[]) =>
    Promise.all(
      logins.map(async (login) => {
        const browser = new Browser(t.url);
        const authorization = await upstreamRedirect(browser, { get: '/login/idp' });
        return { browser, callback: pathOf(await new IdpBrowser().authorize(authorization, login)) };
      }),
    );
  const whoIs = async (browser: Browser) => {
    const res = await browser.get('/dashboard');
    return res.status === 200 ? (await res.text()).includes('Linus') : false;
  };

  beforeAll(async () => {
    idp = await startUpstreamIdp();
    t = await oauthApp({
      engine,
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
    idp.accounts.set('linus', { email: 'linus@example.com', email_verified: true, name: 'Linus' });
    idp.accounts.set('mia-work', { email: 'mia@example.com', email_verified: true, name: 'Mia' });
    idp.accounts.set('mia-home', { email: 'mia@example.com', email_verified: true, name: 'Mia' });
  });
  afterEach(() => hold?.mockRestore());
  afterAll(async () => {
    await t?.stop();
    await idp?.stop();
  });

  it('the same upstream subject twice at once: one account, one link, both browsers signed in to it', async () => {
    const [first, second] = await callbacksFor(['linus', 'linus']);
    hold = holdUntilBoth(t.app.container.make(UpstreamSignIn), 'resolve');
    const answers = await Promise.all([
      first!.browser.get(first!.callback),
      second!.browser.get(second!.callback),
    ]);
    expect(answers.map((res) => [res.status, res.headers.get('location')])).toEqual([
      [303, '/dashboard'],
      [303, '/dashboard'],
    ]);
    const users = await usersWith('linus@example.com');
    expect(users).toHaveLength(1);
    expect(await linksOf(users[0].id)).toEqual([{ user_id: users[0].id, subject: 'linus' }]);
    expect(await whoIs(first!.browser)).toBe(true);
    expect(await whoIs(second!.browser)).toBe(true);
  });

  it('two upstream subjects with one address at once: one account linked to one of them, the other asked to confirm', async () => {
    const [work, home] = await callbacksFor(['mia-work', 'mia-home']);
    hold = holdUntilBoth(t.app.container.make(UpstreamSignIn), 'resolve');
    const answers = await Promise.all([work!.browser.get(work!.callback), home!.browser.get(home!.callback)]);
    const locations = answers.map((res) => `${res.status} ${res.headers.get('location')}`).sort();
    // The loser is treated as any identity whose verified address has an account: its owner confirms.
    expect(locations).toEqual(['303 /dashboard', '303 /login/idp/link']);
    const users = await usersWith('mia@example.com');
    expect(users).toHaveLength(1);
    expect(await linksOf(users[0].id)).toHaveLength(1);
  });
});
