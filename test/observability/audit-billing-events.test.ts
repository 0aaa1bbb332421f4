import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Users } from '../../src/auth/users.js';
import { SubscriptionRepository } from '../../src/billing/subscriptions/subscription-repository.js';
import { TestClock } from '../../src/core/clock.js';
import type { RunningServer } from '../../src/kernel/server.js';
import { AuditLog } from '../../src/observability/audit/audit-log.js';
import { observabilityProvider } from '../../src/observability/provider.js';
import { startBillingApp, stopBillingApp } from '../billing/billing-app.js';
import type { TestUser } from '../billing/contract/context.js';
import type { EditionSandbox } from '../billing/harness.js';
import { stripeHarness } from '../billing/stripe-harness.js';
import type { TestApp } from '../support/app.js';
import { ENGINES } from '../support/engines.js';
import { parseExposition, type Sample, sampleValue } from './scrape.js';

const METRICS_TOKEN = 'scrape-billing-0123456789';

describe.each(ENGINES)(
  'audited subscription and payment events, webhook-driven ones once per event (%s)',
  (engine) => {
    const clock = new TestClock(new Date('2026-01-15T12:00:00Z'));
    const { plans } = stripeHarness;
    let sandbox: EditionSandbox;
    let t: TestApp;
    let server: RunningServer;

    beforeAll(async () => {
      sandbox = await stripeHarness.startSandbox({
        clock,
        plans: [plans.monthly],
        coupons: [],
        currency: 'usd',
      });
      ({ t, server } = await startBillingApp({
        engine,
        harness: stripeHarness,
        sandbox,
        clock,
        billing: { plans: [plans.monthly] },
        controller: stripeHarness.webhook.controller,
        providers: [observabilityProvider()],
        config: { observability: { metrics: { token: METRICS_TOKEN } } },
      }));
    });
    afterAll(() => stopBillingApp({ t, server }, sandbox));

    const rows = async (userId: number, kind: string) => {
      await t.app.container.make(AuditLog).flush();
      return t.app.db
        .selectFrom('audit_events')
        .selectAll()
        .where('user_id', '=', userId)
        .where('kind', '=', kind)
        .orderBy('id')
        .execute();
    };

    it('a paid invoice is audited once under the webhook, however often the provider delivers it; a cancel once under the user', async () => {
      const user = await t.app.container.make(Users).create<TestUser>({
        name: 'Payer',
        email: 'payer@example.com',
        password: 'correct horse battery',
      });
      const sub = await user.newSubscription('main', plans.monthly.id).create(stripeHarness.tokens.card);
      await sandbox.settled();
      const changed = await rows(user.id, 'subscription.changed');
      expect(changed.length).toBeGreaterThanOrEqual(1);
      expect(changed[0]).toMatchObject({
        subject: `subscription:${sub.id}`,
        details: JSON.stringify({ plan: plans.monthly.id }),
      });

      const paid = await rows(user.id, 'payment.succeeded');
      expect(paid).toHaveLength(1);
      expect(paid[0]).toMatchObject({ actor: 'webhook', ip: '127.0.0.1' });
      expect(paid[0]!.request_id).not.toBeNull();

      // The provider delivers the same event again, twice at once: handled once already, audited once.
      const delivery = sandbox.deliveries().find((d) => d.type === 'invoice.payment_succeeded')!;
      const before = (await rows(user.id, 'subscription.changed')).length;
      const again = await Promise.all(
        [1, 2].map(() => {
          const { body, headers } = sandbox.signed(delivery.eventId);
          return fetch(`${server.url}${stripeHarness.webhook.path}`, { method: 'POST', body, headers });
        }),
      );
      expect(again.map((r) => r.status)).toEqual([200, 200]);
      expect(await rows(user.id, 'payment.succeeded')).toHaveLength(1);
      expect(await rows(user.id, 'subscription.changed')).toHaveLength(before);

      await (await user.subscription('main'))!.cancel();
      const cancelled = await rows(user.id, 'subscription.cancelled');
      expect(cancelled).toHaveLength(1);
      expect(JSON.parse(cancelled[0]!.details!)).toMatchObject({ plan: plans.monthly.id, by: 'user' });
      expect(cancelled[0]!.actor).toBe('system');
    });

    it('a write that leaves the subscription as it was (a repeated sync) is not audited; one that changes it, once', async () => {
      const user = await t.app.container.make(Users).create<TestUser>({
        name: 'Same',
        email: 'same@example.com',
        password: 'correct horse battery',
      });
      const sub = await user.newSubscription('main', plans.monthly.id).create(stripeHarness.tokens.card);
      await sandbox.settled();
      const repository = t.app.container.make(SubscriptionRepository);
      const before = (await rows(user.id, 'subscription.changed')).length;
      // The same state twice at once, as two deliveries of one state would write it.
      await Promise.all([1, 2].map(() => repository.update(sub.id, { plan: plans.monthly.id, quantity: 1 })));
      expect(await rows(user.id, 'subscription.changed')).toHaveLength(before);
      await repository.update(sub.id, { quantity: 2 });
      expect(await rows(user.id, 'subscription.changed')).toHaveLength(before + 1);
    });

    const scrape = async (): Promise<Sample[]> => {
      const res = await fetch(`${server.url}/metrics`, {
        headers: { authorization: `Bearer ${METRICS_TOKEN}` },
      });
      expect(res.status).toBe(200);
      return parseExposition(await res.text());
    };

    it('tollgate_payments_total moves by exactly the payment webhooks handled, not by redeliveries; every webhook request is counted by type and outcome, with its lag', async () => {
      const before = await scrape();
      const from = sandbox.deliveries().length;
      const users = t.app.container.make(Users);
      const paying = await users.create<TestUser>({
        name: 'A',
        email: 'a@example.com',
        password: 'correct horse battery',
      });
      await paying.newSubscription('main', plans.monthly.id).create(stripeHarness.tokens.card);
      const failing = await users.create<TestUser>({
        name: 'B',
        email: 'b@example.com',
        password: 'correct horse battery',
      });
      await failing
        .newSubscription('main', plans.monthly.id)
        .trialDays(2)
        .create(stripeHarness.tokens.failsLater);
      await sandbox.settled();
      await sandbox.advanceDays(3);
      await sandbox.settled();
      const delivered = sandbox.deliveries().slice(from);
      // Distinct events: the sandbox, like Stripe, may deliver one event twice (seen under load).
      const count = (type: string) =>
        new Set(delivered.filter((d) => d.type === type && d.status === 200).map((d) => d.eventId)).size;
      const paid = delivered.find((d) => d.type === 'invoice.payment_succeeded')!;
      const { body, headers } = sandbox.signed(paid.eventId);
      expect(
        (await fetch(`${server.url}${stripeHarness.webhook.path}`, { method: 'POST', body, headers })).status,
      ).toBe(200);
      const unsigned = await fetch(`${server.url}${stripeHarness.webhook.path}`, { method: 'POST', body });
      expect(unsigned.status).toBe(400);

      const after = await scrape();
      const movedBy = (name: string, labels: Record<string, string> = {}) =>
        sampleValue(after, name, labels) - sampleValue(before, name, labels);
      const EVENTS = 'tollgate_billing_webhook_events_total';
      const sum = (samples: Sample[]) =>
        samples.filter((s) => s.name === EVENTS).reduce((total, s) => total + s.value, 0);
      // Every request the sandbox made that reached the service, the redelivery and the unsigned one.
      const received = delivered.filter((d) => d.status !== null);
      expect(sum(after) - sum(before)).toBe(received.length + 2);
      // Answered 200 (a delivery before its subscription was stored is a 503, retried: outcome `retry`).
      const ofType = (type: string) => received.filter((d) => d.type === type && d.status === 200).length;
      expect(movedBy(EVENTS, { type: 'invoice.payment_succeeded', outcome: 'retry' })).toBe(
        received.filter((d) => d.type === 'invoice.payment_succeeded' && d.status === 503).length,
      );
      expect(movedBy(EVENTS, { type: 'invoice.payment_succeeded', outcome: 'handled' })).toBe(2);
      expect(movedBy(EVENTS, { type: 'invoice.payment_succeeded', outcome: 'duplicate' })).toBe(
        ofType('invoice.payment_succeeded') - 2 + 1,
      );
      expect(movedBy(EVENTS, { type: '', outcome: 'refused' })).toBe(1);
      const LAG = 'tollgate_billing_webhook_lag_seconds';
      expect(movedBy(`${LAG}_count`)).toBe(received.length + 1);
      // The redelivered payment is three days old; the sandbox delivered the others on its own clock (this one).
      expect(movedBy(`${LAG}_bucket`, { le: '86400' })).toBe(received.length);
      const moved = (outcome: string) =>
        sampleValue(after, 'tollgate_payments_total', { outcome }) -
        sampleValue(before, 'tollgate_payments_total', { outcome });
      expect(count('invoice.payment_failed')).toBeGreaterThanOrEqual(1);
      // Two invoices paid: the first month's, and the trial's $0 one, which is no payment.
      expect(count('invoice.payment_succeeded')).toBe(2);
      expect(moved('succeeded')).toBe(1);
      expect(moved('failed')).toBe(count('invoice.payment_failed'));
      expect(moved('requires_action')).toBe(0);
      expect((await rows(failing.id, 'payment.failed')).length).toBe(count('invoice.payment_failed'));
    });
  },
);
