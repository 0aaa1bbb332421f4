import { createStripeSandbox, RETRY_DAYS, signPayload } from '@tollgate/sandbox/stripe';
import Stripe from 'stripe';
import { sandboxCoupons, sandboxPlans } from '../../src/billing/gateway/stripe/catalog.js';
import { StripeWebhookController } from '../../src/billing/index.js';
import type { EditionHarness, EditionSandbox } from './harness.js';

export const stripeHarness: EditionHarness = {
  edition: 'stripe',
  capabilities: { supportsQuantities: true, supportsPaypal: false, amountUnit: 'minor' },
  plans: {
    monthly: { id: 'basic-monthly', name: 'Basic', amount: 1000, interval: 'month' },
    other: { id: 'pro-monthly', name: 'Pro', amount: 2500, interval: 'month' },
    yearly: { id: 'pro-yearly', name: 'Pro (yearly)', amount: 25000, interval: 'year' },
  },
  coupon: { id: 'LAUNCH20', percentOff: 20 },
  monthlyMinor: 1000,
  otherMinor: 2500,
  yearlyMinor: 25000,
  tokens: {
    card: 'tok_visa',
    otherCard: 'tok_mastercard',
    declined: 'tok_chargeDeclined',
    failsLater: 'tok_chargeCustomerFail',
    threeDSecure: 'pm_card_threeDSecure2Required',
  },
  authenticate: async (actionUrl) => {
    const url = new URL(actionUrl);
    const body = new URLSearchParams({
      client_secret: url.searchParams.get('client_secret') ?? '',
      outcome: 'complete',
    });
    await fetch(`${url.origin}${url.pathname}`, { method: 'POST', body, redirect: 'manual' });
    return null;
  },
  cardOf: { card: { brand: 'Visa', lastFour: '4242' }, otherCard: { brand: 'MasterCard', lastFour: '4444' } },
  toEditionAmount: (minor) => minor,
  webhook: {
    path: '/stripe/webhook',
    controller: StripeWebhookController,
    paidEvent: 'invoice.payment_succeeded',
    failedTerminalEvent: 'customer.subscription.deleted',
    syncedEvents: [
      'customer.subscription.created',
      'customer.subscription.updated',
      'customer.subscription.deleted',
      'invoice.payment_succeeded',
      'invoice.payment_failed',
      'invoice.paid',
    ],
    stateEvent: 'customer.subscription.updated',
  },
  retryWindowDays: RETRY_DAYS.at(-1)! + 1,

  failedPaymentOutcomes: ['cancel', 'unpaid', 'past_due'],

  async startSandbox({
    clock,
    plans,
    coupons,
    currency,
    metered,
    failedPaymentOutcome,
  }): Promise<EditionSandbox> {
    const secret = 'whsec_test_tollgate';
    const meteredPlan = metered && {
      id: metered.id,
      amount: metered.unitMinor,
      currency,
      interval: 'month' as const,
      product: metered.name,
      meter: `${metered.id}_events`,
    };
    const sandbox = createStripeSandbox({
      clock,
      failedPaymentOutcome,
      plans: [...sandboxPlans(plans, currency), ...(meteredPlan ? [meteredPlan] : [])],
      coupons: sandboxCoupons(coupons, currency),
    });
    const server = await sandbox.listen(0, '127.0.0.1');
    const stripe = new Stripe('sk_test_inspect', {
      host: '127.0.0.1',
      port: server.port,
      protocol: 'http',
      maxNetworkRetries: 0,
    });
    return {
      config: {
        edition: 'stripe',
        stripe: { key: 'pk_test_x', secret: 'sk_test_tollgate', webhookSecret: secret, apiBase: server.url },
      },
      setWebhook: (url) => sandbox.setWebhook(url, secret),
      advanceDays: async (days) => {
        await sandbox.advance(days * 86_400);
        await sandbox.webhooks.settled();
      },
      settled: () => sandbox.webhooks.settled(),
      seed: sandbox.webhooks.seed,
      payments: async (customer) => {
        const list = await stripe.charges.list({ customer, limit: 100 });
        return list.data
          .sort((a, b) => a.created - b.created)
          .map((charge) => ({ amount: charge.amount, succeeded: charge.status === 'succeeded' }));
      },
      subscription: async (id) => {
        const sub = await stripe.subscriptions.retrieve(id).catch(() => null);
        if (!sub) return null;
        const item = sub.items.data[0];
        return { plan: item?.price.id ?? '', quantity: item?.quantity ?? null, status: sub.status };
      },
      resumeAtProvider: async (id) => {
        await stripe.subscriptions.update(id, { cancel_at_period_end: false });
      },
      counts: () => ({
        customers: sandbox.store.customers.size,
        subscriptions: sandbox.store.subscriptions.size,
      }),
      deliveries: () =>
        sandbox.deliveries.map((d) => ({
          eventId: d.eventId,
          type: d.type,
          status: d.status,
          subject:
            (sandbox.store.events.get(d.eventId)?.data.object as { id?: string } | undefined)?.id ?? null,
        })),
      signed: (eventId) => {
        const body = JSON.stringify(sandbox.store.events.get(eventId));
        return {
          body,
          headers: { 'content-type': 'application/json', 'stripe-signature': signPayload(body, secret) },
        };
      },
      redeliver: async (eventId) => ({ status: (await sandbox.redeliver(eventId)).status }),
      forged: (eventId, signature) => {
        const event = sandbox.store.events.get(eventId);
        const body = JSON.stringify(event);
        const headers: Record<string, string> = { 'content-type': 'application/json' };
        if (signature === 'wrong') headers['stripe-signature'] = signPayload(body, 'whsec_not_the_secret');
        return { body, headers };
      },
      close: () => server.close(),
    };
  },
};
