import type braintree from 'braintree';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { collect, startSandbox } from './support.js';

const DAY = 86_400;

describe('Braintree sandbox: subscriptions (via the official SDK)', () => {
  let env: Awaited<ReturnType<typeof startSandbox>>;
  let token: string;
  beforeEach(async () => {
    env = await startSandbox({
      plans: [
        { id: 'monthly', name: 'Monthly', price: '10.00', billingFrequency: 1 },
        { id: 'monthly-plus', name: 'Monthly plus', price: '20.00', billingFrequency: 1 },
        { id: 'yearly', name: 'Yearly', price: '100.00', billingFrequency: 12 },
      ],
      discounts: [{ id: 'launch', name: 'Launch', amount: '2.00' }],
    });
    const { customer } = await env.gateway.customer.create({ paymentMethodNonce: 'fake-valid-nonce' });
    token = customer.paymentMethods?.[0]?.token ?? '';
  });
  afterEach(async () => {
    await env.server.close();
  });

  it('lists the seeded plans and discounts, including plan-credit', async () => {
    const plans = await env.gateway.plan.all();
    expect(plans.map((p) => [p.id, p.price, p.billingFrequency])).toEqual([
      ['monthly', '10.00', 1],
      ['monthly-plus', '20.00', 1],
      ['yearly', '100.00', 12],
    ]);
    const discounts = await env.gateway.discount.all();
    expect(discounts.map((d) => d.id)).toEqual(['launch', 'plan-credit']);
  });

  it('charges at once without a trial and sets the billing period', async () => {
    const result = await env.gateway.subscription.create({ paymentMethodToken: token, planId: 'monthly' });
    expect(result.success).toBe(true);
    const s = result.subscription;
    expect(s.status).toBe('Active');
    expect(s.transactions?.map((t) => [t.amount, t.status])).toEqual([['10.00', 'submitted_for_settlement']]);
    expect([s.billingPeriodStartDate, s.billingPeriodEndDate, s.nextBillingDate]).toEqual([
      '2026-01-10',
      '2026-02-09',
      '2026-02-10',
    ]);
    expect(s.paidThroughDate).toBe('2026-02-09');
  });

  it('bills nothing during a trial and charges when the trial ends', async () => {
    const result = await env.gateway.subscription.create({
      paymentMethodToken: token,
      planId: 'monthly',
      trialPeriod: true,
      trialDuration: 14,
      trialDurationUnit: 'day',
    });
    expect(result.subscription.trialPeriod).toBe(true);
    expect(result.subscription.firstBillingDate).toBe('2026-01-24');
    expect(result.subscription.transactions).toEqual([]);
    await env.sandbox.advance(14 * DAY);
    const s = await env.gateway.subscription.find(result.subscription.id);
    expect(s.transactions?.map((t) => t.amount)).toEqual(['10.00']);
    expect(s.billingPeriodStartDate).toBe('2026-01-24');
    expect(s.nextBillingDate).toBe('2026-02-24');
    expect(env.sandbox.deliveries.map((d) => d.kind)).toEqual([
      'subscription_trial_ended',
      'subscription_charged_successfully',
    ]);
  });

  // Cashier sends the credit as a float, not the string the type declarations ask for.
  it('records the plan-credit discount amount exactly as sent and applies it', async () => {
    const result = await env.gateway.subscription.create({
      paymentMethodToken: token,
      planId: 'monthly',
      price: '10.00',
      discounts: {
        add: [
          { inheritedFromId: 'plan-credit', amount: 7.25 as unknown as string, numberOfBillingCycles: 1 },
        ],
      },
    });
    expect(result.success).toBe(true);
    const sent = env.sandbox.requests.find((r) => r.operation === 'subscription.create');
    const params = sent?.params.subscription as { discounts: { add: { amount: unknown }[] } };
    expect(params.discounts.add[0]?.amount).toBe(7.25);
    expect(result.subscription.discounts?.map((d) => [d.id, d.amount])).toEqual([['plan-credit', '7.25']]);
    expect(result.subscription.transactions?.[0]?.amount).toBe('2.75');
    await env.sandbox.advance(31 * DAY);
    const s = await env.gateway.subscription.find(result.subscription.id);
    expect(s.transactions?.map((t) => t.amount)).toEqual(['10.00', '2.75']);
    // A recurring transaction lists the discounts it applied; the spent credit is gone from the renewal.
    expect(s.transactions?.[1]?.discounts?.map((d) => [d.id, d.amount])).toEqual([['plan-credit', '7.25']]);
    expect(s.transactions?.[0]?.discounts).toEqual([]);
  });

  it('swaps plan and price; refuses a plan with another billing frequency', async () => {
    const { subscription } = await env.gateway.subscription.create({
      paymentMethodToken: token,
      planId: 'monthly',
    });
    const swapped = await env.gateway.subscription.update(subscription.id, {
      planId: 'monthly-plus',
      price: '20.00',
      neverExpires: true,
    });
    expect(swapped.success).toBe(true);
    expect([swapped.subscription.planId, swapped.subscription.price]).toEqual(['monthly-plus', '20.00']);
    const refused = await env.gateway.subscription.update(subscription.id, {
      planId: 'yearly',
      price: '100.00',
    });
    expect(refused.success).toBe(false);
    expect(refused.errors.deepErrors().map((e) => e.code)).toEqual(['91922']);
  });

  it('prorates an upgrade when prorateCharges is set', async () => {
    const { subscription } = await env.gateway.subscription.create({
      paymentMethodToken: token,
      planId: 'monthly',
    });
    await env.sandbox.advance(15 * DAY);
    const swapped = await env.gateway.subscription.update(subscription.id, {
      planId: 'monthly-plus',
      price: '20.00',
      options: { prorateCharges: true },
    });
    // 16 of the period's 31 days remain: 10.00 × 16/31 = 5.16.
    expect(swapped.subscription.transactions?.map((t) => t.amount)).toEqual(['5.16', '10.00']);
  });

  it('adds, updates and removes discounts', async () => {
    const { subscription } = await env.gateway.subscription.create({
      paymentMethodToken: token,
      planId: 'monthly',
    });
    const added = await env.gateway.subscription.update(subscription.id, {
      discounts: { add: [{ inheritedFromId: 'launch' }] },
    });
    expect(added.subscription.discounts?.map((d) => d.amount)).toEqual(['2.00']);
    const changed = await env.gateway.subscription.update(subscription.id, {
      discounts: { update: [{ existingId: 'launch', amount: '3.00' }] },
    });
    expect(changed.subscription.discounts?.map((d) => d.amount)).toEqual(['3.00']);
    const removed = await env.gateway.subscription.update(subscription.id, {
      discounts: { remove: ['launch'] },
    });
    expect(removed.subscription.discounts).toEqual([]);
  });

  it('cancels immediately and refuses to cancel twice', async () => {
    const { subscription } = await env.gateway.subscription.create({
      paymentMethodToken: token,
      planId: 'monthly',
    });
    const canceled = await env.gateway.subscription.cancel(subscription.id);
    expect(canceled.subscription.status).toBe('Canceled');
    const again = await env.gateway.subscription.cancel(subscription.id);
    expect(again.success).toBe(false);
    expect(again.errors.deepErrors().map((e) => e.code)).toEqual(['81905']);
    await env.sandbox.advance(40 * DAY);
    const s = await env.gateway.subscription.find(subscription.id);
    expect(s.transactions).toHaveLength(1);
  });

  it('rejects an unknown plan and refuses a first charge the processor declines', async () => {
    const bad = await env.gateway.subscription.create({ paymentMethodToken: token, planId: 'nope' });
    expect(bad.errors.deepErrors().map((e) => e.code)).toEqual(['91904']);
    const { customer } = await env.gateway.customer.create({
      paymentMethodNonce: 'fake-processor-declined-visa-nonce',
    });
    const declined = await env.gateway.subscription.create({
      paymentMethodToken: customer.paymentMethods?.[0]?.token ?? '',
      planId: 'monthly',
    });
    expect(declined.success).toBe(false);
    expect((declined as unknown as { transaction: { status: string } }).transaction.status).toBe(
      'processor_declined',
    );
  });
});

describe('Braintree sandbox: subscription search', () => {
  it('finds subscriptions by plan and status with the advanced-search protocol', async () => {
    const env = await startSandbox();
    try {
      const { customer } = await env.gateway.customer.create({ paymentMethodNonce: 'fake-valid-nonce' });
      const token = customer.paymentMethods?.[0]?.token ?? '';
      const monthly = await env.gateway.subscription.create({ paymentMethodToken: token, planId: 'monthly' });
      const yearly = await env.gateway.subscription.create({ paymentMethodToken: token, planId: 'yearly' });
      await env.gateway.subscription.cancel(yearly.subscription.id);
      const active = await collect<braintree.Subscription>(
        env.gateway.subscription.search((search: { status: () => { in: (v: string[]) => void } }) =>
          search.status().in(['Active']),
        ),
      );
      expect(active.map((s) => s.id)).toEqual([monthly.subscription.id]);
    } finally {
      await env.server.close();
    }
  });
});
