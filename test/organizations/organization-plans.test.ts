import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AppUser } from '../../app/user.js';
import { Users } from '../../src/auth/users.js';
import { ApiKeys, PersonalAccessTokens } from '../../src/oauth/index.js';
import { BillableOrganization, Organizations } from '../../src/organizations/index.js';
import { UsageMeter } from '../../src/plans/index.js';
import { tokenIn } from '../auth/browser.js';
import { call, PLANS, type PlansApp, startPlansApp, stopPlansApp } from '../plans/support.js';
import type { TestApp } from '../support/app.js';
import { ENGINES } from '../support/engines.js';
import { Member, PASSWORD } from './support.js';

const { free, pro } = PLANS!.definitions!;
/** The reference service's free and pro plans, and `team` (the `basic-monthly` billing plan): 10 calls a month. */
const plans = {
  ...PLANS,
  definitions: {
    free,
    pro,
    team: {
      billingPlans: ['basic-monthly'],
      scopes: ['*'],
      rateLimit: { requests: 1000, per: 'minute' as const },
      monthlyQuota: 10,
    },
  },
};

describe.each(ENGINES)('plans, quotas and usage per organization (%s)', (engine) => {
  let t: PlansApp | undefined;
  let inProcess: TestApp;
  let n = 0;

  beforeEach(async () => {
    t = await startPlansApp(engine, { plans });
    const app = t.app;
    inProcess = {
      app,
      clock: t.clock,
      storagePath: t.storagePath,
      request: async (path, init) => app.fetch(new Request(new URL(path, 'http://localhost'), init)),
      close: async () => undefined,
    };
  });
  afterEach(async () => {
    await stopPlansApp(t);
    t = undefined;
  });

  /** A user signed in through the login form, as a browser. */
  const member = async (name: string) => {
    const email = `${name}-${++n}@example.com`;
    const user = await t!.app.container.make(Users).create<AppUser>({ name, email, password: PASSWORD });
    const browser = new Member(inProcess, user.id, email);
    expect((await browser.submit('/login', { email, password: PASSWORD })).status).toBe(302);
    browser.token = tokenIn(await (await browser.get('/organizations')).text());
    return { user, browser };
  };

  /** An organization owned by `owner`, subscribed to `team` at the embedded Stripe sandbox. */
  const teamOrganization = async (ownerId: number, name: string) => {
    const { id } = await t!.app.container.make(Organizations).create(ownerId, name);
    await subscribe(id);
    return id;
  };

  const subscribe = async (id: number) => {
    await t!.app.db
      .updateTable('organizations')
      .set({ billing_email: `billing-${id}@example.com` })
      .where('id', '=', id)
      .execute();
    const row = await t!.app.db
      .selectFrom('organizations')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    await new BillableOrganization(t!.app.container, row)
      .newSubscription('default', 'basic-monthly')
      .create('tok_visa');
  };

  /** The organization's API key made by `userId`, and a personal access token of another member for it. */
  const organizationCredentials = async (organizationId: number, keyMaker: number, tokenMaker: number) => {
    const { plainKey } = await t!.app.container
      .make(ApiKeys)
      .create(keyMaker, { name: 'deploy', scopes: ['check-status'], organizationId });
    const { accessToken } = await t!.app.container
      .make(PersonalAccessTokens)
      .create(tokenMaker, 'ci', ['check-status'], { organizationId });
    return { apiKey: plainKey, memberToken: accessToken };
  };

  it("two members' credentials share the organization's monthly quota: the 11th call is refused for both; a personal token of one of them is not", async () => {
    const ada = await member('ada');
    const bob = await member('bob');
    const acme = await teamOrganization(ada.user.id, 'Acme');
    await t!.app.container.make(Organizations).addMember(acme, bob.user.id, 'member', ada.user.id);
    const { apiKey, memberToken } = await organizationCredentials(acme, ada.user.id, bob.user.id);

    const statuses: number[] = [];
    for (let i = 0; i < 10; i++)
      statuses.push((await call(t!, '/api/user', i % 2 ? memberToken : apiKey)).status);
    expect(statuses).toEqual(Array(10).fill(200));
    for (const credential of [apiKey, memberToken]) {
      const refused = await call(t!, '/api/user', credential);
      expect(refused.status).toBe(429);
      expect((await refused.json()).message).toBe('The monthly quota of your plan is used up.');
      expect(refused.headers.get('ratelimit-policy')).toContain('"plan.team.month";q=10');
    }
    // Bob's own token counts against his own (free) plan, not the organization's.
    const personal = (await bob.user.createToken('mine', ['check-status'])).accessToken;
    const own = await call(t!, '/api/user', personal);
    expect(own.status).toBe(200);
    expect(own.headers.get('ratelimit-policy')).toContain('"plan.free"');
  });

  it('an organization without a subscription is on the free plan; subscribing lifts its limit at once', async () => {
    const ada = await member('ada');
    const { id: acme } = await t!.app.container.make(Organizations).create(ada.user.id, 'Acme');
    const { apiKey } = await organizationCredentials(acme, ada.user.id, ada.user.id);
    for (let i = 0; i < 3; i++) expect((await call(t!, '/api/user', apiKey)).status).toBe(200);
    const limited = await call(t!, '/api/user', apiKey);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('ratelimit-policy')).toContain('"plan.free";q=3;w=60');
    await subscribe(acme);
    const lifted = await call(t!, '/api/user', apiKey);
    expect(lifted.status).toBe(200);
    expect(lifted.headers.get('ratelimit-policy')).toContain('"plan.team";q=1000;w=60');
  });

  it("a member's credential for the organization is issued the scopes of the organization's plan, their own those of theirs", async () => {
    const ada = await member('ada');
    const bob = await member('bob');
    const acme = await teamOrganization(ada.user.id, 'Acme');
    await t!.app.container.make(Organizations).addMember(acme, bob.user.id, 'member', ada.user.id);
    const scopes = ['check-status', 'place-orders'];
    const forAcme = await bob.browser.json('POST', `/oauth/personal-access-tokens?organization_id=${acme}`, {
      name: 'orders',
      scopes,
    });
    expect(forAcme.status).toBe(200);
    const { accessToken } = (await forAcme.json()) as { accessToken: string };
    expect((await call(t!, '/api/orders', accessToken, 'POST')).status).toBe(201);
    const own = await bob.browser.json('POST', '/oauth/personal-access-tokens', { name: 'orders', scopes });
    expect(own.status).toBe(422);
    expect((await own.json()).errors.scopes).toEqual(['Your plan does not allow the scope "place-orders".']);
  });

  it("calls from two of the organization's credentials at once never exceed its quota", async () => {
    const ada = await member('ada');
    const bob = await member('bob');
    const acme = await teamOrganization(ada.user.id, 'Acme');
    await t!.app.container.make(Organizations).addMember(acme, bob.user.id, 'admin', ada.user.id);
    const { apiKey, memberToken } = await organizationCredentials(acme, bob.user.id, ada.user.id);
    const responses = await Promise.all(
      Array.from({ length: 30 }, (_, i) => call(t!, '/api/user', i % 2 ? memberToken : apiKey)),
    );
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(20);
  });

  it('the usage page shows calls per key and per member and the quota left, to owner, admin and billing; a member gets 403, another organization 404', async () => {
    const ada = await member('ada');
    const bob = await member('bob');
    const carol = await member('carol');
    const dave = await member('dave');
    const organizations = t!.app.container.make(Organizations);
    const acme = await teamOrganization(ada.user.id, 'Acme');
    await organizations.addMember(acme, bob.user.id, 'member', ada.user.id);
    await organizations.addMember(acme, carol.user.id, 'billing', ada.user.id);
    await organizations.create(dave.user.id, 'Globex');
    const { apiKey, memberToken } = await organizationCredentials(acme, ada.user.id, bob.user.id);
    for (let i = 0; i < 3; i++) expect((await call(t!, '/api/user', apiKey)).status).toBe(200);
    for (let i = 0; i < 4; i++) expect((await call(t!, '/api/user', memberToken)).status).toBe(200);
    // Bob's personal calls are his own, not the organization's.
    const personal = (await bob.user.createToken('mine', ['check-status'])).accessToken;
    expect((await call(t!, '/api/user', personal)).status).toBe(200);
    await t!.app.container.make(UsageMeter).flush();

    const json = { accept: 'application/json' };
    const page = await carol.browser.get(`/organizations/${acme}/usage`, json);
    expect(page.status).toBe(200);
    const report = await page.json();
    expect(report).toMatchObject({ plan: 'team', state: 'subscribed', calls: 7, quota: 10, left: 3 });
    expect(report.byMember.map((m: { email: string; calls: number }) => [m.email, m.calls])).toEqual([
      [bob.browser.email, 4],
      [ada.browser.email, 3],
    ]);
    expect(
      report.byKey.map((k: { kind: string; name: string; calls: number }) => [k.kind, k.name, k.calls]),
    ).toEqual([
      ['personal', 'ci', 4],
      ['api_key', 'deploy', 3],
    ]);

    const html = await (await ada.browser.get(`/organizations/${acme}/usage`)).text();
    expect(html).toContain('3 of 10');
    expect(html).toContain('API key &quot;deploy&quot;');
    expect(html).not.toContain('<script');

    const forbidden = await bob.browser.get(`/organizations/${acme}/usage`, json);
    expect(forbidden.status).toBe(403);
    expect((await forbidden.json()).message).toContain("see the organization's usage");
    expect((await dave.browser.get(`/organizations/${acme}/usage`, json)).status).toBe(404);
  });
});
