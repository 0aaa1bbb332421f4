import type Stripe from 'stripe';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DAY, type Harness, START, startSandbox } from './support.js';

describe('Stripe sandbox: subscriptions', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await startSandbox();
  });
  afterEach(async () => h.close());

  const customer = (source = 'tok_visa') => h.stripe.customers.create({ email: 'sub@example.com', source });
  const invoiceOf = async (sub: Stripe.Subscription) =>
    h.stripe.invoices.retrieve(sub.latest_invoice as string);

  it('bills the first period at once and is active, with items carrying price, plan and period', async () => {
    const cus = await customer();
    const sub = await h.stripe.subscriptions.create({
      customer: cus.id,
      items: [{ price: 'monthly', quantity: 2 }],
    });
    expect(sub.status).toBe('active');
    const item = sub.items.data[0]!;
    expect(item.price.id).toBe('monthly');
    expect(item.plan.id).toBe('monthly');
    expect(item.quantity).toBe(2);
    expect(item.current_period_start).toBe(START / 1000);
    expect(item.current_period_end).toBe(Date.UTC(2026, 1, 15, 12) / 1000);
    const invoice = await invoiceOf(sub);
    expect(invoice).toMatchObject({
      status: 'paid',
      total: 2000,
      amount_paid: 2000,
      billing_reason: 'subscription_create',
    });
    expect(invoice.parent?.subscription_details?.subscription).toBe(sub.id);
    expect(invoice.lines.data[0]).toMatchObject({
      amount: 2000,
      quantity: 2,
      description: '2 × Pro (at $10.00 / month)',
    });
    expect(invoice.number).toMatch(/^[0-9A-F]{8}-0001$/);
  });

  it('starts a trial with a $0 invoice, and bills at trial end', async () => {
    const cus = await customer();
    const sub = await h.stripe.subscriptions.create({
      customer: cus.id,
      items: [{ price: 'monthly' }],
      trial_period_days: 14,
    });
    expect(sub.status).toBe('trialing');
    expect(sub.trial_end).toBe(START / 1000 + 14 * DAY);
    expect((await invoiceOf(sub)).total).toBe(0);

    await h.sandbox.advance(13 * DAY);
    expect((await h.stripe.subscriptions.retrieve(sub.id)).status).toBe('trialing');
    await h.sandbox.advance(1 * DAY);
    const after = await h.stripe.subscriptions.retrieve(sub.id);
    expect(after.status).toBe('active');
    expect(after.items.data[0]!.current_period_start).toBe(START / 1000 + 14 * DAY);
    const invoice = await invoiceOf(after);
    expect(invoice).toMatchObject({ status: 'paid', total: 1000, billing_reason: 'subscription_cycle' });
    expect(invoice.created).toBe(START / 1000 + 14 * DAY);
  });

  it('with error_if_incomplete, a declined first payment is a 402 and keeps no subscription', async () => {
    const cus = await customer('tok_chargeCustomerFail');
    const error = await h.stripe.subscriptions
      .create({
        customer: cus.id,
        items: [{ price: 'monthly' }],
        discounts: [{ coupon: 'HALF' }],
        payment_behavior: 'error_if_incomplete',
      })
      .catch((e) => e);
    expect(error).toBeInstanceOf(h.stripe.errors.StripeCardError);
    const charge = await h.stripe.charges.retrieve(error.raw.charge);
    expect(charge).toMatchObject({ status: 'failed', amount: 500 });
    expect((await h.stripe.coupons.retrieve('HALF')).times_redeemed).toBe(0);
    expect((await h.stripe.invoices.list({ customer: cus.id })).data).toHaveLength(0);
    const list = await h.stripe.subscriptions.list({ customer: cus.id, status: 'all' });
    expect(list.data).toHaveLength(0);
  });

  it('with allow_incomplete, a declined first payment leaves it incomplete with an open invoice', async () => {
    const cus = await customer('tok_chargeCustomerFail');
    const sub = await h.stripe.subscriptions.create({ customer: cus.id, items: [{ price: 'monthly' }] });
    expect(sub.status).toBe('incomplete');
    const invoice = await invoiceOf(sub);
    expect(invoice.status).toBe('open');
    expect(invoice.attempt_count).toBe(1);
  });

  it('applies a coupon discount and a tax rate to the invoice totals', async () => {
    const cus = await customer();
    const tax = await h.stripe.taxRates.create({ display_name: 'VAT', percentage: 20, inclusive: false });
    const sub = await h.stripe.subscriptions.create({
      customer: cus.id,
      items: [{ price: 'team', quantity: 2 }],
      discounts: [{ coupon: 'HALF' }],
      default_tax_rates: [tax.id],
    });
    expect(sub.default_tax_rates?.[0]?.id).toBe(tax.id);
    expect(sub.discounts).toHaveLength(1);
    const invoice = await invoiceOf(sub);
    expect(invoice.subtotal).toBe(5000);
    expect(invoice.total_discount_amounts?.[0]?.amount).toBe(2500);
    expect(invoice.total_taxes?.[0]).toMatchObject({
      amount: 500,
      taxable_amount: 2500,
      tax_rate_details: { tax_rate: tax.id },
    });
    expect(invoice.total).toBe(3000);
    expect(invoice.amount_paid).toBe(3000);
    const charge = (await h.stripe.charges.list({ customer: cus.id })).data[0]!;
    expect(charge.amount).toBe(3000);
  });

  it('spends a once coupon on the first invoice only', async () => {
    const cus = await customer();
    const sub = await h.stripe.subscriptions.create({
      customer: cus.id,
      items: [{ price: 'monthly' }],
      discounts: [{ coupon: 'FIVE_OFF_ONCE' }],
    });
    expect((await invoiceOf(sub)).total).toBe(500);
    await h.sandbox.advance(31 * DAY);
    const renewed = await h.stripe.subscriptions.retrieve(sub.id);
    expect(renewed.discounts).toHaveLength(0);
    expect((await invoiceOf(renewed)).total).toBe(1000);
  });

  it('lists a customer’s subscriptions, excluding canceled ones unless asked', async () => {
    const cus = await customer();
    const a = await h.stripe.subscriptions.create({ customer: cus.id, items: [{ price: 'monthly' }] });
    const b = await h.stripe.subscriptions.create({ customer: cus.id, items: [{ price: 'team' }] });
    const canceled = await h.stripe.subscriptions.cancel(a.id);
    expect(canceled.status).toBe('canceled');
    expect(canceled.ended_at).toBe(START / 1000);
    expect((await h.stripe.subscriptions.list({ customer: cus.id })).data.map((s) => s.id)).toEqual([b.id]);
    expect(
      (await h.stripe.subscriptions.list({ customer: cus.id, status: 'canceled' })).data.map((s) => s.id),
    ).toEqual([a.id]);
    expect((await h.stripe.subscriptions.list({ customer: cus.id, status: 'all' })).data).toHaveLength(2);
  });

  it('pages through subscriptions with the SDK’s auto-pagination', async () => {
    const cus = await customer();
    for (let i = 0; i < 5; i++)
      await h.stripe.subscriptions.create({ customer: cus.id, items: [{ price: 'monthly' }] });
    const all = await h.stripe.subscriptions
      .list({ customer: cus.id, limit: 2 })
      .autoPagingToArray({ limit: 100 });
    expect(all).toHaveLength(5);
    expect(new Set(all.map((s) => s.id)).size).toBe(5);
  });
});
