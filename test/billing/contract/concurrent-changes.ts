import { describe, expect, it, vi } from 'vitest';
import { BillingLock } from '../../../src/billing/billing-lock.js';
import { PaymentGatewayKey, type Subscription } from '../../../src/billing/index.js';
import type { ContractContext, TestUser } from './context.js';

type Change = (sub: Subscription) => Promise<unknown>;

/** Ten changes: a swap to each of `plans` in turn, with a cancel and a resume between two swaps. */
const tenChanges = (plans: [string, string, string, string]): Change[] =>
  plans.flatMap((plan, i): Change[] => [
    ...(i > 0 ? [(s: Subscription) => s.cancel(), (s: Subscription) => s.resume()] : []),
    (s) => s.swap(plan),
  ]);

/** Changes to one subscription at once (two tabs, a retry, two instances) bill as they would in turn. */
export function concurrentChangeCases(ctx: ContractContext): void {
  const { harness, newUser, reload, localRows, paidAmounts } = ctx;
  const { plans, tokens } = harness;

  /** The user's subscriptions live at the provider, and the one row, as the provider has it. */
  const settledState = async (user: TestUser) => {
    await ctx.sandbox.settled();
    const rows = await localRows(user);
    const live = rows.filter((r) => r.status !== 'canceled');
    const columns =
      harness.edition === 'stripe'
        ? (['stripe_id', 'stripe_plan'] as const)
        : (['braintree_id', 'braintree_plan'] as const);
    const remote = await Promise.all(live.map((r) => ctx.sandbox.subscription(r[columns[0]]!)));
    return { rows: live.map((r) => r[columns[1]]), remote: remote.map((r) => r?.plan) };
  };

  /** What the provider collected from `user`, in minor units. */
  const cost = async (user: TestUser) => (await paidAmounts(await reload(user))).reduce((a, b) => a + b, 0);

  /**
   * Two users on the monthly plan: one makes `changes` one after another, the other all at once,
   * each on its own handle, as that many requests would. `before`: the provider's subscription
   * count before the parallel changes.
   */
  const inTurnAndAtOnce = async (changes: Change[]) => {
    const inTurn = await newUser();
    const sequential = await inTurn.newSubscription('main', plans.monthly.id).create(tokens.card);
    for (const change of changes) await change(sequential).catch(() => undefined);
    const atOnce = await newUser();
    await atOnce.newSubscription('main', plans.monthly.id).create(tokens.card);
    const before = ctx.sandbox.counts().subscriptions;
    const handles = await Promise.all(changes.map(async () => (await atOnce.subscription('main'))!));
    await Promise.all(changes.map((change, i) => change(handles[i]!).catch(() => undefined)));
    return { inTurn, atOnce, before };
  };

  describe('concurrent changes to one subscription', () => {
    // Every swap to one plan: the first bills, the rest change nothing, and a cancel or resume bills
    // nothing, so whatever order the lock lets them run in, they cost what they cost in turn.
    for (const target of ['other', 'yearly'] as const) {
      it(`ten parallel swaps (to the ${target} plan), cancels and resumes cost what they cost in sequence`, async () => {
        const plan = plans[target].id;
        const { inTurn, atOnce, before } = await inTurnAndAtOnce(tenChanges([plan, plan, plan, plan]));
        expect(await cost(atOnce)).toBe(await cost(inTurn));
        expect(await cost(atOnce)).toBeGreaterThan(harness.monthlyMinor);
        // One live subscription at the provider, on the plan the row says.
        const state = await settledState(atOnce);
        expect(state.rows).toEqual([plan]);
        expect(state.remote).toEqual([plan]);
        // A swap across billing intervals may replace the provider subscription (Braintree): one at most.
        expect(ctx.sandbox.counts().subscriptions - before).toBeLessThanOrEqual(1);
      });
    }

    // The first swap to the yearly plan bills the year less the month's unused value; from then on
    // each swap carries the whole value of the period held (cash and credit alike) to the next, so
    // the customer pays the yearly price once, in whatever order the changes run.
    it('ten parallel swaps back and forth between monthly and yearly, cancels and resumes cost the yearly price, as in sequence', async () => {
      const [monthly, yearly] = [plans.monthly.id, plans.yearly.id];
      const { inTurn, atOnce } = await inTurnAndAtOnce(tenChanges([yearly, monthly, yearly, monthly]));
      expect(await cost(inTurn)).toBe(harness.yearlyMinor);
      expect(await cost(atOnce)).toBe(harness.yearlyMinor);
    });

    it('a change waits for the billing lock create() takes, then works on the row as saved: a stale handle cannot bill', async () => {
      const user = await newUser();
      const stale = await user.newSubscription('main', plans.monthly.id).create(tokens.card);
      const gateway = ctx.t.app.container.make(PaymentGatewayKey);
      const reached = new Promise<void>((resolve) => {
        const update = gateway.updateSubscription.bind(gateway);
        vi.spyOn(gateway, 'updateSubscription').mockImplementation((...args) => {
          resolve();
          return update(...args);
        });
      });
      let acquired!: () => void;
      let release!: () => void;
      const held = new Promise<void>((resolve) => {
        acquired = resolve;
      });
      const gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      // Another request holds the user's lock and ends the subscription meanwhile.
      const other = ctx.t.app.container.make(BillingLock).forUser(user.id, async () => {
        acquired();
        await gate;
        await (await user.subscription('main'))!.cancelNow();
      });
      try {
        await held;
        const swapping = stale.swap(plans.other.id);
        swapping.catch(() => undefined);
        // Without the lock the swap reaches the provider at once; with it, only after the release.
        await Promise.race([reached, new Promise((resolve) => setTimeout(resolve, 500))]);
        release();
        await other;
        await ctx.expectBillingError(swapping, 'subscription_cancelled');
      } finally {
        release();
        vi.restoreAllMocks();
      }
      expect(await paidAmounts(await reload(user))).toEqual([harness.monthlyMinor]);
      expect((await ctx.sandbox.subscription(stale.providerId))?.plan).toBe(plans.monthly.id);
    });
  });
}
