import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, startSandbox } from './support.js';

describe('Stripe sandbox: one-off charges', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await startSandbox();
  });
  afterEach(async () => h.close());

  it('charges the customer’s default card', async () => {
    const customer = await h.stripe.customers.create({ source: 'tok_amex' });
    const charge = await h.stripe.charges.create({
      amount: 2500,
      currency: 'usd',
      customer: customer.id,
      description: 'Lifetime upgrade',
      metadata: { order: '42' },
    });
    expect(charge).toMatchObject({
      object: 'charge',
      amount: 2500,
      status: 'succeeded',
      paid: true,
      captured: true,
      customer: customer.id,
      description: 'Lifetime upgrade',
      metadata: { order: '42' },
    });
    expect(charge.source).toMatchObject({ object: 'card', brand: 'American Express', last4: '0005' });
    expect(await h.stripe.charges.retrieve(charge.id)).toMatchObject({ id: charge.id, amount: 2500 });
    expect(h.sandbox.events('charge.succeeded')).toHaveLength(1);
  });

  it('declines a charge from tok_chargeDeclined with a 402 that names the failed charge', async () => {
    const error = await h.stripe.charges
      .create({ amount: 900, currency: 'usd', source: 'tok_chargeDeclined' })
      .catch((e) => e);
    expect(error).toBeInstanceOf(h.stripe.errors.StripeCardError);
    expect(error).toMatchObject({ statusCode: 402, type: 'StripeCardError', code: 'card_declined' });
    const charge = await h.stripe.charges.retrieve(error.raw.charge);
    expect(charge).toMatchObject({ status: 'failed', paid: false, failure_code: 'card_declined' });
    expect(h.sandbox.events('charge.failed')).toHaveLength(1);
  });

  it('refuses amounts under the minimum and customers without a card', async () => {
    const small = await h.stripe.charges
      .create({ amount: 10, currency: 'usd', source: 'tok_visa' })
      .catch((e) => e);
    expect(small).toMatchObject({ statusCode: 400, code: 'amount_too_small' });
    const customer = await h.stripe.customers.create({ email: 'nocard@example.com' });
    const none = await h.stripe.charges
      .create({ amount: 500, currency: 'usd', customer: customer.id })
      .catch((e) => e);
    expect(none).toMatchObject({ statusCode: 400, code: 'missing' });
  });
});
