import { describe, expect, it } from 'vitest';
import { HELD_WEBHOOKS } from '../billing-app.js';
import type { ContractContext } from './context.js';

/** The webhook receiver: the provider giving up, duplicates, signatures, failing handlers. */
export function webhookCases(ctx: ContractContext): void {
  const { harness, newUser, reload, customerId } = ctx;
  const { plans, tokens } = ctx.harness;
  describe('webhooks', () => {
    const post = (body: string, headers: Record<string, string>) =>
      fetch(`${ctx.serverUrl}${harness.webhook.path}`, { method: 'POST', body, headers });

    it('three failed renewals → the provider gives up → webhook → not subscribed', async () => {
      const user = await newUser();
      const sub = await user.newSubscription('main', plans.monthly.id).trialDays(2).create(tokens.failsLater);
      await ctx.sandbox.advanceDays(3);
      expect(await user.subscribed('main')).toBe(true);
      const attempts = await ctx.sandbox.payments(customerId(await reload(user)));
      expect(attempts.length).toBeGreaterThanOrEqual(1);
      expect(attempts.every((p) => !p.succeeded)).toBe(true);
      for (let day = 0; day < harness.retryWindowDays; day++) await ctx.sandbox.advanceDays(1);
      const failed = await ctx.sandbox.payments(customerId(await reload(user)));
      expect(failed.length).toBeGreaterThanOrEqual(3);
      const terminal = ctx.sandbox.deliveries().filter((d) => d.type === harness.webhook.failedTerminalEvent);
      expect(terminal.some((d) => d.status === 200)).toBe(true);
      const after = (await user.subscription('main'))!;
      expect(after.cancelled()).toBe(true);
      expect(await user.subscribed('main')).toBe(false);
      expect(after.providerId).toBe(sub.providerId);
    });

    it('a duplicate delivery is acknowledged and processed once', async () => {
      const user = await newUser();
      await user.newSubscription('main', plans.monthly.id).create(tokens.card);
      await ctx.sandbox.settled();
      const delivery = ctx.sandbox
        .deliveries()
        .filter((d) => d.type === harness.webhook.paidEvent && d.status === 200)
        .at(-1)!;
      expect(ctx.webhooks.handled.filter((id) => id === delivery.eventId)).toHaveLength(1);
      expect((await ctx.sandbox.redeliver(delivery.eventId)).status).toBe(200);
      expect(ctx.webhooks.handled.filter((id) => id === delivery.eventId)).toHaveLength(1);
    });

    it('a bad or missing signature is refused with 400 and nothing is processed', async () => {
      const user = await newUser();
      // Its deliveries go nowhere, so the paid event is not recorded here.
      ctx.sandbox.setWebhook(`${ctx.serverUrl}${HELD_WEBHOOKS}`);
      try {
        await user.newSubscription('main', plans.monthly.id).create(tokens.card);
        await ctx.sandbox.settled();
      } finally {
        ctx.sandbox.setWebhook(`${ctx.serverUrl}${harness.webhook.path}`);
      }
      const eventId = ctx.sandbox
        .deliveries()
        .filter((d) => d.type === harness.webhook.paidEvent)
        .at(-1)!.eventId;
      expect(ctx.webhooks.handled).not.toContain(eventId);
      for (const kind of ['wrong', 'missing'] as const) {
        const forged = ctx.sandbox.forged(eventId, kind);
        const response = await post(forged.body, forged.headers);
        expect(response.status).toBe(400);
      }
      expect(ctx.webhooks.handled).not.toContain(eventId);
      const signed = ctx.sandbox.signed(eventId);
      expect((await post(signed.body, signed.headers)).status).toBe(200);
      expect(ctx.webhooks.handled.filter((id) => id === eventId)).toHaveLength(1);
    });

    it('a handler that throws → 500, the event is not recorded, and the provider retries it until processed', async () => {
      const user = await newUser();
      ctx.webhooks.failNext = true;
      await user.newSubscription('main', plans.monthly.id).create(tokens.card);
      await ctx.sandbox.settled();
      const paid = ctx.sandbox.deliveries().filter((d) => d.type === harness.webhook.paidEvent);
      const failed = paid.find((d) => d.status === 500)!;
      expect(failed).toBeDefined();
      const ofEvent = paid.filter((d) => d.eventId === failed.eventId);
      expect(ofEvent.indexOf(failed)).toBeLessThan(ofEvent.findLastIndex((d) => d.status === 200));
      expect(ctx.webhooks.handled.filter((id) => id === failed.eventId)).toHaveLength(1);
      expect((await ctx.sandbox.redeliver(failed.eventId)).status).toBe(200);
      expect(ctx.webhooks.handled.filter((id) => id === failed.eventId)).toHaveLength(1);
    });

    it('events without a handler are acknowledged with 200; state events that came before their row answer 503 and pass when redelivered', async () => {
      const deliveries = ctx.sandbox
        .deliveries()
        .filter((d) => d.type !== harness.webhook.paidEvent && d.status !== null);
      expect(deliveries.length).toBeGreaterThan(0);
      // 204: deliveries a test held back (swallowed).
      expect(deliveries.filter((d) => ![200, 204, 503].includes(d.status!))).toEqual([]);
      const early = deliveries.filter((d) => d.status === 503);
      expect(early.every((d) => harness.webhook.syncedEvents.includes(d.type))).toBe(true);
      for (const delivery of early) expect((await ctx.sandbox.redeliver(delivery.eventId)).status).toBe(200);
    });
  });
}
