import Stripe from 'stripe';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DAY, type Harness, startSandbox } from './support.js';

describe('Stripe sandbox: Billing Meters, meter events and metered prices', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await startSandbox();
  });
  afterEach(async () => h.close());

  const meteredPrice = async (eventName = 'api_calls') => {
    const meter = await h.stripe.billing.meters.create({
      display_name: 'API calls',
      event_name: eventName,
      default_aggregation: { formula: 'sum' },
      customer_mapping: { event_payload_key: 'stripe_customer_id', type: 'by_id' },
    });
    const price = await h.stripe.prices.create({
      currency: 'usd',
      unit_amount: 2,
      product_data: { name: 'API calls' },
      recurring: { interval: 'month', usage_type: 'metered', meter: meter.id },
    });
    return { meter, price };
  };

  const subscribe = async (metered: string) => {
    const customer = await h.stripe.customers.create({ email: 'meter@example.com', source: 'tok_visa' });
    const sub = await h.stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: 'monthly' }, { price: metered }],
    });
    return { customer, sub };
  };

  const report = (customer: string, value: number, identifier?: string) =>
    h.stripe.billing.meterEvents.create({
      event_name: 'api_calls',
      payload: { stripe_customer_id: customer, value: String(value) },
      ...(identifier ? { identifier } : {}),
    });

  it('creates, lists and retrieves a meter in Stripe’s shape', async () => {
    const { meter } = await meteredPrice();
    expect(meter).toMatchObject({
      object: 'billing.meter',
      event_name: 'api_calls',
      status: 'active',
      default_aggregation: { formula: 'sum' },
      customer_mapping: { event_payload_key: 'stripe_customer_id', type: 'by_id' },
      value_settings: { event_payload_key: 'value' },
    });
    expect((await h.stripe.billing.meters.retrieve(meter.id)).id).toBe(meter.id);
    expect((await h.stripe.billing.meters.list()).data.map((m) => m.id)).toEqual([meter.id]);
    const again = await meteredPrice().catch((e) => e);
    expect(again).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(again.param).toBe('event_name');
  });

  it('makes a metered price only with a meter', async () => {
    const { price, meter } = await meteredPrice();
    expect(price.recurring).toMatchObject({ usage_type: 'metered', meter: meter.id });
    const missing = await h.stripe.prices
      .create({
        currency: 'usd',
        unit_amount: 2,
        product_data: { name: 'x' },
        recurring: { interval: 'month', usage_type: 'metered' },
      })
      .catch((e) => e);
    expect(missing.code).toBe('parameter_missing');
    expect(missing.param).toBe('recurring[meter]');
  });

  it('refuses a quantity on a metered item and leaves the metered item without one', async () => {
    const { price } = await meteredPrice();
    const customer = await h.stripe.customers.create({ source: 'tok_visa' });
    const refused = await h.stripe.subscriptions
      .create({ customer: customer.id, items: [{ price: 'monthly' }, { price: price.id, quantity: 3 }] })
      .catch((e) => e);
    expect(refused.statusCode).toBe(400);
    expect(refused.param).toBe('items[1][quantity]');
    const { sub } = await subscribe(price.id);
    expect(sub.items.data[1]!.quantity).toBeUndefined();
    // The first invoice bills the plan in advance; usage comes in arrears.
    const first = await h.stripe.invoices.retrieve(String(sub.latest_invoice));
    expect(first.amount_due).toBe(1000);
  });

  it('refuses a meter event for an unknown meter, customer, or a non-integer value', async () => {
    await meteredPrice();
    const customer = await h.stripe.customers.create({});
    const unknown = await h.stripe.billing.meterEvents
      .create({ event_name: 'nope', payload: { stripe_customer_id: customer.id, value: '1' } })
      .catch((e) => e);
    expect(unknown.param).toBe('event_name');
    const noCustomer = await report('cus_nope', 1).catch((e) => e);
    expect(noCustomer.code).toBe('resource_missing');
    const fraction = await h.stripe.billing.meterEvents
      .create({ event_name: 'api_calls', payload: { stripe_customer_id: customer.id, value: '1.5' } })
      .catch((e) => e);
    expect(fraction.param).toBe('payload[value]');
  });

  it('sums the period’s events onto the renewal invoice, each identifier once', async () => {
    const { price } = await meteredPrice();
    const { customer, sub } = await subscribe(price.id);
    const first = await report(customer.id, 120, 'report-1');
    expect(first).toMatchObject({
      object: 'billing.meter_event',
      identifier: 'report-1',
      event_name: 'api_calls',
    });
    const again = await report(customer.id, 120, 'report-1');
    expect(again.identifier).toBe('report-1');
    await Promise.all([report(customer.id, 30, 'report-2'), report(customer.id, 30, 'report-2')]);

    const preview = await h.stripe.invoices.createPreview({ customer: customer.id, subscription: sub.id });
    const previewLine = preview.lines.data.find((l) => l.pricing?.price_details?.price === price.id);
    expect(previewLine).toMatchObject({ quantity: 150, amount: 300 });

    await h.sandbox.advance(31 * DAY);
    await report(customer.id, 7, 'next-period');
    const invoices = await h.stripe.invoices.list({ customer: customer.id });
    const renewal = invoices.data.find((i) => i.billing_reason === 'subscription_cycle')!;
    const line = renewal.lines.data.find((l) => l.pricing?.price_details?.price === price.id)!;
    expect(line.quantity).toBe(150);
    expect(line.amount).toBe(300);
    expect(renewal.amount_paid).toBe(1000 + 300);
    // The usage line covers the period that ended, the plan line the one that starts.
    expect(line.period).toEqual({
      start: sub.items.data[0]!.current_period_start,
      end: sub.items.data[0]!.current_period_end,
    });
    const next = await h.stripe.invoices.createPreview({ customer: customer.id, subscription: sub.id });
    expect(next.lines.data.find((l) => l.pricing?.price_details?.price === price.id)?.quantity).toBe(7);
  });
});
