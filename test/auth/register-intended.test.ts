import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authorizePath, Browser, type OAuthTestApp, oauthApp, tokenIn } from '../oauth/support.js';
import { ENGINES } from '../support/engines.js';

const GRACE = { name: 'Grace Hopper', email: 'grace@example.com', password: 'a long password' };

/** A visitor sent to log in by an approval page registers first: the way back to it is kept. */
describe.each(ENGINES)('registering from the login page keeps the approval waiting (%s)', (engine) => {
  let t: OAuthTestApp;
  beforeAll(async () => {
    t = await oauthApp({ engine });
  });
  afterAll(async () => t?.stop());

  it('login → Register → sign-up → login lands on the approval page it started from', async () => {
    const { client } = await t.createClient();
    const authorize = authorizePath(client.id);
    const browser = new Browser(t.url);
    const toLogin = await browser.get(authorize);
    expect(toLogin.status).toBe(302);
    const login = toLogin.headers.get('location')!;

    const loginPage = await (await browser.get(login)).text();
    const register = /No account yet\? <a href="([^"]+)">Register<\/a>/
      .exec(loginPage)?.[1]
      ?.replaceAll('&amp;', '&');
    expect(register).toBe(`/register?${new URLSearchParams({ intended: authorize })}`);

    const form = await (await browser.get(register!)).text();
    expect(form).toContain('name="intended"');
    const intended = /name="intended" value="([^"]+)"/.exec(form)![1]!.replaceAll('&amp;', '&');
    const registered = await browser.post('/register', {
      _token: tokenIn(form),
      ...GRACE,
      password_confirmation: GRACE.password,
      intended,
    });
    expect(registered.status).toBe(302);
    const back = registered.headers.get('location')!;
    expect(back).toBe(`/login?${new URLSearchParams({ intended: authorize })}`);

    const page = await (await browser.get(back)).text();
    const loggedIn = await browser.post('/login', {
      _token: tokenIn(page),
      email: GRACE.email,
      password: GRACE.password,
      intended: /name="intended" value="([^"]+)"/.exec(page)![1]!.replaceAll('&amp;', '&'),
    });
    expect([loggedIn.status, loggedIn.headers.get('location')]).toEqual([302, authorize]);
  });

  it("the header's Log in and Register links carry the way back too", async () => {
    const { client } = await t.createClient();
    const authorize = authorizePath(client.id);
    const browser = new Browser(t.url);
    const login = (await browser.get(authorize)).headers.get('location')!;
    const carried = `?${new URLSearchParams({ intended: authorize })}`;
    for (const page of [login, `/register${carried}`]) {
      const html = await (await browser.get(page)).text();
      const header = /<nav class="nav" aria-label="Account">(.*?)<\/nav>/s
        .exec(html)![1]!
        .replaceAll('&amp;', '&');
      expect(header).toContain(`<a href="/login${carried}">Log in</a>`);
      expect(header).toContain(`<a href="/register${carried}">Register</a>`);
    }
  });

  it('an intended address on another site is dropped, not carried', async () => {
    const browser = new Browser(t.url);
    const form = await (await browser.get('/register?intended=//evil.example/x')).text();
    expect(form).not.toContain('name="intended"');
    expect(form).toContain('<a href="/login">Log in</a>');
  });
});
