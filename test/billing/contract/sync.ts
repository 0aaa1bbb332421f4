import { describe, expect, it } from 'vitest';
import { Customers } from '../../../src/billing/customers/customers.js';
import { PaymentGatewayKey, type Subscription } from '../../../src/billing/index.js';
import { Subscriptions } from '../../../src/billing/subscriptions/subscriptions.js';
import { HELD_WEBHOOKS } from '../billing-app.js';
import { pausedAfterAnswer } from '../paused-gateway.js';
import type { ContractContext } from './context.js';

/**
 * Provider state synced back by the default receiver: status from webhooks, out-of-order and
 * duplicate deliveries, an event before its row exists, two deliveries of one event at once.
 */
export function syncCases(ctx: ContractContext): void {
  const { harness, newUser, localRows } = ctx;
  const { plans, tokens } = ctx.harness;
  const endpoint = () => `${ctx.serverUrl}${harness.webhook.path}`;
  const post = (request: { body: string; headers: Record<string, string> }) =>
    fetch(endpoint(), { method: 'POST', ...request });

  /** Runs `work` with deliveries going to a route that swallows them (held), and returns them. */
  async function held(subject: string, work: () => Promise<void>) {
    // What came before is delivered first; only what `work` causes is held.
    await ctx.sandbox.settled();
    const from = ctx.sandbox.deliveries().length;
    ctx.sandbox.setWebhook(`${ctx.serverUrl}${HELD_WEBHOOKS}`);
    try {
      await work();
      await ctx.sandbox.settled();
    } finally {
      ctx.sandbox.setWebhook(endpoint());
    }
    return ctx.sandbox
      .deliveries()
      .slice(from)
      .filter((d) => d.subject === subject);
  }

  /** A subscription whose renewal fails after a two-day trial. */
  async function failing() {
    const user = await newUser();
    const sub = await user.newSubscription('main', plans.monthly.id).trialDays(2).create(tokens.failsLater);
    return { user, sub };
  }

  describe('provider state synced by webhooks', () => {
    it('a failed renewal → webhook → status past_due, still subscribed (keepPastDueSubscribed)', async () => {
      const { user } = await failing();
      await ctx.sandbox.advanceDays(3);
      const sub = (await user.subscription('main'))!;
      expect(sub.status).toBe('past_due');
      expect(sub.valid()).toBe(true);
      expect(await user.subscribed('main')).toBe(true);
    });

    it('out of order: the ended event first, then the older past-due one, which is not applied; duplicates are 200 no-ops', async () => {
      const { user, sub } = await failing();
      const deliveries = await held(sub.providerId, async () => {
        await ctx.sandbox.advanceDays(3);
        for (let day = 0; day < harness.retryWindowDays; day++) await ctx.sandbox.advanceDays(1);
      });
      const pastDue = deliveries.filter((d) => d.type === harness.webhook.stateEvent).at(-1)!;
      const ended = deliveries.find((d) => d.type === harness.webhook.failedTerminalEvent)!;
      expect(pastDue && ended).toBeTruthy();
      expect((await localRows(user))[0]!.status).toBe('trialing');

      expect((await ctx.sandbox.redeliver(ended.eventId)).status).toBe(200);
      const after = (await user.subscription('main'))!;
      expect(after.status).toBe('canceled');
      expect(after.ended()).toBe(true);

      expect((await ctx.sandbox.redeliver(pastDue.eventId)).status).toBe(200);
      expect((await ctx.sandbox.redeliver(pastDue.eventId)).status).toBe(200);
      expect((await ctx.sandbox.redeliver(ended.eventId)).status).toBe(200);
      const rows = await localRows(user);
      expect(rows[0]!.status).toBe('canceled');
      expect(await user.subscribed('main')).toBe(false);
    });

    it('an event for a subscription with no row here yet → 503, not recorded; redelivered once the row exists → applied', async () => {
      const { user, sub } = await failing();
      const column = ctx.t.app.container.make(PaymentGatewayKey).capabilities.columns.subscriptionId;
      const deliveries = await held(sub.providerId, () => ctx.sandbox.advanceDays(3));
      const pastDue = deliveries.filter((d) => d.type === harness.webhook.stateEvent).at(-1)!;
      // As if the call that made this subscription had not stored its row yet.
      await ctx.t.app.db
        .updateTable('subscriptions')
        .set({ [column]: 'elsewhere' })
        .where('id', '=', sub.id)
        .execute();
      expect((await ctx.sandbox.redeliver(pastDue.eventId)).status).toBe(503);
      expect(await recorded(pastDue.eventId)).toBe(0);

      await ctx.t.app.db
        .updateTable('subscriptions')
        .set({ [column]: sub.providerId })
        .where('id', '=', sub.id)
        .execute();
      expect((await ctx.sandbox.redeliver(pastDue.eventId)).status).toBe(200);
      expect(await recorded(pastDue.eventId)).toBe(1);
      expect((await user.subscription('main'))!.status).toBe('past_due');
    });

    it('cancelled here, resumed at the provider: the renewal it charges after the grace period clears ends_at', async () => {
      const user = await newUser();
      const sub = await user.newSubscription('main', plans.monthly.id).create(tokens.card);
      await sub.cancel();
      expect((await user.subscription('main'))!.onGracePeriod()).toBe(true);
      // Resumed at the provider's dashboard; whatever it said then never reached the app.
      await held(sub.providerId, () => ctx.sandbox.resumeAtProvider(sub.providerId));
      // The provider renews after the period end and charges the customer: access follows.
      await ctx.sandbox.advanceDays(32);
      expect(await ctx.paidAmounts(await ctx.reload(user))).toHaveLength(2);
      const after = (await user.subscription('main'))!;
      expect(after.ends_at).toBeNull();
      expect(after.cancelled()).toBe(false);
      expect(await user.subscribed('main')).toBe(true);
      expect(await ctx.sandbox.subscription(sub.providerId)).toMatchObject({ plan: plans.monthly.id });
    });

    it('cancelled here and not resumed: ended at the period end, nothing charged after it', async () => {
      const user = await newUser();
      const sub = await user.newSubscription('main', plans.monthly.id).create(tokens.card);
      await sub.cancel();
      await ctx.sandbox.advanceDays(32);
      expect(await ctx.paidAmounts(await ctx.reload(user))).toHaveLength(1);
      const after = (await user.subscription('main'))!;
      expect(after.ended()).toBe(true);
      expect(await user.subscribed('main')).toBe(false);
    });

    it('two deliveries of one event at once: one applies it, the other is a duplicate', async () => {
      const { user, sub } = await failing();
      const deliveries = await held(sub.providerId, () => ctx.sandbox.advanceDays(3));
      const pastDue = deliveries.filter((d) => d.type === harness.webhook.stateEvent).at(-1)!;
      const request = ctx.sandbox.signed(pastDue.eventId);
      const responses = await Promise.all([post(request), post(request)]);
      expect(responses.map((r) => r.status)).toEqual([200, 200]);
      const bodies = (await Promise.all(responses.map((r) => r.json()))) as Array<Record<string, unknown>>;
      expect(bodies.filter((b) => b.handled === true)).toHaveLength(1);
      expect(bodies.filter((b) => b.duplicate === true)).toHaveLength(1);
      expect(await recorded(pastDue.eventId)).toBe(1);
      expect((await user.subscription('main'))!.status).toBe('past_due');
    });

    // A card webhook fetches the customer, then stores its card. A card change made in between
    // (a second tab, the next update) must not be overwritten by the older card it fetched.
    it('a card refresh that fetched the customer before a card change does not store the older card', async () => {
      const user = await newUser();
      await user.newSubscription('main', plans.monthly.id).create(tokens.card);
      const paused = pausedAfterAnswer(ctx.t.app.container, 'findCustomer');
      const refresh = paused.construct(Customers).refreshCard(await ctx.reload(user));
      await paused.answered;
      // From here, not from inside the refresh: a call made under its lock would share it.
      const change = user.updateCard(tokens.otherCard).finally(paused.resume);
      await Promise.all([refresh, change]);
      const other = [harness.cardOf.otherCard.brand, harness.cardOf.otherCard.lastFour];
      const stored = await ctx.reload(user);
      expect([stored.card_brand, stored.card_last_four]).toEqual(other);
      await ctx.sandbox.settled();
      const settled = await ctx.reload(user);
      expect([settled.card_brand, settled.card_last_four]).toEqual(other);
    });
  });

  describe('an API answer stored after a webhook', () => {
    // A change asks the provider, then stores its answer. A webhook applying a newer state in between
    // (the provider ended the subscription) must not be overwritten by the answer.
    it.each([
      [
        'a swap',
        (subscriptions: Subscriptions, sub: Subscription) => subscriptions.swap(sub.record, plans.other.id),
        'updateSubscription',
      ],
      [
        'a cancel at period end',
        (subscriptions: Subscriptions, sub: Subscription) => subscriptions.cancel(sub.record),
        'cancelSubscription',
      ],
    ] as const)(
      '%s answered before the provider ended the subscription does not store the older state',
      async (_, change, method) => {
        const user = await newUser();
        const sub = await user.newSubscription('main', plans.monthly.id).create(tokens.card);
        await ctx.sandbox.settled();
        const paused = pausedAfterAnswer(ctx.t.app.container, method);
        const changed = change(paused.construct(Subscriptions), sub);
        await paused.answered;
        const end = (async () => {
          await paused.gateway.cancelSubscription(sub.providerId, { atPeriodEnd: false });
          await ctx.sandbox.settled();
        })().finally(paused.resume);
        await Promise.all([changed, end]);
        await ctx.sandbox.settled();
        expect((await ctx.sandbox.subscription(sub.providerId))?.status).toMatch(/cancel/i);
        const [row] = await localRows(user);
        expect(row).toMatchObject({ status: 'canceled' });
        expect(row!.ends_at).not.toBeNull();
        expect(await (await ctx.reload(user)).subscribed('main')).toBe(false);
      },
    );
  });

  async function recorded(eventId: string): Promise<number> {
    const rows = await ctx.t.app.db
      .selectFrom('billing_webhook_events')
      .select('id')
      .where('event_id', '=', eventId)
      .execute();
    return rows.length;
  }
}
