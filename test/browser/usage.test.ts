import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppUser } from '../../app/user.js';
import { Users } from '../../src/auth/users.js';
import { ApiKeys } from '../../src/oauth/api-keys/api-keys.js';
import { UsageMeter } from '../../src/plans/metering/usage-meter.js';
import { UsageReporter } from '../../src/plans/reporting/usage-reporter.js';
import { ANY_ENGINE } from '../support/engines.js';
import { type Chromium, launchChromium } from './chromium.js';
import { type ReferenceServer, startReferenceServer } from './server.js';
import { signUpAndLogIn } from './sign-up.js';

const ADA = { name: 'Ada Lovelace', email: 'ada@example.com', password: 'correct horse battery' };

/** The usage page with a month and a half of calls, in Chromium at desktop and phone widths. */
describe(`the usage page in the browser`, { timeout: 60_000 }, () => {
  let server: ReferenceServer;
  let browser: Chromium;

  beforeAll(async () => {
    browser = await launchChromium();
    server = await startReferenceServer({}, { engine: ANY_ENGINE });
    await signUpAndLogIn(browser.page, server.url, ADA);
    const user = await server.app.container.make(Users).findByEmail(ADA.email);
    const userId = Number(user!.id);
    const keys = server.app.container.make(ApiKeys);
    const [sync, reports] = await Promise.all([
      keys.create(userId, { name: 'Billing sync' }),
      keys.create(userId, { name: 'Nightly reports' }),
    ]);
    const meter = server.app.container.make(UsageMeter);
    const now = server.app.clock.now();
    const days = (offset: number) =>
      new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + offset + 1, 0)).getUTCDate();
    const at = (offset: number, date: number) =>
      new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + offset, date)).toISOString().slice(0, 10);
    // A steady key and a bursty one: last month whole, this month up to today.
    for (const offset of [-1, 0]) {
      const last = offset === 0 ? now.getUTCDate() : days(offset);
      for (let date = 1; date <= last; date++) {
        const base = {
          userId: String(userId),
          clientId: '',
          credentialKind: 'api_key' as const,
          meter: 'calls',
        };
        meter.record(
          { ...base, day: at(offset, date), credentialId: sync.key.id, route: 'api.orders.index' },
          80 + ((date * 37) % 50),
        );
        if (date % 7 === 3)
          meter.record(
            { ...base, day: at(offset, date), credentialId: reports.key.id, route: 'api.user' },
            200 + offset * 60,
          );
      }
    }
    await meter.flush();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    if (browser) console.log(`Screenshots written to ${browser.shots}`);
  });

  it('shows the chart, the quota and the breakdown by key', async () => {
    await browser.page.goto(`${server.url}/dashboard/usage?group=credential`);
    const bars = browser.page.locator('[data-usage-chart] rect[fill="#2f5bd3"]');
    expect(await bars.count()).toBeGreaterThanOrEqual(28);
    await expect(browser.page.locator('[data-usage-groups] tbody tr').count()).resolves.toBe(2);
    await expect(browser.page.locator('[data-usage-quota]').textContent()).resolves.toMatch(
      /of 10,000 calls used this month/,
    );
    await browser.shot('usage-01-by-key');
  });

  it('on the metered pro plan: the next invoice shows the reported calls', async () => {
    const user = await server.app.container.make(Users).findByEmail<AppUser>(ADA.email);
    await user!.newSubscription('default', 'pro-monthly').trialDays(0).create('tok_visa');
    const lines = await server.app.container.make(UsageReporter).report({ userId: Number(user!.id) });
    expect(lines[0]).toMatchObject({ status: 'reported' });
    await browser.page.goto(`${server.url}/dashboard/usage`);
    const upcoming = browser.page.locator('[data-upcoming-invoice]');
    await expect(upcoming.textContent()).resolves.toContain('$29.00');
    await browser.page.locator('[data-metered-usage]').scrollIntoViewIfNeeded();
    await browser.shot('usage-03-metered');
  });

  it('narrows the chart to one key by its link', async () => {
    await browser.page.goto(`${server.url}/dashboard/usage?group=credential`);
    await Promise.all([
      browser.page.waitForURL(/only=/),
      browser.page.locator('[data-usage-groups] a:has-text("Nightly reports")').click(),
    ]);
    await expect(browser.page.locator('[data-usage] h2').textContent()).resolves.toContain('Nightly reports');
    await browser.shot('usage-02-one-key');
  });
});
