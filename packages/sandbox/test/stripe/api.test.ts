import Stripe from 'stripe';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, startSandbox } from './support.js';

describe('Stripe sandbox: authentication, errors, idempotency', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await startSandbox();
  });
  afterEach(async () => h.close());

  it('answers 401 with StripeAuthenticationError for a key that is not sk_test_', async () => {
    const live = new Stripe('sk_live_nope', {
      host: '127.0.0.1',
      port: h.port,
      protocol: 'http',
      maxNetworkRetries: 0,
    });
    const error = await live.customers.create({}).catch((e) => e);
    expect(error).toBeInstanceOf(Stripe.errors.StripeAuthenticationError);
    expect(error.statusCode).toBe(401);
  });

  it('answers 401 in Stripe error shape without an Authorization header', async () => {
    const response = await h.sandbox.fetch(new Request('http://sandbox/v1/customers', { method: 'POST' }));
    expect(response.status).toBe(401);
    const body = (await response.json()) as { error: { type: string; message: string } };
    expect(body.error.type).toBe('invalid_request_error');
    expect(body.error.message).toMatch(/API key/);
    expect(h.sandbox.requests.at(-1)).toMatchObject({ method: 'POST', path: '/v1/customers', status: 401 });
  });

  it('answers 404 resource_missing for an unknown id', async () => {
    const error = await h.stripe.customers.retrieve('cus_nope').catch((e) => e);
    expect(error).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(error.statusCode).toBe(404);
    expect(error.code).toBe('resource_missing');
    expect(error.param).toBe('id');
    expect(error.message).toBe("No such customer: 'cus_nope'");
    const sub = await h.stripe.subscriptions.retrieve('sub_nope').catch((e) => e);
    expect(sub.code).toBe('resource_missing');
  });

  it('answers 400 parameter_missing for a missing required param', async () => {
    const error = await h.stripe.subscriptions
      .create({ items: [{ price: 'monthly' }] } as never)
      .catch((e) => e);
    expect(error.statusCode).toBe(400);
    expect(error.code).toBe('parameter_missing');
    expect(error.param).toBe('customer');
  });

  it('replays the stored response for a repeated Idempotency-Key', async () => {
    const first = await h.stripe.customers.create({ email: 'one@example.com' }, { idempotencyKey: 'key-1' });
    const second = await h.stripe.customers.create({ email: 'one@example.com' }, { idempotencyKey: 'key-1' });
    expect(second.id).toBe(first.id);
    expect(second.lastResponse.headers['idempotent-replayed']).toBe('true');
    expect(h.sandbox.store.customers.size).toBe(1);
    const other = await h.stripe.customers.create({ email: 'one@example.com' }, { idempotencyKey: 'key-2' });
    expect(other.id).not.toBe(first.id);
  });

  it('rejects a reused Idempotency-Key with different parameters', async () => {
    await h.stripe.customers.create({ email: 'a@example.com' }, { idempotencyKey: 'key-3' });
    const error = await h.stripe.customers
      .create({ email: 'b@example.com' }, { idempotencyKey: 'key-3' })
      .catch((e) => e);
    expect(error).toBeInstanceOf(Stripe.errors.StripeIdempotencyError);
  });

  it('answers 409 idempotency_key_in_use to a concurrent request with the same key; one object is made', async () => {
    const create = () =>
      h.stripe.customers.create({ email: 'twice@example.com' }, { idempotencyKey: 'key-4' });
    const results = await Promise.allSettled(Array.from({ length: 5 }, create));
    expect(h.sandbox.store.customers.size).toBe(1);
    const [id] = h.sandbox.store.customers.keys();
    for (const result of results) {
      if (result.status === 'fulfilled') expect(result.value.id).toBe(id);
      else expect(result.reason).toMatchObject({ statusCode: 409, code: 'idempotency_key_in_use' });
    }
    expect((await create()).id).toBe(id);
  });

  it('serves seeded plans and prices, and creates new ones', async () => {
    const plan = await h.stripe.plans.retrieve('monthly');
    expect(plan).toMatchObject({ id: 'monthly', amount: 1000, currency: 'usd', interval: 'month' });
    const price = await h.stripe.prices.retrieve('yearly', { expand: ['product'] });
    expect(price.unit_amount).toBe(10000);
    expect(price.recurring?.interval).toBe('year');
    expect((price.product as Stripe.Product).name).toBe('Pro (yearly)');
    const created = await h.stripe.prices.create({
      currency: 'usd',
      unit_amount: 700,
      recurring: { interval: 'month' },
      product_data: { name: 'Starter' },
    });
    expect(created.id).toMatch(/^price_/);
    expect((await h.stripe.plans.retrieve(created.id)).amount).toBe(700);
    const coupon = await h.stripe.coupons.create({
      id: 'TEN',
      percent_off: 10,
      duration: 'repeating',
      duration_in_months: 3,
    });
    expect((await h.stripe.coupons.retrieve('TEN')).duration_in_months).toBe(3);
    expect(coupon.percent_off).toBe(10);
  });
});
