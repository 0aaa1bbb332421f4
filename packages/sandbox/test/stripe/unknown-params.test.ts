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

  const refusal = (param: string) => ({
    error: {
      type: 'invalid_request_error',
      code: 'parameter_unknown',
      param,
      message: `Received unknown parameter: ${param}`,
      doc_url: 'https://stripe.com/docs/error-codes/parameter-unknown',
    },
  });

  // One misspelling per endpoint, next to parameters it does know.
  const misspelt: Array<{ name: string; method: 'GET' | 'POST'; path: string; body: string; param: string }> =
    [
      {
        name: 'a Checkout Session',
        method: 'POST',
        path: '/v1/checkout/sessions',
        body: 'mode=subscription&line_items[0][price]=monthly&success_url=http%3A%2F%2Fx.test&sucess_url=x',
        param: 'sucess_url',
      },
      {
        name: 'listing Checkout Sessions',
        method: 'GET',
        path: '/v1/checkout/sessions',
        body: 'custmer=cus_x',
        param: 'custmer',
      },
      {
        name: 'a billing portal session',
        method: 'POST',
        path: '/v1/billing_portal/sessions',
        body: 'customer=CUSTOMER&retrun_url=http%3A%2F%2Fx.test',
        param: 'retrun_url',
      },
      {
        name: 'a Billing Meter',
        method: 'POST',
        path: '/v1/billing/meters',
        body: 'display_name=Calls&event_name=calls&default_agregation[formula]=sum',
        param: 'default_agregation',
      },
      {
        name: 'a meter event',
        method: 'POST',
        path: '/v1/billing/meter_events',
        body: 'event_name=calls&paylod[value]=1&payload[stripe_customer_id]=CUSTOMER',
        param: 'paylod',
      },
    ];
  for (const { name, method, path, body, param } of misspelt) {
    it(`${name}: a misspelt parameter gets Stripe's 400 parameter_unknown and makes nothing`, async () => {
      const customer = await h.stripe.customers.create({ email: 'c@example.com' });
      const form = body.replaceAll('CUSTOMER', customer.id);
      const response =
        method === 'POST'
          ? await post(path, form)
          : await fetch(`http://127.0.0.1:${h.port}${path}?${form}`, {
              headers: { authorization: 'Bearer sk_test_x' },
            });
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual(refusal(param));
      const { store } = h.sandbox;
      expect([store.checkoutSessions.size, store.portalSessions.size, store.meters.size]).toEqual([0, 0, 0]);
      expect(store.meterEvents.size).toBe(0);
    });
  }

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

  it('every API route of the sandbox has its list of known parameters', () => {
    const routes = h.sandbox.app.routes
      .filter((r) => r.path.startsWith('/v1/') && r.method !== 'ALL')
      .map((r) => `${r.method} ${r.path}`);
    expect(routes.length).toBeGreaterThan(60);
    expect(routes.filter((route) => KNOWN_PARAMS[route] === undefined)).toEqual([]);
  });

  it('accepts expansion and pagination everywhere, and every parameter an endpoint lists', async () => {
    const listed = await h.stripe.customers.list({ limit: 3, expand: ['data.default_source'] });
    expect(listed.object).toBe('list');
    expect(KNOWN_PARAMS['POST /v1/subscriptions']).toContain('payment_behavior');
  });
});
