import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { KNOWN_PARAMS } from '../../src/stripe/routes/known-params.js';
import { type Harness, startSandbox } from './support.js';

describe('Stripe sandbox: unknown parameters', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await startSandbox({ delivery: 'ordered' });
  });
  afterEach(() => h.close());

  const post = (path: string, body: string) =>
    fetch(`http://127.0.0.1:${h.port}${path}`, {
      method: 'POST',
      headers: { authorization: 'Bearer sk_test_x', 'content-type': 'application/x-www-form-urlencoded' },
      body,
    });

  it("answers Stripe's 400 and does nothing", async () => {
    const response = await post('/v1/customers', 'email=a%40example.com&x=1');
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: {
        type: 'invalid_request_error',
        code: 'parameter_unknown',
        param: 'x',
        message: 'Received unknown parameter: x',
        doc_url: 'https://stripe.com/docs/error-codes/parameter-unknown',
      },
    });
    expect(h.sandbox.store.customers.size).toBe(0);
  });

  it('reaches the SDK as an invalid request error naming the parameter', async () => {
    const customer = await h.stripe.customers.create({ email: 'b@example.com' });
    const refused = await h.stripe.subscriptions
      .create({
        customer: customer.id,
        items: [{ price: 'monthly' }],
        // @ts-expect-error: not a subscription parameter
        colour: 'blue',
      })
      .catch((e: unknown) => e);
    expect(refused).toMatchObject({
      type: 'StripeInvalidRequestError',
      code: 'parameter_unknown',
      param: 'colour',
    });
    expect(h.sandbox.store.subscriptions.size).toBe(0);
  });

  it('accepts expansion and pagination everywhere, and every parameter an endpoint lists', async () => {
    const listed = await h.stripe.customers.list({ limit: 3, expand: ['data.default_source'] });
    expect(listed.object).toBe('list');
    expect(KNOWN_PARAMS['POST /v1/subscriptions']).toContain('payment_behavior');
  });
});
