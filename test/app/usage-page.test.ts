import { describe, expect, it } from 'vitest';
import type { AppUser } from '../../app/user.js';
import { Users } from '../../src/auth/users.js';
import { ApiKeys } from '../../src/oauth/api-keys/api-keys.js';
import { UsageMeter } from '../../src/plans/metering/usage-meter.js';
import { UsageReporter } from '../../src/plans/reporting/usage-reporter.js';
import { Browser } from '../oauth/support.js';
import { ANY_ENGINE } from '../support/engines.js';
import { ADA, useDashboard } from './dashboard-support.js';

/** `/dashboard/usage`: the ledger's days as a chart and a table, the free plan's quota and rate limit. */
describe(`the usage page`, () => {
  let keyId: string;

  const day = (offsetMonths: number, date: number) => {
    const now = d.server.app.clock.now();
    return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + offsetMonths, date))
      .toISOString()
      .slice(0, 10);
  };

  const d = useDashboard({
    engine: ANY_ENGINE,
    seed: async ({ server, userId }) => {
      const { key } = await server.app.container.make(ApiKeys).create(userId, { name: 'Billing sync' });
      keyId = key.id;
      const meter = server.app.container.make(UsageMeter);
      const usage = (date: string, units: number, route = 'api.orders.index') =>
        meter.record(
          {
            day: date,
            userId: String(userId),
            clientId: '',
            credentialKind: 'api_key',
            credentialId: keyId,
            route,
            meter: 'calls',
          },
          units,
        );
      usage(day(0, 1), 40);
      usage(day(0, 2), 25, 'api.user');
      usage(day(-1, 3), 70);
      // Someone else's calls never show.
      meter.record(
        {
          day: day(0, 1),
          userId: '999',
          clientId: '',
          credentialKind: 'cookie',
          credentialId: '',
          route: 'api.user',
          meter: 'calls',
        },
        500,
      );
      await meter.flush();
    },
  });

  it('shows the plan, the quota used and left, and the rate limit', async () => {
    const res = await d.ada.get('/dashboard/usage');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const html = await res.text();
    expect(html).toContain('Plan “free”');
    expect(html).toMatch(/<strong>65<\/strong> of 10,000 calls used this month/);
    expect(html).toContain('<strong data-quota-left="true">9,935</strong> left');
    expect(html).toContain('Rate limit: 120 requests per minute');
  });

  it('charts this month against the last, day by day, and lists each credential by name', async () => {
    const html = await (await d.ada.get('/dashboard/usage?group=credential')).text();
    expect(html).toMatch(/<title>[A-Z][a-z]+ \d{4}, day 1: 40 calls<\/title>/);
    expect(html).toMatch(/<title>[A-Z][a-z]+ \d{4}, day 2: 25 calls<\/title>/);
    expect(html).toMatch(/<title>[A-Z][a-z]+ \d{4}, day 3: 70 calls<\/title>/);
    expect(html).not.toContain('500 calls');
    expect(html).toContain(
      `<tr data-usage-group="api_key:${keyId}"><td><a href="/dashboard/usage?group=credential&amp;only=api_key%3A${keyId}">API key “Billing sync”</a></td><td>65</td><td class="muted">70</td></tr>`,
    );
  });

  it('groups by route and narrows the chart to one', async () => {
    const html = await (await d.ada.get('/dashboard/usage?group=route&only=api.user')).text();
    expect(html).toContain('Calls per day — api.user');
    expect(html).toMatch(/day 2: 25 calls/);
    expect(html).toMatch(/day 1: 0 calls/);
    // The table lists every route whatever the chart shows: api.orders.index's 40 calls this month.
    expect(html).toMatch(
      /<tr data-usage-group="api.orders.index"><td><a [^>]*>api.orders.index<\/a><\/td><td>40<\/td>/,
    );
  });

  it('a subscriber of a metered plan sees the next invoice with the reported calls, at the unit price', async () => {
    const users = d.server.app.container.make(Users);
    const grace = await users.create<AppUser>({
      name: 'Grace',
      email: 'grace@example.com',
      password: ADA.password,
    });
    await grace.newSubscription('default', 'pro-monthly').trialDays(0).create('tok_visa');
    const meter = d.server.app.container.make(UsageMeter);
    meter.record(
      {
        day: d.server.app.clock.now().toISOString().slice(0, 10),
        userId: String(grace.id),
        clientId: '',
        credentialKind: 'cookie',
        credentialId: '',
        route: 'api.user',
        meter: 'calls',
      },
      321,
    );
    await meter.flush();
    const [line] = await d.server.app.container.make(UsageReporter).report({ userId: Number(grace.id) });
    expect(line).toMatchObject({ total: 321, status: 'reported' });
    const browser = new Browser(d.server.url);
    await browser.login({ email: 'grace@example.com', password: ADA.password });
    const html = await (await browser.get('/dashboard/usage')).text();
    expect(html).toContain('Plan “pro”');
    expect(html).toContain('at <strong>$0.01</strong> each');
    const upcoming =
      /<table class="table" data-upcoming-invoice="true">([\s\S]*?)<\/table>/.exec(html)?.[1] ?? '';
    expect(upcoming).toMatch(/<td>321<\/td><td>\$3\.21<\/td>/);
    expect(upcoming).toContain('$29.00');
  });

  it('an unknown grouping falls back to clients; the page needs a login', async () => {
    const html = await (await d.ada.get('/dashboard/usage?group=%3Cscript%3E')).text();
    expect(html).toContain('No client (API keys, this dashboard)');
    const anonymous = await fetch(`${d.server.url}/dashboard/usage`, { redirect: 'manual' });
    expect(anonymous.status).toBe(302);
  });
});
