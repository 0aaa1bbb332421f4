import type Stripe from 'stripe';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, startSandbox } from './support.js';

describe('Stripe sandbox: customers and cards', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await startSandbox();
  });
  afterEach(async () => h.close());

  it('creates a customer with tok_visa and exposes the card through expand[]=default_source', async () => {
    const created = await h.stripe.customers.create({
      email: 'ada@example.com',
      name: 'Ada',
      source: 'tok_visa',
    });
    expect(created.id).toMatch(/^cus_/);
    expect(created.default_source).toMatch(/^card_/);
    const customer = (await h.stripe.customers.retrieve(created.id, {
      expand: ['default_source'],
    })) as Stripe.Customer;
    const card = customer.default_source as Stripe.Card;
    expect(card.object).toBe('card');
    expect(card.brand).toBe('Visa');
    expect(card.last4).toBe('4242');
    expect(card.exp_year).toBeGreaterThan(2026);
    expect(h.sandbox.requests[0]).toMatchObject({
      method: 'POST',
      path: '/v1/customers',
      params: { source: 'tok_visa' },
    });
  });

  it('replaces the default card on update with a new source', async () => {
    const created = await h.stripe.customers.create({ source: 'tok_visa' });
    const oldCard = created.default_source as string;
    const updated = await h.stripe.customers.update(created.id, {
      source: 'tok_mastercard',
      expand: ['default_source'],
    });
    expect((updated.default_source as Stripe.Card).id).not.toBe(oldCard);
    expect((updated.default_source as Stripe.Card).brand).toBe('MasterCard');
    const sources = await h.stripe.customers.listSources(created.id);
    expect(sources.data).toHaveLength(1);
    expect((sources.data[0] as Stripe.Card).brand).toBe('MasterCard');
    expect((sources.data[0] as Stripe.Card).last4).toBe('4444');
    expect(h.sandbox.events('customer.updated')).toHaveLength(1);
    const expanded = (await h.stripe.customers.retrieve(created.id, {
      expand: ['sources'],
    })) as Stripe.Customer;
    expect(expanded.sources?.data.map((s) => s.id)).toEqual([(updated.default_source as Stripe.Card).id]);
  });

  it('refuses tok_chargeDeclined on attach with a StripeCardError and keeps no customer', async () => {
    const error = await h.stripe.customers
      .create({ email: 'x@example.com', source: 'tok_chargeDeclined' })
      .catch((e) => e);
    expect(error).toBeInstanceOf(h.stripe.errors.StripeCardError);
    expect(error.code).toBe('card_declined');
    expect(error.decline_code).toBe('generic_decline');
    expect(error.statusCode).toBe(402);
    expect(h.sandbox.store.customers.size).toBe(0);
  });

  it('attaches tok_chargeCustomerFail, then declines the charge', async () => {
    const customer = await h.stripe.customers.create({ source: 'tok_chargeCustomerFail' });
    const error = await h.stripe.charges
      .create({ amount: 500, currency: 'usd', customer: customer.id })
      .catch((e) => e);
    expect(error).toBeInstanceOf(h.stripe.errors.StripeCardError);
    expect(error.raw.charge).toMatch(/^ch_/);
    const charge = await h.stripe.charges.retrieve(error.raw.charge);
    expect(charge.status).toBe('failed');
    expect(charge.failure_code).toBe('card_declined');
  });

  it('deletes a customer and then reports it deleted', async () => {
    const customer = await h.stripe.customers.create({ email: 'gone@example.com' });
    const deleted = await h.stripe.customers.del(customer.id);
    expect(deleted.deleted).toBe(true);
    const again = await h.stripe.customers.retrieve(customer.id);
    expect(again.deleted).toBe(true);
  });
});
