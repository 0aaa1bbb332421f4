import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Users } from '../../src/auth/users.js';
import { Organizations } from '../../src/organizations/organizations.js';
import { ENGINES } from '../support/engines.js';
import { type Chromium, launchChromium } from './chromium.js';
import { type ReferenceServer, startReferenceServer } from './server.js';

const ADA = { name: 'Ada Lovelace', email: 'ada@example.com', password: 'correct horse battery' };
const BOB = { name: 'Bob Babbage', email: 'bob@example.com', password: 'difference engine 1822' };

/**
 * The dashboard's organization switcher in Chromium: plain links that scope the clients and tokens
 * pages to the user's own credentials or an organization's. Without JavaScript every form posts in
 * the chosen scope; with it, the pages' script calls the JSON APIs in the same scope.
 */
describe.each(ENGINES)('the organization switcher in Chromium (%s)', { timeout: 120_000 }, (engine) => {
  let server: ReferenceServer;
  let browser: Chromium;
  let scripted: Chromium;
  let acme: number;
  const page = () => browser.page;
  const go = (path: string, on = browser) => on.page.goto(`${server.url}${path}`);
  const click = (selector: string, on = browser) =>
    Promise.all([on.page.waitForNavigation(), on.page.click(selector)]).then(() => undefined);
  const logIn = async (user: { email: string; password: string }, on = browser) => {
    await go('/login', on);
    await on.page.fill('#field-email', user.email);
    await on.page.fill('#field-password', user.password);
    await click('main button[type="submit"]', on);
  };
  const logOut = () => click('header button:has-text("Log out")');
  const switcher = (on = browser) => on.page.locator('nav[aria-label="Organization"]');
  const clientRows = () => page().locator('[data-clients] tbody tr').allTextContents();
  const clientsOf = (where: { userId?: number; organizationId?: number }) =>
    server.app.db
      .selectFrom('oauth_clients')
      .select(['name', 'user_id', 'organization_id'])
      .where(where.organizationId ? 'organization_id' : 'user_id', '=', where.organizationId ?? where.userId!)
      .execute();

  beforeAll(async () => {
    browser = await launchChromium({ javaScript: false });
    scripted = await launchChromium();
    server = await startReferenceServer({}, { engine });
    const users = server.app.container.make(Users);
    const ada = await users.create(ADA);
    const bob = await users.create(BOB);
    const organizations = server.app.container.make(Organizations);
    acme = (await organizations.create(ada.id, 'Acme')).id;
    await organizations.addMember(acme, bob.id, 'member', ada.id);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await scripted?.close();
    await server?.stop();
  });

  it('without JavaScript: the owner switches to Acme, creates its client, key and token there, and switches back to her own', async () => {
    await logIn(ADA);
    await go('/dashboard/clients');
    await expect(switcher().locator('a').allTextContents()).resolves.toEqual(['Personal', 'Acme']);
    await expect(switcher().locator('[aria-current="page"]').textContent()).resolves.toBe('Personal');

    await click('nav[aria-label="Organization"] a:has-text("Acme")');
    expect(new URL(page().url()).search).toBe(`?organization_id=${acme}`);
    await expect(switcher().locator('[aria-current="page"]').textContent()).resolves.toBe('Acme');
    await page().fill('#field-name', 'Acme backend');
    await page().fill('#field-redirect', 'https://acme.example/callback');
    await click('[data-client-form] button[type="submit"]');
    await expect(page().locator('[data-secret] strong').textContent()).resolves.toBe(
      'Client “Acme backend” created',
    );
    expect(await clientRows()).toEqual([expect.stringContaining('Acme backend')]);
    expect(await clientsOf({ organizationId: acme })).toEqual([
      { name: 'Acme backend', user_id: null, organization_id: acme },
    ]);

    // The Tokens tab keeps the scope: the key and the token are Acme's.
    await click('nav[aria-label="Dashboard"] a:has-text("API tokens")');
    expect(new URL(page().url()).search).toBe(`?organization_id=${acme}`);
    await page().fill('#field-key-name', 'Acme deploy');
    await click('[data-api-key-form] button[type="submit"]');
    await expect(page().locator('#api-keys [data-secret] strong').textContent()).resolves.toBe(
      'API key “Acme deploy” created',
    );
    await page().fill('#field-token-name', 'Acme CLI');
    await click('[data-token-form] button[type="submit"]');
    await expect(page().locator('#personal-tokens [data-secret] strong').textContent()).resolves.toContain(
      'Token “Acme CLI” created',
    );
    // Authorizations are the user's own: not on an organization's page.
    expect(await page().locator('#authorized-apps').count()).toBe(0);
    const keys = await server.app.db.selectFrom('api_keys').select(['name', 'organization_id']).execute();
    expect(keys).toEqual([{ name: 'Acme deploy', organization_id: acme }]);
    const tokens = await server.app.db
      .selectFrom('oauth_access_tokens')
      .select(['name', 'organization_id'])
      .where('name', '=', 'Acme CLI')
      .execute();
    expect(tokens).toEqual([{ name: 'Acme CLI', organization_id: acme }]);

    // Revoking in the scope redirects back to it.
    await click(`tr:has-text("Acme deploy") button:has-text("Revoke")`);
    expect(new URL(page().url()).search).toBe(`?organization_id=${acme}`);
    await expect(page().locator('.flash').first().textContent()).resolves.toBe(
      'API key “Acme deploy” revoked.',
    );

    // Personal again: none of Acme's credentials, and what is made here is hers.
    await click('nav[aria-label="Organization"] a:has-text("Personal")');
    expect(new URL(page().url()).search).toBe('');
    await expect(page().locator('#personal-tokens').textContent()).resolves.not.toContain('Acme CLI');
    await expect(page().locator('#authorized-apps').count()).resolves.toBe(1);
    await click('nav[aria-label="Dashboard"] a:has-text("OAuth clients")');
    expect(new URL(page().url()).search).toBe('');
    expect(await clientRows()).toEqual([]);
    await page().fill('#field-name', 'My own app');
    await page().fill('#field-redirect', 'https://ada.example/callback');
    await click('[data-client-form] button[type="submit"]');
    const ada = await server.app.container.make(Users).findByEmail(ADA.email);
    expect(await clientsOf({ userId: ada!.id })).toEqual([
      { name: 'My own app', user_id: ada!.id, organization_id: null },
    ]);
    await logOut();
  });

  it("a member sees Acme's clients and keys without the forms that change them; another organization's id is 404", async () => {
    await logIn(BOB);
    await go(`/dashboard/clients?organization_id=${acme}`);
    expect(await clientRows()).toEqual([expect.stringContaining('Acme backend')]);
    expect(await page().locator('[data-client-form]').isVisible()).toBe(false);
    expect(await page().locator('[data-clients] a:has-text("Edit")').isVisible()).toBe(false);
    await expect(page().locator('[data-clients]').textContent()).resolves.toContain(
      'Your role in this organization lets you see its clients; owners and admins manage them.',
    );
    await go(`/dashboard/tokens?organization_id=${acme}`);
    expect(await page().locator('[data-api-key-form]').isVisible()).toBe(false);
    expect(await page().locator('[data-token-form]').isVisible()).toBe(true);

    const other = await server.app.container
      .make(Organizations)
      .create((await server.app.container.make(Users).findByEmail(ADA.email))!.id, 'Globex');
    const refused = await go(`/dashboard/clients?organization_id=${other.id}`);
    expect(refused?.status()).toBe(404);
    await go('/dashboard/clients');
    await logOut();
  });

  it("with JavaScript: the page's script lists and creates clients in the chosen organization", async () => {
    await logIn(ADA, scripted);
    await go(`/dashboard/clients?organization_id=${acme}`, scripted);
    const p = scripted.page;
    await p.waitForSelector('[data-clients] tbody tr:has-text("Acme backend")');
    await p.fill('#field-name', 'Acme scripted');
    await p.fill('#field-redirect', 'https://acme.example/scripted');
    // A page load would lose this mark: the script, not the form's post, creates the client.
    await p.evaluate(() => Object.assign(window, { stayed: true }));
    await p.click('[data-client-form] button[type="submit"]');
    await p.waitForSelector('[data-secret]:has-text("Acme scripted")');
    expect(await p.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);
    expect((await clientsOf({ organizationId: acme })).map((c) => c.name).sort()).toEqual([
      'Acme backend',
      'Acme scripted',
    ]);
  });
});
