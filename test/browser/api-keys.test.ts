import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANY_ENGINE } from '../support/engines.js';
import { type Chromium, launchChromium } from './chromium.js';
import { type ReferenceServer, startReferenceServer } from './server.js';

const ADA = { name: 'Ada Lovelace', email: 'ada@example.com', password: 'correct horse battery' };

/** The dashboard in Chromium with JavaScript turned off (API keys, personal tokens, OAuth clients): real form posts only. */
describe(`API keys in the dashboard without JavaScript`, { timeout: 60_000 }, () => {
  let server: ReferenceServer;
  let browser: Chromium;
  let key: string;
  let clientId: string;
  let clientSecret: string;

  const page = () => browser.page;
  const go = (path: string) => page().goto(`${server.url}${path}`);
  const section = () => page().locator('[data-api-keys]');
  const api = (path: string, headers: Record<string, string>) =>
    fetch(`${server.url}${path}`, { headers: { accept: 'application/json', ...headers } });

  beforeAll(async () => {
    browser = await launchChromium({ javaScript: false });
    server = await startReferenceServer({}, { engine: ANY_ENGINE });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    if (browser) console.log(`Screenshots written to ${browser.shots}`);
  });

  it('registers and logs in with plain forms', async () => {
    await go('/register');
    await page().fill('#field-name', ADA.name);
    await page().fill('#field-email', ADA.email);
    await page().fill('#field-password', ADA.password);
    await page().fill('#field-password_confirmation', ADA.password);
    await Promise.all([page().waitForURL(`${server.url}/login`), page().click('main button[type="submit"]')]);
    await page().fill('#field-email', ADA.email);
    await page().fill('#field-password', ADA.password);
    await Promise.all([
      page().waitForURL(`${server.url}/dashboard`),
      page().click('main button[type="submit"]'),
    ]);
  });

  it('shows the empty list, and a refused create keeps the form with a human message', async () => {
    await go('/dashboard/tokens');
    await expect(section().locator('[data-empty]').textContent()).resolves.toContain('You have no API keys.');
    // An empty name: the server answers (the number fields' min/max the browser checks itself).
    await section().locator('#field-key-name').fill('  ');
    await section().locator('button[type="submit"]').click();
    await expect(section().locator('.error').first().textContent()).resolves.toContain(
      'The name field is required.',
    );
    await browser.shot('api-keys-01-refused');
  });

  it('creates a key with a form post: shown once, then listed as prefix…last four', async () => {
    await section().locator('#field-key-name').fill('Billing sync');
    await section().locator('#field-key-expires').fill('30');
    await section().locator('input[name="scopes"][value="check-status"]').check();
    await section().locator('button[type="submit"]').click();
    key = (await section().locator('[data-secret] code').textContent()) ?? '';
    expect(key).toMatch(/^tg_test_[0-9A-Za-z]{36}$/);
    await browser.shot('api-keys-02-created');
    await go('/dashboard/tokens');
    const row = section().locator('tr[data-api-key]');
    await expect(row.count()).resolves.toBe(1);
    await expect(row.textContent()).resolves.toContain(`tg_test_…${key.slice(-4)}`);
    await expect(row.textContent()).resolves.toContain('Never used');
    expect(await page().content()).not.toContain(key);
  });

  it('the key calls the API (Bearer and X-API-Key), and the list shows its last use', async () => {
    expect((await api('/api/orders', { authorization: `Bearer ${key}` })).status).toBe(200);
    expect((await api('/api/user', { 'x-api-key': key })).status).toBe(200);
    for (let i = 0; ; i++) {
      await go('/dashboard/tokens');
      const text = (await section().locator('tr[data-api-key] [data-last-used]').textContent()) ?? '';
      if (text.startsWith('Last used')) break;
      if (i > 50) throw new Error(`last use never shown: ${text}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    await browser.shot('api-keys-03-used');
  });

  it('revokes with a form post (DELETE by _method): the key is refused at once', async () => {
    await Promise.all([
      page().waitForURL(`${server.url}/dashboard/tokens#api-keys`),
      section().locator('tr[data-api-key] button.btn-danger').click(),
    ]);
    await expect(page().locator('.flash').first().textContent()).resolves.toContain(
      'API key “Billing sync” revoked.',
    );
    await expect(section().locator('tr[data-api-key]').count()).resolves.toBe(0);
    expect((await api('/api/user', { authorization: `Bearer ${key}` })).status).toBe(401);
    await browser.shot('api-keys-04-revoked');
  });

  it('personal access tokens work the same without JavaScript: refused, created (shown once), listed, regenerated, deleted', async () => {
    const tokens = () => page().locator('[data-personal-tokens]');
    await go('/dashboard/tokens');
    await expect(tokens().locator('[data-empty]').textContent()).resolves.toContain(
      'You have no personal access tokens.',
    );
    await tokens().locator('button[type="submit"]').first().click();
    await expect(tokens().locator('.error').first().textContent()).resolves.toContain(
      'The name field is required.',
    );
    await tokens().locator('#field-token-name').fill('CI deploy');
    await tokens().locator('input[name="scopes"][value="check-status"]').check();
    await tokens().locator('form[data-token-form] button[type="submit"]').click();
    const token = (await tokens().locator('[data-secret] code').textContent()) ?? '';
    expect(token.split('.')).toHaveLength(3);
    await browser.shot('personal-tokens-01-created');
    expect((await api('/api/user', { authorization: `Bearer ${token}` })).status).toBe(200);
    await go('/dashboard/tokens');
    await expect(tokens().locator('tr[data-token]').count()).resolves.toBe(1);
    await expect(tokens().locator('tr[data-token]').textContent()).resolves.toContain('CI deploy');
    expect(await page().content()).not.toContain(token);
    await browser.shot('personal-tokens-02-listed');
    // Regenerate: a form post; the new token shown once in the answer, the old one refused.
    await tokens().locator('tr[data-token] button[data-regenerate]').click();
    await expect(tokens().locator('[data-secret] strong').textContent()).resolves.toContain(
      'Token “CI deploy” regenerated',
    );
    const renewed = (await tokens().locator('[data-secret] code').textContent()) ?? '';
    expect(renewed.split('.')).toHaveLength(3);
    expect(renewed).not.toBe(token);
    await browser.shot('personal-tokens-03-regenerated');
    expect((await api('/api/user', { authorization: `Bearer ${token}` })).status).toBe(401);
    expect((await api('/api/user', { authorization: `Bearer ${renewed}` })).status).toBe(200);
    await go('/dashboard/tokens');
    await expect(tokens().locator('tr[data-token]').count()).resolves.toBe(1);
    expect(await page().content()).not.toContain(renewed);
    await Promise.all([
      page().waitForURL(`${server.url}/dashboard/tokens#personal-tokens`),
      tokens().locator('tr[data-token] button[data-delete]').click(),
    ]);
    await expect(page().locator('.flash').first().textContent()).resolves.toContain(
      'Token “CI deploy” deleted.',
    );
    await expect(tokens().locator('tr[data-token]').count()).resolves.toBe(0);
    expect((await api('/api/user', { authorization: `Bearer ${renewed}` })).status).toBe(401);
    await browser.shot('personal-tokens-04-deleted');
  });

  it('OAuth clients work without JavaScript too: refused, created (secret shown once), listed', async () => {
    const clients = () => page().locator('[data-clients]');
    await go('/dashboard/clients');
    await expect(clients().locator('[data-empty]').textContent()).resolves.toContain(
      'You have not created any OAuth clients.',
    );
    await clients().locator('#field-name').fill('Shop');
    await clients().locator('#field-redirect').fill('https://shop.example/cb');
    await clients().locator('#field-name').fill(' ');
    await clients().locator('form[data-client-form] button[type="submit"]').click();
    await expect(clients().locator('.error').first().textContent()).resolves.toContain(
      'The name field is required.',
    );
    await browser.shot('clients-01-refused');
    await clients().locator('#field-name').fill('Shop');
    await clients().locator('form[data-client-form] button[type="submit"]').click();
    const secret = (await clients().locator('[data-secret] code[data-value="Secret"]').textContent()) ?? '';
    expect(secret.length).toBeGreaterThan(20);
    await browser.shot('clients-02-created');
    await go('/dashboard/clients');
    await expect(clients().locator('tr[data-client]').count()).resolves.toBe(1);
    await expect(clients().locator('tr[data-client]').textContent()).resolves.toContain('Shop');
    expect(await page().content()).not.toContain(secret);
    await browser.shot('clients-03-listed');
    clientId = (await clients().locator('tr[data-client] [data-client-id]').textContent()) ?? '';
    clientSecret = secret;
  });

  it('edits a client on its own page: refused with the message, then saved', async () => {
    const clients = () => page().locator('[data-clients]');
    await go('/dashboard/clients');
    await Promise.all([
      page().waitForURL(`${server.url}/dashboard/clients/${clientId}/edit#client-form`),
      clients().locator('tr[data-client] a[data-edit]').click(),
    ]);
    await expect(clients().locator('[data-form-title]').textContent()).resolves.toBe('Edit “Shop”');
    await expect(clients().locator('#field-redirect').inputValue()).resolves.toBe('https://shop.example/cb');
    await clients().locator('#field-redirect').fill('not a url');
    await clients().locator('form[data-client-form] button[type="submit"]').click();
    await expect(clients().locator('.error').first().textContent()).resolves.toMatch(/redirect/i);
    await expect(clients().locator('[data-form-title]').textContent()).resolves.toBe('Edit “Shop”');
    await browser.shot('clients-04-edit-refused');
    await clients().locator('#field-name').fill('Shop (staging)');
    await clients().locator('#field-redirect').fill('https://staging.shop.example/cb');
    await Promise.all([
      page().waitForURL(`${server.url}/dashboard/clients`),
      clients().locator('form[data-client-form] button[type="submit"]').click(),
    ]);
    await expect(page().locator('.flash').first().textContent()).resolves.toContain(
      'Client “Shop (staging)” saved.',
    );
    await expect(clients().locator('tr[data-client]').textContent()).resolves.toContain(
      'https://staging.shop.example/cb',
    );
    await browser.shot('clients-05-edited');
  });

  it('lists an application the user approved, and revokes it with a form post', async () => {
    const redirect = 'https://staging.shop.example/cb';
    const verifier = randomBytes(32).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    let callback = '';
    await page().route('https://staging.shop.example/**', (route) => {
      callback = route.request().url();
      return route.fulfill({ status: 200, contentType: 'text/plain', body: 'back at the shop' });
    });
    const query = new URLSearchParams({
      client_id: clientId,
      redirect_uri: redirect,
      response_type: 'code',
      scope: 'check-status',
      state: 'st',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
    await go(`/oauth/authorize?${query}`);
    await page().click('button[value="approve"]');
    await page().waitForURL((url) => url.href.startsWith(redirect));
    const code = new URL(callback).searchParams.get('code')!;
    const exchanged = await fetch(`${server.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        redirect_uri: redirect,
        client_id: clientId,
        client_secret: clientSecret,
        code_verifier: verifier,
      }),
    });
    expect(exchanged.status).toBe(200);
    const { access_token: token } = (await exchanged.json()) as { access_token: string };
    expect((await api('/api/orders', { authorization: `Bearer ${token}` })).status).toBe(200);

    const apps = () => page().locator('[data-authorized-apps]');
    await go('/dashboard/tokens');
    await expect(apps().locator('tr[data-authorized]').count()).resolves.toBe(1);
    await expect(apps().locator('tr[data-authorized]').textContent()).resolves.toContain('Shop (staging)');
    await expect(apps().locator('tr[data-authorized]').textContent()).resolves.toContain('check-status');
    await browser.shot('authorized-apps-01-listed');
    await Promise.all([
      page().waitForURL(`${server.url}/dashboard/tokens#authorized-apps`),
      apps().locator('button[data-revoke]').click(),
    ]);
    await expect(page().locator('.flash').first().textContent()).resolves.toContain(
      'Access for “Shop (staging)” revoked.',
    );
    await expect(apps().locator('tr[data-authorized]').count()).resolves.toBe(0);
    expect((await api('/api/orders', { authorization: `Bearer ${token}` })).status).toBe(401);
    await browser.shot('authorized-apps-02-revoked');
  });

  it('deletes the client with a form post', async () => {
    const clients = () => page().locator('[data-clients]');
    await go('/dashboard/clients');
    await Promise.all([
      page().waitForURL(`${server.url}/dashboard/clients`),
      clients().locator('tr[data-client] button[data-delete]').click(),
    ]);
    await expect(page().locator('.flash').first().textContent()).resolves.toContain(
      'Client “Shop (staging)” deleted.',
    );
    await expect(clients().locator('tr[data-client]').count()).resolves.toBe(0);
  });
});
