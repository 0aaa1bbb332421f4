import type braintree from 'braintree';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, startWebhookReceiver } from './support.js';

const DAY = 86_400;

describe('Braintree sandbox: billing cycle, retries and webhooks', () => {
  let env: Awaited<ReturnType<typeof startSandbox>>;
  let hooks: Awaited<ReturnType<typeof startWebhookReceiver>>;
  let subscription: braintree.Subscription;
  beforeEach(async () => {
    hooks = await startWebhookReceiver();
    // What is delivered, in order and within the call: realistic delivery has its own tests.
    env = await startSandbox({ webhook: { url: hooks.url }, delivery: 'ordered' });
    const { customer } = await env.gateway.customer.create({ paymentMethodNonce: 'fake-valid-nonce' });
    const token = customer.paymentMethods?.[0]?.token ?? '';
    ({ subscription } = await env.gateway.subscription.create({
      paymentMethodToken: token,
      planId: 'monthly',
    }));
  });
  afterEach(async () => {
    await env.server.close();
    await hooks.close();
  });

  async function switchToDecliningCard(): Promise<void> {
    const created = await env.gateway.paymentMethod.create({
      customerId: subscription.transactions?.[0]?.customer.id ?? '',
      paymentMethodNonce: 'fake-processor-declined-visa-nonce',
      options: { makeDefault: true },
    });
    await env.gateway.subscription.update(subscription.id, {
      paymentMethodToken: created.paymentMethod.token,
    });
  }

  async function parsedKinds(): Promise<string[]> {
    const kinds: string[] = [];
    for (const hook of hooks.received)
      kinds.push((await env.gateway.webhookNotification.parse(hook.signature, hook.payload)).kind);
    return kinds;
  }

  it('renews every period in order when the clock jumps several months', async () => {
    await env.sandbox.advance(95 * DAY);
    const s = await env.gateway.subscription.find(subscription.id);
    expect(s.transactions?.map((t) => t.subscription?.billingPeriodStartDate)).toEqual([
      '2026-04-10',
      '2026-03-10',
      '2026-02-10',
      '2026-01-10',
    ]);
    expect(s.currentBillingCycle).toBe(4);
    expect(await parsedKinds()).toEqual(Array(4).fill('subscription_charged_successfully'));
  });

  it('goes Past Due on a failed renewal, retries, and cancels after three failures', async () => {
    await switchToDecliningCard();
    await env.sandbox.advance(31 * DAY);
    let s = await env.gateway.subscription.find(subscription.id);
    expect([s.status, s.balance, s.failureCount]).toEqual(['Past Due', '10.00', 1]);
    await env.sandbox.advance(5 * DAY);
    s = await env.gateway.subscription.find(subscription.id);
    expect([s.status, s.failureCount]).toEqual(['Past Due', 2]);
    await env.sandbox.advance(5 * DAY);
    s = await env.gateway.subscription.find(subscription.id);
    expect(s.status).toBe('Canceled');
    expect(s.transactions?.map((t) => t.status)).toEqual([
      'processor_declined',
      'processor_declined',
      'processor_declined',
      'settled',
    ]);
    expect(await parsedKinds()).toEqual([
      'subscription_charged_successfully',
      'subscription_charged_unsuccessfully',
      'subscription_went_past_due',
      'subscription_charged_unsuccessfully',
      'subscription_charged_unsuccessfully',
      'subscription_canceled',
    ]);
    const last = hooks.received.at(-1);
    const notification = (await env.gateway.webhookNotification.parse(
      last?.signature ?? '',
      last?.payload ?? '',
    )) as braintree.SubscriptionNotification;
    expect(notification.subscription?.id).toBe(subscription.id);
    expect(notification.subscription?.status).toBe('Canceled');
    expect(env.sandbox.deliveries.every((d) => d.status === 200)).toBe(true);
  });

  it('returns to Active when a retry succeeds', async () => {
    await switchToDecliningCard();
    await env.sandbox.advance(31 * DAY);
    const s0 = await env.gateway.subscription.find(subscription.id);
    env.sandbox.setDeclining(s0.paymentMethodToken, false);
    await env.sandbox.advance(5 * DAY);
    const s = await env.gateway.subscription.find(subscription.id);
    expect([s.status, s.balance, s.failureCount]).toEqual(['Active', '0.00', 0]);
    expect([s.billingPeriodStartDate, s.nextBillingDate]).toEqual(['2026-02-10', '2026-03-10']);
    expect((await parsedKinds()).slice(-2)).toEqual([
      'subscription_charged_successfully',
      'subscription_went_active',
    ]);
  });

  it('refuses plan, price and discount edits on a Past Due subscription (91920, 92022), as Braintree does; the card may change', async () => {
    await switchToDecliningCard();
    await env.sandbox.advance(31 * DAY);
    const codes = async (params: Record<string, unknown>) => {
      const result = await env.gateway.subscription.update(subscription.id, params);
      return result.success ? 'ok' : result.errors.deepErrors().map((e) => e.code);
    };
    expect(await codes({ planId: 'yearly' })).toEqual(['91920']);
    expect(await codes({ price: '12.00' })).toEqual(['91920']);
    expect(await codes({ discounts: { add: [{ inheritedFromId: 'plan-credit', amount: '1.00' }] } })).toEqual(
      ['92022'],
    );
    // The same plan and price are no edit; cycles and the payment method are not price-changing.
    expect(await codes({ planId: 'monthly', price: '10.00', numberOfBillingCycles: 3 })).toBe('ok');
    const { customer } = await env.gateway.customer.create({ paymentMethodNonce: 'fake-valid-nonce' });
    expect(await codes({ paymentMethodToken: customer.paymentMethods?.[0]?.token })).toBe('ok');
    const s = await env.gateway.subscription.find(subscription.id);
    expect([s.status, s.planId, s.price, s.discounts]).toEqual(['Past Due', 'monthly', '10.00', []]);
  });

  it('delivers subscription_canceled when canceled through the API', async () => {
    await env.gateway.subscription.cancel(subscription.id);
    expect((await parsedKinds()).at(-1)).toBe('subscription_canceled');
  });
});
