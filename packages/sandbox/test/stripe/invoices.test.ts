import type Stripe from 'stripe';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DAY, type Harness, START, startSandbox } from './support.js';

describe('Stripe sandbox: invoices', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await startSandbox();
  });
  afterEach(async () => h.close());

  it('previews the invoice at the end of a trial, with tax, and stores nothing', async () => {
    const customer = await h.stripe.customers.create({ source: 'tok_visa' });
    const tax = await h.stripe.taxRates.create({
      display_name: 'Sales tax',
      percentage: 8.25,
      inclusive: false,
    });
    const sub = await h.stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: 'monthly' }],
      trial_end: START / 1000 + 7 * DAY,
      default_tax_rates: [tax.id],
    });
    const before = h.sandbox.store.invoices.size;
    const preview = await h.stripe.invoices.createPreview({ customer: customer.id, subscription: sub.id });
    expect(preview).toMatchObject({
      subtotal: 1000,
      total: 1083,
      amount_due: 1083,
      period_start: START / 1000 + 7 * DAY,
      next_payment_attempt: START / 1000 + 7 * DAY,
      billing_reason: 'upcoming',
    });
    expect(preview.total_taxes?.[0]?.amount).toBe(83);
    expect(h.sandbox.store.invoices.size).toBe(before);
  });

  it('has no upcoming invoice for a subscription that ends at period end', async () => {
    const customer = await h.stripe.customers.create({ source: 'tok_visa' });
    const sub = await h.stripe.subscriptions.create({ customer: customer.id, items: [{ price: 'monthly' }] });
    await h.stripe.subscriptions.update(sub.id, { cancel_at_period_end: true });
    const error = await h.stripe.invoices
      .createPreview({ customer: customer.id, subscription: sub.id })
      .catch((e) => e);
    expect(error).toMatchObject({ statusCode: 404, code: 'invoice_upcoming_none' });
  });

  it('invoices pending items, finalizes and pays; an empty invoice pays as $0', async () => {
    const customer = await h.stripe.customers.create({ source: 'tok_visa' });
    await h.stripe.invoiceItems.create({
      customer: customer.id,
      amount: 700,
      currency: 'usd',
      description: 'Extra seat',
    });
    await h.stripe.invoiceItems.create({
      customer: customer.id,
      amount: 300,
      currency: 'usd',
      description: 'Support',
    });
    const draft = await h.stripe.invoices.create({
      customer: customer.id,
      pending_invoice_items_behavior: 'include',
    });
    expect(draft).toMatchObject({
      status: 'draft',
      subtotal: 1000,
      total: 1000,
      auto_advance: false,
      number: null,
    });
    const open = await h.stripe.invoices.finalizeInvoice(draft.id);
    expect(open.status).toBe('open');
    expect(open.number).toMatch(/-0001$/);
    const paid = await h.stripe.invoices.pay(draft.id, { expand: ['customer'] });
    expect(paid).toMatchObject({ status: 'paid', amount_paid: 1000, amount_remaining: 0, attempt_count: 1 });
    expect((paid.customer as Stripe.Customer).id).toBe(customer.id);

    const empty = await h.stripe.invoices.create({
      customer: customer.id,
      pending_invoice_items_behavior: 'include',
    });
    expect(empty.lines.data).toHaveLength(0);
    expect((await h.stripe.invoices.pay(empty.id)).status).toBe('paid');
    const again = await h.stripe.invoices.pay(empty.id).catch((e) => e);
    expect(again.statusCode).toBe(400);
  });

  it('lists invoices newest first with limit, has_more and starting_after', async () => {
    const customer = await h.stripe.customers.create({ source: 'tok_visa' });
    const sub = await h.stripe.subscriptions.create({ customer: customer.id, items: [{ price: 'monthly' }] });
    await h.sandbox.advance(95 * DAY);
    const first = await h.stripe.invoices.list({ customer: customer.id, limit: 2 });
    expect(first).toMatchObject({ object: 'list', has_more: true, url: '/v1/invoices' });
    expect(first.data).toHaveLength(2);
    const rest = await h.stripe.invoices.list({
      customer: customer.id,
      limit: 10,
      starting_after: first.data[1]!.id,
    });
    expect(rest.has_more).toBe(false);
    const all = [...first.data, ...rest.data];
    expect(all).toHaveLength(4);
    expect(all.at(-1)!.billing_reason).toBe('subscription_create');
    expect(all.map((i) => i.created)).toEqual([...all.map((i) => i.created)].sort((a, b) => b - a));
    const bySub = await h.stripe.invoices.list({ subscription: sub.id, status: 'paid' });
    expect(bySub.data).toHaveLength(4);
  });

  it('expands latest_invoice and the tax rate behind total_taxes', async () => {
    const customer = await h.stripe.customers.create({ source: 'tok_visa' });
    const tax = await h.stripe.taxRates.create({ display_name: 'VAT', percentage: 10, inclusive: false });
    const sub = await h.stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: 'monthly' }],
      default_tax_rates: [tax.id],
      expand: ['latest_invoice'],
    });
    const invoice = sub.latest_invoice as Stripe.Invoice;
    expect(invoice.object).toBe('invoice');
    expect(invoice.total).toBe(1100);
    const expanded = await h.stripe.invoices.retrieve(invoice.id, {
      expand: ['total_taxes.tax_rate_details.tax_rate', 'parent.subscription_details.subscription'],
    });
    const detail = expanded.total_taxes![0]!.tax_rate_details as unknown as { tax_rate: Stripe.TaxRate };
    expect(detail.tax_rate.display_name).toBe('VAT');
    expect((expanded.parent!.subscription_details!.subscription as Stripe.Subscription).id).toBe(sub.id);
  });

  it('expires an incomplete subscription after 23 hours and voids its invoice', async () => {
    const customer = await h.stripe.customers.create({ source: 'tok_chargeCustomerFail' });
    const sub = await h.stripe.subscriptions.create({ customer: customer.id, items: [{ price: 'monthly' }] });
    await h.sandbox.advance(DAY);
    const expired = await h.stripe.subscriptions.retrieve(sub.id);
    expect(expired.status).toBe('incomplete_expired');
    expect((await h.stripe.invoices.retrieve(expired.latest_invoice as string)).status).toBe('void');
  });

  it('contains inclusive tax in the total, and caps an amount-off coupon at the amount', async () => {
    const customer = await h.stripe.customers.create({ source: 'tok_visa' });
    const vat = await h.stripe.taxRates.create({ display_name: 'VAT', percentage: 20, inclusive: true });
    const big = await h.stripe.coupons.create({ amount_off: 5000, currency: 'usd', duration: 'forever' });
    const taxed = await h.stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: 'monthly' }],
      default_tax_rates: [vat.id],
      expand: ['latest_invoice'],
    });
    const invoice = taxed.latest_invoice as Stripe.Invoice;
    expect(invoice).toMatchObject({
      subtotal: 1000,
      total: 1000,
      total_excluding_tax: 833,
      amount_paid: 1000,
    });
    expect(invoice.total_taxes?.[0]).toMatchObject({
      amount: 167,
      taxable_amount: 833,
      tax_behavior: 'inclusive',
    });

    const free = await h.stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: 'monthly' }],
      discounts: [{ coupon: big.id }],
      expand: ['latest_invoice'],
    });
    const zero = free.latest_invoice as Stripe.Invoice;
    expect(free.status).toBe('active');
    expect(zero).toMatchObject({ status: 'paid', total: 0, amount_paid: 0, attempt_count: 0 });
    expect(zero.total_discount_amounts?.[0]?.amount).toBe(1000);
    expect((await h.stripe.charges.list({ customer: customer.id })).data).toHaveLength(1);
  });
});
