import type braintree from 'braintree';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { collect, startSandbox } from './support.js';

const DAY = 86_400;

describe('Braintree sandbox: pending starts, expiry, manual retries and settlement', () => {
  let env: Awaited<ReturnType<typeof startSandbox>>;
  let token: string;
  let customerId: string;
  beforeEach(async () => {
    env = await startSandbox({
      plans: [
        {
          id: 'trialing',
          name: 'Trialing',
          price: '15.00',
          billingFrequency: 1,
          trialPeriod: true,
          trialDuration: 1,
          trialDurationUnit: 'month',
        },
      ],
    });
    const { customer } = await env.gateway.customer.create({ paymentMethodNonce: 'fake-valid-nonce' });
    customerId = customer.id;
    token = customer.paymentMethods?.[0]?.token ?? '';
  });
  afterEach(async () => {
    await env.server.close();
  });

  it('inherits the plan trial, which options.startImmediately skips', async () => {
    const trial = await env.gateway.subscription.create({ paymentMethodToken: token, planId: 'trialing' });
    expect([trial.subscription.trialPeriod, trial.subscription.firstBillingDate]).toEqual([
      true,
      '2026-02-10',
    ]);
    const now = await env.gateway.subscription.create({
      paymentMethodToken: token,
      planId: 'trialing',
      options: { startImmediately: true },
    });
    expect(now.subscription.trialPeriod).toBe(false);
    expect(now.subscription.transactions?.map((t) => t.amount)).toEqual(['15.00']);
  });

  it('stays Pending until a future first billing date, then goes active', async () => {
    const { subscription } = await env.gateway.subscription.create({
      paymentMethodToken: token,
      planId: 'trialing',
      trialPeriod: false,
      firstBillingDate: new Date('2026-01-20T00:00:00Z'),
    });
    expect(subscription.status).toBe('Pending');
    await env.sandbox.advance(10 * DAY);
    const s = await env.gateway.subscription.find(subscription.id);
    expect([s.status, s.billingPeriodStartDate]).toEqual(['Active', '2026-01-20']);
    expect(env.sandbox.deliveries.map((d) => d.kind)).toEqual([
      'subscription_went_active',
      'subscription_charged_successfully',
    ]);
  });

  it('expires after its number of billing cycles', async () => {
    const { subscription } = await env.gateway.subscription.create({
      paymentMethodToken: token,
      planId: 'trialing',
      trialPeriod: false,
      numberOfBillingCycles: 2,
    });
    await env.sandbox.advance(62 * DAY);
    const s = await env.gateway.subscription.find(subscription.id);
    expect(s.status).toBe('Expired');
    expect(s.transactions).toHaveLength(2);
    expect(env.sandbox.deliveries.at(-1)?.kind).toBe('subscription_expired');
  });

  it('retries a past-due charge on request (subscription.retryCharge)', async () => {
    const { subscription } = await env.gateway.subscription.create({
      paymentMethodToken: token,
      planId: 'trialing',
      trialPeriod: false,
    });
    env.sandbox.setDeclining(token);
    await env.sandbox.advance(31 * DAY);
    const early = await env.gateway.subscription.retryCharge(subscription.id);
    expect(early.success).toBe(false);
    env.sandbox.setDeclining(token, false);
    const retried = await env.gateway.subscription.retryCharge(subscription.id, '15.00', true);
    expect(retried.success).toBe(true);
    expect(retried.transaction.subscriptionId).toBe(subscription.id);
    const s = await env.gateway.subscription.find(subscription.id);
    expect([s.status, s.balance, s.failureCount]).toEqual(['Active', '0.00', 0]);
  });

  it('settles submitted sales in the next daily batch', async () => {
    const sale = await env.gateway.transaction.sale({
      amount: '9.99',
      customerId,
      options: { submitForSettlement: true },
    });
    await env.sandbox.advance(3600);
    expect((await env.gateway.transaction.find(sale.transaction.id)).status).toBe('submitted_for_settlement');
    await env.sandbox.advance(DAY);
    const settled = await env.gateway.transaction.find(sale.transaction.id);
    expect(settled.status).toBe('settled');
    const found = await collect<braintree.Transaction>(
      env.gateway.transaction.search((search) => {
        search.customerId().is(customerId);
        search.status().in(['settled']);
      }),
    );
    expect(found.map((t) => t.id)).toEqual([sale.transaction.id]);
  });

  it('makes a nonce sent with customer.update the new default payment method', async () => {
    await env.gateway.customer.update(customerId, {
      paymentMethodNonce: 'fake-paypal-billing-agreement-nonce',
    });
    const customer = await env.gateway.customer.find(customerId);
    expect(customer.paypalAccounts?.map((a) => [a.email, a.default])).toEqual([
      ['jane.doe@paypal.com', true],
    ]);
    expect(customer.creditCards?.map((c) => c.default)).toEqual([false]);
  });
});
