import { describe, expect, it, vi } from 'vitest';
import { PaymentGatewayKey, reconcileOnce } from '../../../src/billing/index.js';
import type { ReconcileReport } from '../../../src/billing/reconcile/drift.js';
import { Reconciler } from '../../../src/billing/reconcile/reconciler.js';
import { SubscriptionRepository } from '../../../src/billing/subscriptions/subscription-repository.js';
import { reconcile } from '../../../src/cli/commands/billing-reconcile.js';
import { pausedAfterAnswer } from '../paused-gateway.js';
import type { ContractContext, TestUser } from './context.js';

/** Issue 13, items 3 and 7: `tollgate billing:reconcile` finds and repairs drift from the provider. */
export function reconcileCases(ctx: ContractContext): void {
  const { harness, newUser, reload, localRows } = ctx;
  const { plans, tokens } = harness;

  /** Runs the command's code on the app; answers its exit code, its lines and (with --json) the report. */
  const run = async (options: { user?: string; fix?: boolean; json?: boolean; name?: string }) => {
    const lines: string[] = [];
    const code = await reconcile(ctx.t.app, options, (line) => lines.push(line));
    const report = options.json ? (JSON.parse(lines[0]!) as ReconcileReport & { clean: boolean }) : null;
    return { code, lines, report };
  };
  const repository = () => ctx.t.app.container.make(SubscriptionRepository);
  const columns = () => ctx.t.app.container.make(PaymentGatewayKey).capabilities.columns;

  /** `create()` whose provider call succeeds and whose local insert fails once. */
  const createWithFailedWrite = async (user: TestUser) => {
    const insert = vi.spyOn(repository(), 'insert').mockRejectedValueOnce(new Error('disk I/O error'));
    try {
      await expect(user.newSubscription('main', plans.monthly.id).create(tokens.card)).rejects.toThrow(
        'disk I/O error',
      );
    } finally {
      insert.mockRestore();
    }
    expect(await localRows(user)).toHaveLength(0);
  };

  describe('billing:reconcile', () => {
    it('a provider success whose local write failed is reported, adopted by --fix, then clean', async () => {
      const user = await newUser();
      await createWithFailedWrite(user);
      const found = await run({ user: user.email, json: true });
      expect(found.code).toBe(1);
      expect(found.report!.clean).toBe(false);
      expect(found.report!.drift).toHaveLength(1);
      const [orphan] = found.report!.drift;
      expect(orphan).toMatchObject({
        kind: 'orphaned',
        owner: { type: 'user', id: user.id },
        subscriptionId: null,
        fixed: false,
      });
      expect((await ctx.sandbox.subscription(orphan!.providerId!))?.plan).toBe(plans.monthly.id);
      expect(await (await reload(user)).subscribed('main')).toBe(false);

      const text = await run({ user: String(user.id) });
      expect(text.code).toBe(1);
      expect(text.lines.join('\n')).toContain(`orphaned  ${user.email} (user ${user.id}), no row`);

      const fixed = await run({ user: user.email, fix: true, name: 'main' });
      expect(fixed.code).toBe(0);
      expect(fixed.lines.join('\n')).toContain('fixed');
      const rows = await localRows(user);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        name: 'main',
        [columns().subscriptionId]: orphan!.providerId,
        [columns().subscriptionPlan]: plans.monthly.id,
        status: 'active',
        ends_at: null,
      });
      expect(await (await reload(user)).subscribed('main')).toBe(true);
      // The retry the customer would have made now finds the subscription: no second charge.
      await ctx.expectBillingError(
        (await reload(user)).newSubscription('main', plans.monthly.id).create(tokens.card),
        'subscription_exists',
      );
      expect(await ctx.paidAmounts(await reload(user))).toEqual([harness.monthlyMinor]);

      const again = await run({ user: user.email });
      expect(again.code).toBe(0);
      expect(again.lines).toContain('No drift: every row matches the provider.');
    });

    it('two --fix runs at once adopt the orphan once', async () => {
      const user = await newUser();
      await createWithFailedWrite(user);
      const runs = await Promise.all([1, 2, 3].map(() => run({ user: user.email, fix: true, name: 'main' })));
      expect(runs.map((r) => r.code)).toEqual([0, 0, 0]);
      expect(await localRows(user)).toHaveLength(1);
      expect((await run({ user: user.email })).code).toBe(0);
    });

    it('mismatched fields, a row without a provider object and a missing customer: reported, repaired', async () => {
      const user = await newUser();
      const sub = await user.newSubscription('main', plans.monthly.id).create(tokens.card);
      // The drift is made after the creation's webhooks, which would repair it.
      await ctx.sandbox.settled();
      const db = ctx.t.app.db;
      await db
        .updateTable('subscriptions')
        .set({ [columns().subscriptionPlan]: plans.other.id, status: 'past_due' })
        .where('id', '=', sub.id)
        .execute();
      const ghost = await repository().insert({
        billableType: 'user',
        billableId: user.id,
        name: 'extra',
        providerId: 'gone_123',
        plan: plans.monthly.id,
        quantity: harness.capabilities.supportsQuantities ? 1 : null,
        trialEndsAt: null,
        status: 'active',
      });
      const stranger = await newUser();
      await db
        .updateTable('users')
        .set({ [columns().customerId]: 'cus_nowhere' })
        .where('id', '=', stranger.id)
        .execute();

      const found = (await run({ json: true })).report!;
      const mine = found.drift.filter(
        (d) => [user.id, stranger.id].includes(d.owner.id) && d.owner.type === 'user',
      );
      expect(mine.map((d) => d.kind).sort()).toEqual(['mismatch', 'missing_at_provider', 'missing_customer']);
      expect(mine.find((d) => d.kind === 'mismatch')?.fields).toEqual({
        status: { local: 'past_due', provider: 'active' },
        plan: { local: plans.other.id, provider: plans.monthly.id },
      });
      expect(mine.find((d) => d.kind === 'missing_at_provider')).toMatchObject({
        subscriptionId: ghost.id,
        providerId: 'gone_123',
      });

      for (const who of [user, stranger]) expect((await run({ user: who.email, fix: true })).code).toBe(0);
      const row = (await localRows(user)).find((r) => r.id === sub.id)!;
      expect(row).toMatchObject({
        status: 'active',
        [columns().subscriptionPlan]: plans.monthly.id,
        ends_at: null,
      });
      expect((await localRows(user)).find((r) => r.id === ghost.id)).toMatchObject({ status: 'canceled' });
      expect((await reload(stranger))[columns().customerId]).toBeNull();
      for (const who of [user, stranger]) expect((await run({ user: who.email })).code).toBe(0);
    });

    it('a monthly → yearly swap whose local write fails, webhooks lost: reported, and --fix moves the row onto the provider subscription and plan', async () => {
      const user = await newUser();
      const sub = await user.newSubscription('main', plans.monthly.id).create(tokens.card);
      await ctx.sandbox.settled();
      // The webhooks of the swap are lost (an endpoint that was down); their retries come later.
      ctx.sandbox.setWebhook('http://127.0.0.1:9/unreachable');
      const update = vi.spyOn(repository(), 'update').mockRejectedValueOnce(new Error('disk I/O error'));
      try {
        await expect(sub.swap(plans.yearly.id)).rejects.toThrow('disk I/O error');
      } finally {
        update.mockRestore();
        ctx.sandbox.setWebhook(`${ctx.serverUrl}${harness.webhook.path}`);
      }
      const found = (await run({ user: user.email, json: true })).report!;
      expect(found.drift).toHaveLength(1);
      expect(['replaced', 'mismatch']).toContain(found.drift[0]!.kind);
      expect((await run({ user: user.email, fix: true })).code).toBe(0);
      const [row] = await localRows(user);
      expect(row).toMatchObject({
        [columns().subscriptionPlan]: plans.yearly.id,
        status: 'active',
        ends_at: null,
      });
      expect((await ctx.sandbox.subscription(row![columns().subscriptionId]!))?.plan).toBe(plans.yearly.id);
      expect(await (await reload(user)).subscribedToPlan(plans.yearly.id, 'main')).toBe(true);
      expect((await run({ user: user.email })).code).toBe(0);
    });

    it('a monthly → yearly swap whose local write fails, webhooks delivered: the customer stays subscribed, a retried swap bills nothing more', async () => {
      const user = await newUser();
      const sub = await user.newSubscription('main', plans.monthly.id).create(tokens.card);
      const update = vi.spyOn(repository(), 'update').mockRejectedValueOnce(new Error('disk I/O error'));
      try {
        await expect(sub.swap(plans.yearly.id)).rejects.toThrow('disk I/O error');
      } finally {
        update.mockRestore();
      }
      // The provider's webhooks (Braintree: the old subscription's cancellation) move the row, never end it.
      await vi.waitFor(async () => {
        const [row] = await localRows(user);
        expect(row).toMatchObject({ [columns().subscriptionPlan]: plans.yearly.id, ends_at: null });
      });
      const [row] = await localRows(user);
      expect((await ctx.sandbox.subscription(row![columns().subscriptionId]!))?.status).not.toMatch(
        /cancel/i,
      );
      expect(await (await reload(user)).subscribed('main')).toBe(true);
      const paid = await ctx.paidAmounts(await reload(user));
      const retried = (await (await reload(user)).subscription('main'))!;
      await retried.swap(plans.yearly.id);
      expect(retried.plan).toBe(plans.yearly.id);
      expect(await ctx.paidAmounts(await reload(user))).toEqual(paid);
      expect(await localRows(user)).toHaveLength(1);
      expect((await run({ user: user.email })).code).toBe(0);
    });

    it('a monthly → yearly swap whose local write fails, webhooks lost: the retried swap goes on from the provider, bills nothing more', async () => {
      const user = await newUser();
      const sub = await user.newSubscription('main', plans.monthly.id).create(tokens.card);
      await ctx.sandbox.settled();
      ctx.sandbox.setWebhook('http://127.0.0.1:9/unreachable');
      try {
        const update = vi.spyOn(repository(), 'update').mockRejectedValueOnce(new Error('disk I/O error'));
        try {
          await expect(sub.swap(plans.yearly.id)).rejects.toThrow('disk I/O error');
        } finally {
          update.mockRestore();
        }
        const paid = await ctx.paidAmounts(await reload(user));
        const retried = (await (await reload(user)).subscription('main'))!;
        expect(retried.plan).toBe(plans.monthly.id);
        await retried.swap(plans.yearly.id);
        expect(retried.plan).toBe(plans.yearly.id);
        expect(await ctx.paidAmounts(await reload(user))).toEqual(paid);
        const remote = await ctx.sandbox.subscription(retried.providerId);
        expect(remote).toMatchObject({ plan: plans.yearly.id });
        expect(remote?.status).not.toMatch(/cancel/i);
      } finally {
        ctx.sandbox.setWebhook(`${ctx.serverUrl}${harness.webhook.path}`);
      }
      expect((await run({ user: user.email })).code).toBe(0);
    });

    it("two live provider subscriptions for one name (the ended row's still billing): reported, --fix cancels the one whose row ended", async () => {
      const user = await newUser();
      const first = await user.newSubscription('main', plans.monthly.id).create(tokens.card);
      await ctx.sandbox.settled();
      // What a lost race left: the row ended here while its provider subscription went on, and a
      // second subscription of the same name was made and is live.
      await ctx.t.app.db
        .updateTable('subscriptions')
        .set({ status: 'canceled', ends_at: ctx.clock.now().toISOString() })
        .where('id', '=', first.id)
        .execute();
      const second = await (await reload(user))
        .newSubscription('main', plans.monthly.id)
        .create(tokens.otherCard);
      await ctx.sandbox.settled();
      expect((await ctx.sandbox.subscription(first.providerId))?.status).not.toMatch(/cancel/i);

      const found = await run({ user: user.email, json: true });
      expect(found.code).toBe(1);
      expect(found.report!.drift).toEqual([
        expect.objectContaining({
          kind: 'duplicate',
          subscriptionId: first.id,
          providerId: first.providerId,
          fixed: false,
        }),
      ]);
      const fixed = await run({ user: user.email, fix: true });
      expect(fixed.code).toBe(0);
      expect(fixed.lines.join('\n')).toContain('billed twice');
      expect((await ctx.sandbox.subscription(first.providerId))?.status).toMatch(/cancel/i);
      expect((await ctx.sandbox.subscription(second.providerId))?.status).not.toMatch(/cancel/i);
      const rows = await localRows(user);
      expect(rows.find((r) => r.id === first.id)).toMatchObject({ status: 'canceled' });
      expect(rows.find((r) => r.id === second.id)).toMatchObject({ ends_at: null });
      expect(await (await reload(user)).subscribed('main')).toBe(true);
      expect((await run({ user: user.email })).code).toBe(0);
    });

    // A repair fetches the provider's state, then writes it. A webhook that applies a newer state in
    // between (the provider ended the subscription) must not be overwritten by the older one fetched.
    it('a --fix that fetched the subscription before the provider ended it does not store the older state', async () => {
      const user = await newUser();
      const sub = await user.newSubscription('main', plans.monthly.id).create(tokens.card);
      await ctx.sandbox.settled();
      await ctx.t.app.db
        .updateTable('subscriptions')
        .set({ status: 'past_due' })
        .where('id', '=', sub.id)
        .execute();
      const paused = pausedAfterAnswer(ctx.t.app.container, 'findSubscription');
      const repair = paused
        .construct(Reconciler)
        .run({ owner: { type: 'user', id: user.id }, fix: true, adoptAs: 'main' });
      await paused.answered;
      const end = (async () => {
        await paused.gateway.cancelSubscription(sub.providerId, { atPeriodEnd: false });
        await ctx.sandbox.settled();
      })().finally(paused.resume);
      const [report] = await Promise.all([repair, end]);
      expect(report.drift).toEqual([expect.objectContaining({ kind: 'mismatch', fixed: true })]);
      await ctx.sandbox.settled();
      expect((await ctx.sandbox.subscription(sub.providerId))?.status).toMatch(/cancel/i);
      const [row] = await localRows(user);
      expect(row).toMatchObject({ status: 'canceled' });
      expect(row!.ends_at).not.toBeNull();
      expect(await (await reload(user)).subscribed('main')).toBe(false);
    });

    it('the scheduled run: of two instances at once one runs it, once per interval, and it repairs the drift', async () => {
      const user = await newUser();
      await createWithFailedWrite(user);
      const scheduled = { everyMs: 3_600_000, adoptAs: 'main' };
      const db = ctx.t.app.db;
      try {
        const runs = await Promise.all([
          reconcileOnce(ctx.t.app, scheduled),
          reconcileOnce(ctx.t.app, scheduled),
        ]);
        expect(runs.filter((r) => r === null)).toHaveLength(1);
        const report = runs.find((r) => r !== null)!;
        expect(report.drift.find((d) => d.owner.type === 'user' && d.owner.id === user.id)).toMatchObject({
          kind: 'orphaned',
          fixed: true,
        });
        expect(await localRows(user)).toHaveLength(1);
        expect(await (await reload(user)).subscribed('main')).toBe(true);
        // Within the interval no instance runs it again.
        expect(await reconcileOnce(ctx.t.app, scheduled)).toBeNull();
      } finally {
        await db.deleteFrom('job_runs').execute();
      }
    });
  });
}
