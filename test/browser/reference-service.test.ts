import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AuthorizationResponseError } from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Callback, listenForCallback, signIn } from '../../examples/client-app/client.js';
import { ANY_ENGINE } from '../support/engines.js';
import { type Chromium, launchChromium } from './chromium.js';
import { type ReferenceServer, startReferenceServer } from './server.js';

const ADA = { name: 'Ada Lovelace', email: 'ada@example.com', password: 'correct horse battery' };

/**
 * The reference service (`createApp`, as `npm start` runs it) driven through its pages by Chromium:
 * the steps a developer takes, in order. Each test builds on the one before.
 */
describe(`reference service in Chromium`, { timeout: 60_000 }, () => {
  let server: ReferenceServer;
  let browser: Chromium;
  let callback: Callback;
  let client: { id: string; secret: string };
  let personalToken: string;

  const page = () => browser.page;
  const go = (path: string) => page().goto(`${server.url}${path}`);
  const api = (path: string, token: string) =>
    fetch(`${server.url}${path}`, {
      headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
    });

  beforeAll(async () => {
    browser = await launchChromium();
    server = await startReferenceServer({}, { engine: ANY_ENGINE });
    callback = await listenForCallback(0);
    console.log(`Screenshots: ${browser.shots}`);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await callback?.close();
    await server?.stop();
    if (browser) console.log(`Screenshots written to ${browser.shots}`);
  });

  it('shows the landing page, with links to register, the docs and the API', async () => {
    await go('/');
    await expect(page().locator('h1').textContent()).resolves.toContain(
      'OAuth tokens and subscription billing',
    );
    expect(await page().locator('a[href="/docs"]').count()).toBeGreaterThan(0);
    await browser.shot('01-landing');
  });

  it('serves the documentation', async () => {
    await go('/docs');
    await page().click('a[href="/docs/billing"]');
    await expect(page().locator('.doc h1').textContent()).resolves.toBe('Billing');
    await expect(page().locator('.doc').textContent()).resolves.toContain('newSubscription');
    await browser.shot('01-docs');
  }, 90_000);

  it('registers, opens the mailed link from the outbox page and lands on the dashboard, signed in', async () => {
    await go('/register');
    await browser.shot('02-register');
    await page().fill('#field-name', ADA.name);
    await page().fill('#field-email', ADA.email);
    await page().fill('#field-password', ADA.password);
    await page().fill('#field-password_confirmation', ADA.password);
    // A valid sign-up ends on the login page (the same answer for a taken e-mail); the link mailed
    // to a new address signs the user in, without typing the password again.
    await Promise.all([page().waitForURL(`${server.url}/login`), page().click('main button[type="submit"]')]);
    await expect(page().locator('.flash').textContent()).resolves.toContain('Check your mail');
    await go('/dev/mail');
    await page().click('a:has-text("Verify your e-mail address")');
    await page().click('a:has-text("Open the HTML part")');
    await page().click('a:has-text("Verify e-mail address")');
    await browser.shot('02b-confirm-address');
    await Promise.all([
      page().waitForURL(`${server.url}/dashboard`),
      page().click('main button:has-text("Verify e-mail address")'),
    ]);
    await expect(page().locator('main').textContent()).resolves.toContain(ADA.email);
    await browser.shot('03-dashboard');
    // The account page, from the dashboard's Account tab: this browser's session is listed.
    await Promise.all([
      page().waitForURL(`${server.url}/account`),
      page().click('nav.tabs a:has-text("Account")'),
    ]);
    await expect(page().locator('#sessions').textContent()).resolves.toContain('(this session)');
    await expect(page().locator('#sessions').textContent()).resolves.toContain('Chrome on Linux');
    await browser.shot('03b-account');
    await go('/dashboard');
  });

  it('creates an OAuth client: 422 errors next to the fields, then the secret shown once', async () => {
    await go('/dashboard/clients');
    await page().fill('#field-name', 'Sample app');
    await page().fill('#field-redirect', 'not a url');
    await page().click('[data-client-form] button[type="submit"]');
    await expect(page().locator('#field-redirect ~ .error').textContent()).resolves.toContain(
      'The redirect field must be a valid URL',
    );
    await browser.shot('04-clients-error');

    await page().fill('#field-redirect', callback.redirectUri);
    await page().click('[data-client-form] button[type="submit"]');
    await page().waitForSelector('[data-secret]');
    client = {
      id: (await page().locator('[data-secret] code[data-value="Client ID"]').textContent())!,
      secret: (await page().locator('[data-secret] code[data-value="Secret"]').textContent())!,
    };
    expect(client.secret.length).toBeGreaterThan(20);
    await expect(page().locator(`tr[data-client="${client.id}"]`).textContent()).resolves.toContain(
      callback.redirectUri,
    );
    await browser.shot('05-clients-created');

    // Edit: the form switches to the client, PUT saves it.
    await page().click(`tr[data-client="${client.id}"] button[data-edit]`);
    await expect(page().locator('#field-name').inputValue()).resolves.toBe('Sample app');
    await page().fill('#field-name', 'Sample client');
    await page().click('[data-client-form] button[type="submit"]');
    await page().locator(`tr[data-client="${client.id}"]`, { hasText: 'Sample client' }).waitFor();

    // The secret is not shown again.
    await page().reload();
    await page().waitForSelector(`tr[data-client="${client.id}"]`);
    expect(await page().content()).not.toContain(client.secret);
  });

  it('runs the sample client through the approval page: Approve → the client reads /api/user', async () => {
    const flow = signIn({
      baseUrl: server.url,
      clientId: client.id,
      clientSecret: client.secret,
      scope: 'check-status',
      callback,
      open: async (url) => void (await page().goto(url.href)),
    });
    await page().waitForSelector('.approval');
    await expect(page().locator('.client-name').textContent()).resolves.toBe('Sample client');
    await expect(page().locator('[data-scope="check-status"]').textContent()).resolves.toContain(
      'Check the status of your orders',
    );
    await browser.shot('06-approval');
    await page().click('button[value="approve"]');
    const { user, scope } = await flow;
    expect(user).toMatchObject({ email: ADA.email });
    expect(scope).toBe('check-status');
    await expect(page().locator('body').textContent()).resolves.toContain('Signed in');
  });

  it("the sample client's command line prints the user after approval", async () => {
    // main.ts takes a fixed redirect port: find a free one, register a client for it.
    const probe = await listenForCallback(0);
    const port = new URL(probe.redirectUri).port;
    await probe.close();
    await go('/dashboard/clients');
    await page().fill('#field-name', 'CLI client');
    await page().fill('#field-redirect', `http://127.0.0.1:${port}/callback`);
    await page().click('[data-client-form] button[type="submit"]');
    await page().locator('[data-secret]', { hasText: 'CLI client' }).waitFor();
    const id = (await page().locator('[data-secret] code[data-value="Client ID"]').textContent())!;
    const secret = (await page().locator('[data-secret] code[data-value="Secret"]').textContent())!;

    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'examples/client-app/main.ts', '--client-id', id, `--client-secret=${secret}`],
      {
        env: { ...process.env, TOLLGATE_URL: server.url, REDIRECT_PORT: port },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk;
    });
    const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk;
        const match = /(http:\/\/\S+\/oauth\/authorize\S+)/.exec(stdout);
        if (match) resolve(match[1]!);
      });
      void exited.then((code) => reject(new Error(`main.ts exited (${code}) early:\n${stdout}\n${stderr}`)));
    });
    await page().goto(url);
    await page().click('button[value="approve"]');
    expect(await exited).toBe(0);
    expect(stdout).toContain('GET /api/user answered:');
    expect(stdout).toContain(`"email": "${ADA.email}"`);
  });

  it('runs the sample client again, forcing the page with prompt=consent, and Deny → access_denied', async () => {
    const flow = signIn({
      baseUrl: server.url,
      clientId: client.id,
      clientSecret: client.secret,
      // Approved before: without prompt=consent the service would answer at once.
      prompt: 'consent',
      callback,
      open: async (url) => void (await page().goto(url.href)),
    });
    const outcome = flow.then(
      () => undefined,
      (err: unknown) => err,
    );
    await page().waitForSelector('.approval');
    await page().click('button[value="deny"]');
    const err = await outcome;
    expect(err).toBeInstanceOf(AuthorizationResponseError);
    expect((err as AuthorizationResponseError).error).toBe('access_denied');
  });

  it('lists the authorized application', async () => {
    await go('/dashboard/tokens');
    await page().waitForSelector('[data-authorized-apps] tr[data-authorized]');
    await expect(page().locator('[data-authorized-apps] tbody').textContent()).resolves.toContain(
      'Sample client',
    );
  });

  it('creates a personal access token (shown once) that works from Node', async () => {
    await go('/dashboard/tokens');
    await page().click('[data-token-form] button[type="submit"]');
    await expect(page().locator('#field-token-name ~ .error').textContent()).resolves.toContain('required');
    await page().fill('#field-token-name', 'Deploy script');
    await page().check('[data-token-form] input[name="scopes"][value="check-status"]');
    await page().click('[data-token-form] button[type="submit"]');
    await page().waitForSelector('[data-personal-tokens] [data-secret]');
    personalToken = (await page().locator('[data-secret] code[data-value="Token"]').textContent())!;
    await page().waitForSelector('[data-personal-tokens] tr[data-token]');
    await browser.shot('07-tokens');

    const me = await api('/api/user', personalToken);
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ email: ADA.email });
    expect((await api('/api/orders', personalToken)).status).toBe(200);
    // Its last use reaches the list (recorded in a batch, about a second later).
    await expect
      .poll(
        async () => {
          await go('/dashboard/tokens');
          return page().locator('[data-personal-tokens] tr[data-token] [data-last-used]').textContent();
        },
        { timeout: 10_000 },
      )
      .toMatch(/^Last used /);
  });

  it('regenerates the personal token: the new one shown once works, the old one is refused', async () => {
    await go('/dashboard/tokens');
    const row = page().locator('[data-personal-tokens] tr[data-token]', { hasText: 'Deploy script' });
    await row.locator('button[data-regenerate]').click();
    const box = page().locator('[data-personal-tokens] [data-secret]', { hasText: 'regenerated' });
    await box.waitFor();
    const renewed = (await box.locator('code[data-value="Token"]').textContent())!;
    expect(renewed).not.toBe(personalToken);
    await browser.shot('07-token-regenerated');
    expect((await api('/api/user', personalToken)).status).toBe(401);
    expect((await api('/api/user', renewed)).status).toBe(200);
    await expect(page().locator('[data-personal-tokens] tr[data-token]').count()).resolves.toBe(1);
    personalToken = renewed;
  });

  it('"Try the API" calls /api/user and /api/orders from the page with the app_token cookie', async () => {
    await go('/dashboard');
    const cookies = await browser.context.cookies(server.url);
    expect(cookies.find((c) => c.name === 'app_token')?.httpOnly).toBe(true);
    await page().click('button[data-call="/api/user"]');
    await page().waitForSelector('[data-output][data-status]');
    await expect(page().locator('[data-output]').getAttribute('data-status')).resolves.toBe('200');
    await expect(page().locator('[data-output]').textContent()).resolves.toContain(ADA.email);
    await page().click('button[data-call="/api/orders"]');
    await page().waitForFunction(() =>
      document.querySelector('[data-output]')?.textContent?.includes('/api/orders →'),
    );
    await expect(page().locator('[data-output]').getAttribute('data-status')).resolves.toBe('200');
    await browser.shot('08-try-api');
  });

  it('refuses a declined test card, then subscribes with tok_visa', async () => {
    await go('/dashboard/billing');
    await browser.shot('09-billing-plans');
    await page().check('#plan-pro-yearly');
    await page().check('#subscribe-tok_chargeDeclined');
    await Promise.all([page().waitForURL('**/dashboard/billing'), page().click('text=Subscribe')]);
    await expect(page().locator('.flash-error').textContent()).resolves.toContain('declined');
    // The plan picked before the decline is still picked.
    await expect(page().locator('#plan-pro-yearly').isChecked()).resolves.toBe(true);
    await browser.shot('10-billing-declined');

    await page().check('#plan-basic-monthly');
    await page().check('#subscribe-tok_visa');
    await page().click('text=Subscribe');
    await page().waitForSelector('[data-subscription][data-state="active"]');
    await expect(page().locator('[data-plan]').textContent()).resolves.toBe('Basic');
    await expect(page().locator('[data-card-on-file]').textContent()).resolves.toContain('4242');
    await page().waitForSelector('[data-invoices] tr[data-invoice]');
    await browser.shot('11-billing-subscribed');
  });

  it('swaps the plan and updates the card', async () => {
    await page().selectOption('#swap-plan', 'pro-monthly');
    await page().click('text=Swap');
    await page().waitForSelector('[data-plan="pro-monthly"]');
    await expect(page().locator('.flash').first().textContent()).resolves.toContain('Your plan is now Pro');

    await page().click('summary:has-text("Update card")');
    await page().check('#update-tok_mastercard');
    await page().click('text=Save card');
    await page().locator('[data-card-on-file]', { hasText: 'ending 4444' }).waitFor();
    await expect(page().locator('.flash').first().textContent()).resolves.toContain(
      'Your payment method is updated',
    );
  });

  it('cancels (grace period end shown), then resumes', async () => {
    await page().click('text=Cancel subscription');
    await page().waitForSelector('[data-subscription][data-state="grace"]');
    await expect(page().locator('[data-ends-at]').textContent()).resolves.toMatch(/\w{3} \d{1,2}, \d{4}/);
    await browser.shot('12-billing-cancelled');
    await page().click('text=Resume subscription');
    await page().waitForSelector('[data-subscription][data-state="active"]');
    await expect(page().locator('.flash').first().textContent()).resolves.toContain('resumed');
  });

  it('downloads an invoice PDF', async () => {
    const total = (await page().locator('[data-invoices] tr[data-invoice] td strong').first().textContent())!;
    const [download] = await Promise.all([
      page().waitForEvent('download'),
      page().click('text=Download PDF'),
    ]);
    const file = join(browser.shots, 'invoice.pdf');
    await download.saveAs(file);
    expect(readFileSync(file).subarray(0, 5).toString()).toBe('%PDF-');
    if (!existsSync('/usr/bin/pdftotext')) {
      throw new Error('pdftotext is missing: apt-get install -y poppler-utils (.ci/run installs it).');
    }
    expect(execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' })).toContain(total);
    execFileSync('pdftoppm', ['-png', '-r', '80', '-singlefile', file, join(browser.shots, 'invoice')]);
  });

  it('deletes the personal token, and the API refuses it', async () => {
    await go('/dashboard/tokens');
    // A token deleted while its copy box is shown takes the box with it.
    await page().fill('#field-token-name', 'Throwaway');
    await page().click('[data-token-form] button[type="submit"]');
    const box = page().locator('[data-personal-tokens] [data-secret]', { hasText: 'Throwaway' });
    await box.waitFor();
    await page()
      .locator('[data-personal-tokens] tr[data-token]', { hasText: 'Throwaway' })
      .locator('button[data-delete]')
      .click();
    await box.waitFor({ state: 'detached' });
    await page().waitForSelector('[data-personal-tokens] tr[data-token]');
    await page().click('[data-personal-tokens] button[data-delete]');
    await page().waitForSelector('[data-personal-tokens] [data-empty]:not(.hidden)');
    const res = await api('/api/user', personalToken);
    expect(res.status).toBe(401);
  });

  it('revokes the authorized applications', async () => {
    await go('/dashboard/tokens');
    const revoke = page().locator('[data-authorized-apps] button[data-revoke]');
    await revoke.first().waitFor();
    expect(await revoke.count()).toBe(2);
    await revoke.first().click();
    await page().waitForFunction(
      () => document.querySelectorAll('[data-authorized-apps] [data-revoke]').length === 1,
    );
    await revoke.first().click();
    await page().waitForSelector('[data-authorized-apps] [data-empty]:not(.hidden)');
    await browser.shot('13-tokens-revoked');
  });

  it('deletes the OAuth clients, one of them from two tabs at once', async () => {
    await go('/dashboard/clients');
    // A second tab shows the same list; the client is deleted there first.
    const other = await browser.context.newPage();
    other.on('dialog', (dialog) => void dialog.accept());
    await other.goto(`${server.url}/dashboard/clients`);
    await other.click(`tr[data-client="${client.id}"] button[data-delete]`);
    await other.waitForFunction(() => document.querySelectorAll('tr[data-client]').length === 1);
    await other.close();
    // Deleting it again from the stale tab is answered 404: the page takes it as done.
    const errors: Error[] = [];
    page().on('pageerror', (err) => errors.push(err));
    await page().click(`tr[data-client="${client.id}"] button[data-delete]`);
    await page().waitForFunction(() => document.querySelectorAll('tr[data-client]').length === 1);
    expect(errors).toEqual([]);
    await page().click('tr[data-client] button[data-delete]');
    await page().waitForSelector('[data-clients] [data-empty]:not(.hidden)');
    expect(await page().locator('tr[data-client]').count()).toBe(0);
  });

  it('a plan with a trial: subscribing shows when the trial ends', async () => {
    await page().click('header button:has-text("Log out")');
    await page().waitForURL('**/login');
    await go('/register');
    await page().fill('#field-name', 'Bob Babbage');
    await page().fill('#field-email', 'bob@example.com');
    await page().fill('#field-password', 'difference engine 2');
    await page().fill('#field-password_confirmation', 'difference engine 2');
    await Promise.all([page().waitForURL('**/login'), page().click('main button[type="submit"]')]);
    await page().fill('#field-email', 'bob@example.com');
    await page().fill('#field-password', 'difference engine 2');
    await Promise.all([page().waitForURL('**/dashboard'), page().click('main button[type="submit"]')]);
    await go('/dashboard/billing');
    await page().check('#plan-pro-monthly');
    await page().check('#subscribe-tok_visa');
    await page().click('text=Subscribe');
    await page().waitForSelector('[data-subscription][data-state="trial"]');
    await expect(page().locator('[data-subscription] .badge').textContent()).resolves.toMatch(
      /^Trial until \w{3} \d{1,2}, \d{4}$/,
    );
    await expect(page().locator('.flash').first().textContent()).resolves.toContain('14-day trial');
    await browser.shot('14-billing-trial');
    await go('/dashboard');
    await expect(page().locator('[data-plan-summary]').textContent()).resolves.toContain('Pro — trial until');
  });

  it('logs out and back in', async () => {
    await page().click('header button:has-text("Log out")');
    await page().waitForURL('**/login');
    await expect(page().locator('.flash').textContent()).resolves.toContain('logged out');
    await page().fill('#field-email', ADA.email);
    await page().fill('#field-password', ADA.password);
    await Promise.all([page().waitForURL('**/dashboard'), page().click('main button[type="submit"]')]);
    await expect(page().locator('[data-plan-summary]').textContent()).resolves.toContain('Pro — active');
    await browser.shot('15-login-again');
  });

  it('a missing page keeps the header, the navigation and the footer', async () => {
    const res = await page().goto(`${server.url}/no/such/page`);
    expect(res?.status()).toBe(404);
    await expect(page().locator('header .brand').textContent()).resolves.toBe('Tollgate');
    await expect(page().locator('main h1').textContent()).resolves.toBe('404');
    await page().click('main a:has-text("Back to the start")');
    await page().waitForURL(`${server.url}/`);
    await page().goto(`${server.url}/no/such/page`);
    await browser.shot('16-not-found');
  });
});
