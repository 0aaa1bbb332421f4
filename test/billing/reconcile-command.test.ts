import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { authProvider } from '../../src/auth/provider.js';
import { UserModelKey, Users } from '../../src/auth/users.js';
import { BillableStores, billingProvider, PaymentGatewayKey } from '../../src/billing/index.js';
import type { ReconcileReport } from '../../src/billing/reconcile/drift.js';
import { SubscriptionRepository } from '../../src/billing/subscriptions/subscription-repository.js';
import { type ReconcileCommandOptions, reconcile } from '../../src/cli/commands/billing-reconcile.js';
import { run } from '../../src/cli/main.js';
import { TestClock } from '../../src/core/clock.js';
import { listen, type RunningServer } from '../../src/kernel/server.js';
import { mailProvider } from '../../src/mail/provider.js';
import {
  type BillableOrganization,
  Organizations,
  organizationsProvider,
} from '../../src/organizations/index.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { acrossEngines, ENGINES } from '../support/engines.js';
import { HELD_WEBHOOKS, stopBillingApp } from './billing-app.js';
import { braintreeHarness } from './braintree-harness.js';
import { TestUser } from './contract/context.js';
import type { EditionSandbox } from './harness.js';
import { stripeHarness } from './stripe-harness.js';

/**
 * `tollgate billing:reconcile` through the CLI on the reference app (its offline sandbox); the
 * drift cases themselves run in the billing contract (`test/billing/contract/reconcile.ts`).
 */
describe.each(ENGINES)('tollgate billing:reconcile (%s)', (engine) => {
  let database: TestDatabase;
  let storage: string;
  const saved = { ...process.env };

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    storage = mkdtempSync(join(tmpdir(), 'tollgate-reconcile-'));
    process.env.DATABASE_URL = database.url;
    process.env.STORAGE_PATH = storage;
    process.env.LOG_LEVEL = 'silent';
  });
  afterAll(async () => {
    for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name];
    Object.assign(process.env, saved);
    await database.drop();
    rmSync(storage, { recursive: true, force: true });
  });

  const tollgate = async (...argv: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const log = vi
      .spyOn(console, 'log')
      .mockImplementation((...args: unknown[]) => void out.push(args.join(' ')));
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      err.push(String(chunk));
      return true;
    });
    try {
      return { code: await run(argv), out, err: err.join('') };
    } finally {
      log.mockRestore();
      stderr.mockRestore();
    }
  };

  it('a clean database: exit 0, in words and in JSON; an unknown --user is refused', async () => {
    const text = await tollgate('billing:reconcile');
    expect(text).toMatchObject({
      code: 0,
      out: ['Checked 0 owner(s), 0 subscription row(s).', 'No drift: every row matches the provider.'],
    });
    const json = await tollgate('billing:reconcile', '--json', '--fix');
    expect(json.code).toBe(0);
    expect(JSON.parse(json.out[0]!)).toEqual({ owners: 0, subscriptions: 0, drift: [], clean: true });
    const unknown = await tollgate('billing:reconcile', '--user', 'nobody@example.com');
    expect(unknown.code).toBe(1);
    expect(unknown.err).toBe('Error: No user nobody@example.com.\n');
  });
});

const EDITIONS = acrossEngines([stripeHarness, braintreeHarness].map((harness) => ({ harness })));

/**
 * Every billable owner, users and organizations, on the edition's sandbox: the sandbox's webhooks go
 * to a route that drops them, so what changes at the provider reaches the app only through reconcile.
 */
describe.each(EDITIONS)(
  'billing:reconcile on users and organizations ($harness.edition, $engine)',
  ({ harness, engine }) => {
    const { plans, tokens } = harness;
    const clock = new TestClock(new Date('2026-01-15T12:00:00Z'));
    let sandbox: EditionSandbox;
    let t: TestApp;
    let server: RunningServer;

    beforeAll(async () => {
      sandbox = await harness.startSandbox({
        clock,
        plans: [plans.monthly, plans.other],
        coupons: [],
        currency: 'usd',
      });
      t = await createTestApp({
        engine,
        clock,
        config: { billing: { ...sandbox.config, plans: [plans.monthly, plans.other], currency: 'usd' } },
        providers: [authProvider(), mailProvider(), billingProvider(), organizationsProvider()],
        setup: (app) => {
          app.container.instance(UserModelKey, TestUser);
          app.router.post(HELD_WEBHOOKS, (c) => c.body(null, 204));
        },
      });
      server = await listen(t.app, '127.0.0.1', 0);
      sandbox.setWebhook(`${server.url}${HELD_WEBHOOKS}`);
    });
    afterAll(() => stopBillingApp({ t, server }, sandbox));

    const command = async (options: ReconcileCommandOptions) => {
      const lines: string[] = [];
      const code = await reconcile(t.app, options, (line) => lines.push(line));
      const report = options.json ? (JSON.parse(lines[0]!) as ReconcileReport & { clean: boolean }) : null;
      return { code, lines, report };
    };
    let n = 0;
    /** A user and an organization of theirs, each subscribed to `main` with its own customer. */
    const subscribedOwners = async () => {
      const email = `owner${++n}-${harness.edition}@example.com`;
      const user = await t.app.container
        .make(Users)
        .create<TestUser>({ name: 'Ada', email, password: 'correct horse battery' });
      const { id } = await t.app.container.make(Organizations).create(user.id, `Acme ${n}`);
      await t.app.db
        .updateTable('organizations')
        .set({ billing_email: `billing${n}@acme.test` })
        .where('id', '=', id)
        .execute();
      const organization = (await t.app.container
        .make(BillableStores)
        .find({ type: 'organization', id })) as BillableOrganization;
      for (const owner of [user, organization] as (TestUser | BillableOrganization)[])
        await owner.newSubscription('main', plans.monthly.id).create(tokens.card);
      await sandbox.settled();
      return { user, organization };
    };
    const rowsOf = (type: string, id: number) =>
      t.app.db
        .selectFrom('subscriptions')
        .selectAll()
        .where('billable_type', '=', type)
        .where('billable_id', '=', id)
        .orderBy('id')
        .execute();
    const providerIdOf = (row: Record<string, unknown>) =>
      row[t.app.container.make(PaymentGatewayKey).capabilities.columns.subscriptionId] as string;

    it("a subscription cancelled at the provider behind the app's back: found and fixed for the organization and the user", async () => {
      const { user, organization } = await subscribedOwners();
      const gateway = t.app.container.make(PaymentGatewayKey);
      const owners = [
        { type: 'user', id: user.id },
        { type: 'organization', id: organization.id },
      ];
      for (const owner of owners) {
        const [row] = await rowsOf(owner.type, owner.id);
        await gateway.cancelSubscription(providerIdOf(row!), { atPeriodEnd: false });
      }
      await sandbox.settled();
      for (const owner of owners)
        expect((await rowsOf(owner.type, owner.id))[0]!.status).not.toBe('canceled');

      const found = await command({ json: true });
      expect(found.code).toBe(1);
      for (const owner of owners)
        expect(
          found.report!.drift.filter((d) => d.owner.type === owner.type && d.owner.id === owner.id),
        ).toEqual([expect.objectContaining({ kind: 'mismatch', owner, fixed: false })]);
      const text = await command({ organization: String(organization.id) });
      expect(text.lines[0]).toBe('Checked 1 owner(s), 1 subscription row(s).');
      expect(text.lines[2]).toContain(
        `mismatch  ${organization.email} (organization ${organization.id}), row `,
      );

      expect((await command({ fix: true })).code).toBe(0);
      for (const owner of owners) expect((await rowsOf(owner.type, owner.id))[0]!.status).toBe('canceled');
      expect((await command({})).code).toBe(0);
    });

    it('two --fix runs at once adopt the orphan of an organization and of a user once each', async () => {
      const { user, organization } = await subscribedOwners();
      // Subscriptions made at the provider whose local write failed: live there, no row here.
      const insert = vi
        .spyOn(t.app.container.make(SubscriptionRepository), 'insert')
        .mockRejectedValue(new Error('disk I/O error'));
      try {
        for (const owner of [user, organization] as (TestUser | BillableOrganization)[])
          await expect(owner.newSubscription('extra', plans.other.id).create(tokens.card)).rejects.toThrow(
            'disk I/O error',
          );
      } finally {
        insert.mockRestore();
      }
      await sandbox.settled();
      const found = await command({ json: true });
      const orphans = found.report!.drift.filter((d) => d.kind === 'orphaned');
      expect(orphans.map((d) => `${d.owner.type} ${d.owner.id}`).sort()).toEqual([
        `organization ${organization.id}`,
        `user ${user.id}`,
      ]);

      const runs = await Promise.all([1, 2].map(() => command({ fix: true, name: 'extra', json: true })));
      expect(runs.map((r) => r.code)).toEqual([0, 0]);
      for (const [type, id] of [
        ['user', user.id],
        ['organization', organization.id],
      ] as const) {
        const orphan = orphans.find((d) => d.owner.type === type)!;
        const adopted = (await rowsOf(type, id)).filter((row) => providerIdOf(row) === orphan.providerId);
        expect(adopted).toHaveLength(1);
        expect(adopted[0]).toMatchObject({ name: 'extra', billable_type: type, billable_id: id });
      }
      expect((await command({})).code).toBe(0);
    });
  },
);
