import type Stripe from 'stripe';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DAY, type Harness, START, startSandbox } from './support.js';

describe('Stripe sandbox: subscription changes', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await startSandbox();
  });
  afterEach(async () => h.close());

  const customer = (source = 'tok_visa') => h.stripe.customers.create({ email: 'sub@example.com', source });
  const invoiceOf = async (sub: Stripe.Subscription) =>
    h.stripe.invoices.retrieve(sub.latest_invoice as string);

  it('swaps the price of an item and leaves prorations pending for the next invoice', async () => {
    const cus = await customer();
    const sub = await h.stripe.subscriptions.create({ customer: cus.id, items: [{ price: 'monthly' }] });
    h.clock.advance(10 * DAY * 1000);
    const swapped = await h.stripe.subscriptions.update(sub.id, {
      items: [{ id: sub.items.data[0]!.id, price: 'team' }],
      proration_behavior: 'create_prorations',
    });
    expect(swapped.items.data).toHaveLength(1);
    expect(swapped.items.data[0]!.price.id).toBe('team');
    const pending = await h.stripe.invoiceItems.list({ customer: cus.id, pending: true });
    const amounts = pending.data.map((i) => i.amount).sort((a, b) => a - b);
    // 21 of 31 days remain: -1000·21/31 and +2500·21/31.
    expect(amounts).toEqual([-677, 1694]);
    const preview = await h.stripe.invoices.createPreview({ customer: cus.id, subscription: sub.id });
    expect(preview.total).toBe(2500 - 677 + 1694);
    expect(preview.period_start).toBe(Date.UTC(2026, 1, 15, 12) / 1000);
  });

  it('a coupon discounts both proration lines: the credit for unused time and the remaining time', async () => {
    const cus = await customer();
    const sub = await h.stripe.subscriptions.create({
      customer: cus.id,
      items: [{ price: 'monthly' }],
      discounts: [{ coupon: 'HALF' }],
    });
    h.clock.advance(10 * DAY * 1000);
    const up = await h.stripe.subscriptions.update(sub.id, {
      items: [{ id: sub.items.data[0]!.id, price: 'team' }],
      proration_behavior: 'always_invoice',
    });
    const invoice = await invoiceOf(up);
    // 21 of 31 days remain: -677 and +1694, half of the net 1017 (rounded half up) off.
    expect(invoice.lines.data.map((l) => l.amount).sort((a, b) => a - b)).toEqual([-677, 1694]);
    expect(invoice.total_discount_amounts?.map((d) => d.amount)).toEqual([509]);
    expect(invoice.total).toBe(1017 - 509);
    const lineDiscounts = invoice.lines.data.map((l) => l.discount_amounts?.[0]?.amount);
    expect(lineDiscounts.reduce((a, b) => a! + b!, 0)).toBe(509);
    expect(Math.min(...lineDiscounts.map(Number))).toBeLessThan(0);
  });

  it('changes quantity, and a change of interval restarts the cycle and bills at once', async () => {
    const cus = await customer();
    const sub = await h.stripe.subscriptions.create({ customer: cus.id, items: [{ price: 'monthly' }] });
    const itemId = sub.items.data[0]!.id;
    const more = await h.stripe.subscriptions.update(sub.id, {
      items: [{ id: itemId, quantity: 3 }],
      proration_behavior: 'none',
    });
    expect(more.items.data[0]!.quantity).toBe(3);
    expect((await h.stripe.invoiceItems.list({ customer: cus.id, pending: true })).data).toHaveLength(0);

    const yearly = await h.stripe.subscriptions.update(sub.id, { items: [{ id: itemId, price: 'yearly' }] });
    expect(yearly.items.data[0]!.current_period_end).toBe(Date.UTC(2027, 0, 15, 12) / 1000);
    const invoice = await invoiceOf(yearly);
    expect(invoice.billing_reason).toBe('subscription_update');
    expect(invoice.status).toBe('paid');
    // The full year for 3 seats, less the unused month just paid (all of it: no time has passed).
    expect(invoice.total).toBe(3 * 10000 - 3000);
  });

  it('ends a trial now with trial_end=now and bills immediately', async () => {
    const cus = await customer();
    const sub = await h.stripe.subscriptions.create({
      customer: cus.id,
      items: [{ price: 'monthly' }],
      trial_period_days: 30,
    });
    h.clock.advance(2 * DAY * 1000);
    const ended = await h.stripe.subscriptions.update(sub.id, { trial_end: 'now' });
    expect(ended.status).toBe('active');
    expect(ended.trial_end).toBe(START / 1000 + 2 * DAY);
    expect(ended.items.data[0]!.current_period_start).toBe(START / 1000 + 2 * DAY);
    expect((await invoiceOf(ended)).total).toBe(1000);
  });

  it('credits a downgrade billed at once to the customer balance, used by the next invoice', async () => {
    const cus = await customer();
    const sub = await h.stripe.subscriptions.create({ customer: cus.id, items: [{ price: 'team' }] });
    h.clock.advance(Math.round(31 * DAY * 1000) / 2);
    const down = await h.stripe.subscriptions.update(sub.id, {
      items: [{ id: sub.items.data[0]!.id, price: 'monthly' }],
      proration_behavior: 'always_invoice',
    });
    const credit = await invoiceOf(down);
    expect(credit.billing_reason).toBe('subscription_update');
    expect(credit.total).toBe(-1250 + 500);
    expect(credit).toMatchObject({ status: 'paid', amount_due: 0, ending_balance: -750 });
    expect(((await h.stripe.customers.retrieve(cus.id)) as Stripe.Customer).balance).toBe(-750);
    await h.sandbox.advance(16 * DAY);
    const next = await invoiceOf(await h.stripe.subscriptions.retrieve(sub.id));
    expect(next).toMatchObject({ total: 1000, starting_balance: -750, amount_due: 250, amount_paid: 250 });
  });

  it('refuses an unknown price with 404 and leaves the subscription unchanged', async () => {
    const cus = await customer();
    const sub = await h.stripe.subscriptions.create({ customer: cus.id, items: [{ price: 'monthly' }] });
    const error = await h.stripe.subscriptions
      .update(sub.id, {
        items: [{ id: sub.items.data[0]!.id, quantity: 4 }, { price: 'nope' }],
        discounts: [{ coupon: 'HALF' }],
      })
      .catch((e) => e);
    expect(error).toMatchObject({ statusCode: 404, code: 'resource_missing', param: 'items[1][price]' });
    const same = await h.stripe.subscriptions.retrieve(sub.id);
    expect(same.items.data.map((i) => [i.price.id, i.quantity])).toEqual([['monthly', 1]]);
    expect(same.discounts).toHaveLength(0);
    expect((await h.stripe.coupons.retrieve('HALF')).times_redeemed).toBe(0);
  });
});
