import { createBraintreeSandbox, DEFAULT_RETRY, signPayload } from '@tollgate/sandbox/braintree';
import { unitScale } from '../../packages/sandbox/src/braintree/objects/money.js';
import { BraintreeWebhookController } from '../../src/billing/gateway/braintree/braintree-webhook-controller.js';
import { notificationId, sandboxDiscounts, sandboxPlans } from '../../src/billing/gateway/braintree/index.js';
import { toMinor } from '../../src/billing/money.js';
import type { EditionHarness, EditionSandbox } from './harness.js';

/**
 * The Braintree edition for the shared suite. Plan prices are chosen so that a tax added to the
 * price comes out to the cent (20.00 × 1.0825 = 21.65): Braintree stores no tax rate, and the
 * invoice derives the percentage from the taxed price over the plan price.
 */
export const braintreeHarness: EditionHarness = {
  edition: 'braintree',
  capabilities: { supportsQuantities: false, supportsPaypal: true, amountUnit: 'major' },
  plans: {
    monthly: { id: 'basic-monthly', name: 'Basic', amount: '20.00', interval: 'month' },
    other: { id: 'pro-monthly', name: 'Pro', amount: '35.00', interval: 'month' },
    yearly: { id: 'pro-yearly', name: 'Pro (yearly)', amount: '200.00', interval: 'year' },
  },
  coupon: { id: 'LAUNCH20', percentOff: 20 },
  monthlyMinor: 2000,
  otherMinor: 3500,
  yearlyMinor: 20000,
  tokens: {
    card: 'fake-valid-nonce',
    otherCard: 'fake-valid-mastercard-nonce',
    // Braintree vaults a processor-declined card (no verification by default) and declines its charges.
    declined: 'fake-processor-declined-visa-nonce',
    failsLater: 'fake-processor-declined-mastercard-nonce',
    paypal: 'fake-paypal-billing-agreement-nonce',
    // Visa 4000 0000 0000 1091: the bank asks for 3-D Secure.
    threeDSecure: 'fake-valid-three-d-secure-visa-nonce',
  },
  authenticate: async (actionUrl) => {
    const url = new URL(actionUrl);
    const returnUrl = 'http://app.test/billing/payment/back';
    const body = new URLSearchParams({
      nonce: url.searchParams.get('nonce') ?? '',
      return_url: returnUrl,
      outcome: 'complete',
    });
    const answer = await fetch(`${url.origin}${url.pathname}`, { method: 'POST', body, redirect: 'manual' });
    return new URL(answer.headers.get('location') ?? returnUrl).searchParams.get('payment_method_nonce');
  },
  cardOf: { card: { brand: 'Visa', lastFour: '1111' }, otherCard: { brand: 'MasterCard', lastFour: '4444' } },
  toEditionAmount: (minor) => minor / 100,
  webhook: {
    path: '/braintree/webhook',
    controller: BraintreeWebhookController,
    paidEvent: 'subscription_charged_successfully',
    failedTerminalEvent: 'subscription_canceled',
    syncedEvents: [
      'subscription_went_past_due',
      'subscription_went_active',
      'subscription_charged_successfully',
      'subscription_charged_unsuccessfully',
      'subscription_canceled',
      'subscription_expired',
    ],
    stateEvent: 'subscription_went_past_due',
  },
  // The first failure, then a retry every intervalDays until `attempts` failures in a row.
  retryWindowDays: (DEFAULT_RETRY.attempts - 1) * DEFAULT_RETRY.intervalDays + 1,

  // Braintree has no `unpaid`: past due until cancelled, or cancelled after the retries.
  failedPaymentOutcomes: ['cancel', 'past_due'],

  async startSandbox({
    clock,
    plans,
    coupons,
    currency,
    metered,
    failedPaymentOutcome,
  }): Promise<EditionSandbox> {
    if (failedPaymentOutcome === 'unpaid') throw new Error('Braintree has no unpaid status');
    const sandbox = createBraintreeSandbox({
      clock,
      retry: { outcome: failedPaymentOutcome ?? 'cancel' },
      plans: sandboxPlans(plans, currency),
      discounts: sandboxDiscounts(coupons, currency),
      addOns: metered
        ? [{ id: metered.id, name: metered.name, amount: (metered.unitMinor / 100).toFixed(2) }]
        : [],
      currencyIsoCode: currency.toUpperCase(),
    });
    const server = await sandbox.listen(0, '127.0.0.1');
    const { merchantId, publicKey, privateKey } = sandbox.credentials;
    let webhookUrl: string | null = null;
    const delivery = (eventId: string) => {
      const found = sandbox.deliveries.find((d) => notificationId(d.btPayload) === eventId);
      if (!found) throw new Error(`no delivery ${eventId}`);
      return found;
    };
    const form = (fields: Record<string, string>) => ({
      body: new URLSearchParams(fields).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    return {
      config: {
        edition: 'braintree',
        braintree: { environment: 'sandbox', merchantId, publicKey, privateKey, apiBase: server.url },
      },
      setWebhook: (url) => {
        webhookUrl = url;
        sandbox.setWebhook(url);
      },
      advanceDays: async (days) => {
        await sandbox.advance(days * 86_400);
        await sandbox.webhooks.settled();
      },
      settled: () => sandbox.webhooks.settled(),
      seed: sandbox.webhooks.seed,
      payments: async (customerId) =>
        [...sandbox.store.transactions.values()]
          .filter((t) => t.customerId === customerId && t.type === 'sale')
          .sort((a, b) => a.createdAt.localeCompare(b.createdAt))
          .map((t) => ({
            // The sandbox counts hundredths of the full unit (thousandths in a three-decimal currency).
            amount: toMinor(t.amount / unitScale(t.currencyIsoCode), t.currencyIsoCode),
            succeeded: t.status !== 'processor_declined' && t.status !== 'voided',
          })),
      subscription: async (id) => {
        const s = sandbox.store.subscriptions.get(id);
        return s
          ? {
              plan: s.planId,
              quantity: null,
              status: s.status,
              addOns: Object.fromEntries(s.addOns.map((a) => [a.id, a.quantity])),
            }
          : null;
      },
      // What the Control Panel's edit does; no notification is sent for it.
      resumeAtProvider: async (id) => {
        const s = sandbox.store.subscriptions.get(id);
        if (!s) throw new Error(`no subscription ${id}`);
        s.numberOfBillingCycles = null;
        s.neverExpires = true;
      },
      counts: () => ({
        customers: sandbox.store.customers.size,
        subscriptions: sandbox.store.subscriptions.size,
      }),
      deliveries: () =>
        sandbox.deliveries.map((d) => ({
          eventId: notificationId(d.btPayload),
          type: d.kind,
          status: d.status,
          subject: d.subjectId,
        })),
      signed: (eventId) => {
        const d = delivery(eventId);
        return form({ bt_signature: d.btSignature, bt_payload: d.btPayload });
      },
      redeliver: async (eventId) => {
        const d = delivery(eventId);
        const request = form({ bt_signature: d.btSignature, bt_payload: d.btPayload });
        const response = await fetch(webhookUrl ?? '', { method: 'POST', ...request });
        return { status: response.status };
      },
      forged: (eventId, signature) => {
        const d = delivery(eventId);
        return signature === 'missing'
          ? form({ bt_payload: d.btPayload })
          : form({
              bt_signature: signPayload(publicKey, 'not-the-private-key', d.btPayload),
              bt_payload: d.btPayload,
            });
      },
      close: () => server.close(),
    };
  },
};
