import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountsProvider } from '../../src/accounts/provider.js';
import { mailProvider } from '../../src/mail/provider.js';
import { signinProvider } from '../../src/signin/provider.js';
import { Browser, type OAuthTestApp, oauthApp } from '../oauth/support.js';
import { ENGINES } from '../support/engines.js';
import {
  type GithubShapedServer,
  type GithubShapedUser,
  startGithubShapedServer,
} from './github-shaped-server.js';
import { pathOf, upstreamRedirect } from './upstream-flow.js';

const OCTO: GithubShapedUser = {
  id: 583231,
  login: 'octocat',
  name: 'The Octocat',
  // The public profile address is not the one to trust: the preset reads the verified primary.
  email: 'public-profile@example.org',
  emails: [
    { email: 'old@example.com', primary: false, verified: true, visibility: null },
    { email: 'Octo@Example.com', primary: true, verified: true, visibility: 'private' },
  ],
};
const UNVERIFIED: GithubShapedUser = {
  id: 42,
  login: 'newbie',
  name: null,
  email: null,
  emails: [{ email: 'newbie@example.com', primary: true, verified: false, visibility: null }],
};
const PLAIN: GithubShapedUser = {
  id: 77,
  login: 'plain',
  name: 'Plain Person',
  email: null,
  emails: [{ email: 'plain@example.com', primary: true, verified: true, visibility: null }],
};

/**
 * The GitHub preset and a plain OAuth 2.0 provider (no ID token, a user endpoint) against a small
 * server speaking GitHub's documented web flow and REST shapes, through openid-client as in
 * production: the identity comes from `/user` (id, name) and the verified primary address of
 * `/user/emails`; a plain provider's from its user endpoint.
 */
describe.each(ENGINES)('Upstream presets over HTTP (%s)', (engine) => {
  let t: OAuthTestApp;
  let gh: GithubShapedServer;
  const db = () => t.app.db as Kysely<any>;

  /** The whole round trip for `user` through provider `id`: the app's answer to the callback. */
  async function signInThrough(id: string, user: GithubShapedUser) {
    gh.signIn(user);
    const browser = new Browser(t.url);
    const authorization = await upstreamRedirect(browser, { get: `/login/${id}` });
    const answer = await fetch(authorization, { redirect: 'manual' });
    expect(answer.status).toBe(302);
    return { browser, res: await browser.get(pathOf(answer.headers.get('location')!)) };
  }

  beforeAll(async () => {
    gh = await startGithubShapedServer();
    const endpoints = {
      clientId: gh.clientId,
      clientSecret: gh.clientSecret,
      authorizationEndpoint: `${gh.url}/login/oauth/authorize`,
      tokenEndpoint: `${gh.url}/login/oauth/access_token`,
    };
    t = await oauthApp({
      engine,
      modules: [mailProvider(), accountsProvider(), signinProvider()],
      config: {
        signin: {
          upstream: {
            providers: {
              github: { type: 'github', ...endpoints, userinfoEndpoint: `${gh.url}/user` },
              plain: {
                type: 'oauth2',
                label: 'Plain OAuth',
                scope: 'profile',
                ...endpoints,
                userinfoEndpoint: `${gh.url}/oauth2/userinfo`,
              },
            },
          },
        },
      },
    });
  });
  afterAll(async () => {
    await t?.stop();
    await gh?.close();
  });

  it('GitHub: signs up with /user’s id and name and the verified primary address of /user/emails', async () => {
    const { res } = await signInThrough('github', OCTO);
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/dashboard');
    const user = await db()
      .selectFrom('users')
      .selectAll()
      .where('email', '=', 'octo@example.com')
      .executeTakeFirstOrThrow();
    expect(user.name).toBe('The Octocat');
    const links = await db()
      .selectFrom('signin_upstream_identities')
      .select(['provider', 'subject'])
      .where('user_id', '=', user.id)
      .execute();
    expect(links).toEqual([{ provider: 'github', subject: '583231' }]);

    // The web flow as GitHub documents it: PKCE S256, the preset's scopes, no nonce (no ID token).
    const asked = gh.seen.authorize.at(-1)!;
    expect(asked.get('scope')).toBe('read:user user:email');
    expect(asked.get('code_challenge_method')).toBe('S256');
    expect(asked.has('nonce')).toBe(false);
    const redeemed = gh.seen.token.at(-1)!;
    expect(redeemed.get('client_secret')).toBe(gh.clientSecret);
    expect(redeemed.get('code_verifier')).toMatch(/^[\w-]{43}$/);
    const calls = gh.seen.api.slice(-2);
    expect(calls.map((c) => c.path)).toEqual(['/user', '/user/emails']);
    expect(calls.every((c) => c.bearer.startsWith('gho_'))).toBe(true);
  });

  it('GitHub: the same id signs in again, whatever address the profile shows now', async () => {
    const { res } = await signInThrough('github', { ...OCTO, email: null, name: 'Renamed' });
    expect(res.headers.get('location')).toBe('/dashboard');
    const count = await db()
      .selectFrom('users')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(3); // Ada and Bob of the fixture, and the Octocat
  });

  it('GitHub: a primary address GitHub has not verified makes no account', async () => {
    const { res } = await signInThrough('github', UNVERIFIED);
    expect(res.status).toBe(422);
    expect(await res.text()).toContain('GitHub did not give a verified e-mail address');
    const users = await db()
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'newbie@example.com')
      .execute();
    expect(users).toEqual([]);
  });

  it('a plain OAuth 2.0 provider: its configured scope, no nonce, the identity from its user endpoint', async () => {
    const { res } = await signInThrough('plain', PLAIN);
    expect(res.headers.get('location')).toBe('/dashboard');
    expect(gh.seen.authorize.at(-1)!.get('scope')).toBe('profile');
    expect(gh.seen.authorize.at(-1)!.has('nonce')).toBe(false);
    expect(gh.seen.api.at(-1)!.path).toBe('/oauth2/userinfo');
    const user = await db()
      .selectFrom('users')
      .selectAll()
      .where('email', '=', 'plain@example.com')
      .executeTakeFirstOrThrow();
    expect(user.name).toBe('Plain Person');
    const link = await db()
      .selectFrom('signin_upstream_identities')
      .select(['provider', 'subject'])
      .where('user_id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(link).toEqual({ provider: 'plain', subject: 'u-77' });
  });

  it('a code the provider refuses (GitHub answers 200 with an error member) is a clear 502 page, nobody signed in', async () => {
    gh.signIn(PLAIN);
    const browser = new Browser(t.url);
    const authorization = await upstreamRedirect(browser, { get: '/login/github' });
    const answer = await fetch(authorization, { redirect: 'manual' });
    const callback = new URL(answer.headers.get('location')!);
    callback.searchParams.set('code', 'not-a-code-it-issued');
    const res = await browser.get(pathOf(callback.href));
    // Told as a provider that could not complete (the detail goes to the log), no stack trace.
    expect(res.status).toBe(502);
    const page = await res.text();
    expect(page).toContain('GitHub could not complete the sign-in. Please try again.');
    expect(page).not.toMatch(/at .*\.ts:\d+/);
    expect((await browser.get('/dashboard')).status).toBe(302);
  });
});
