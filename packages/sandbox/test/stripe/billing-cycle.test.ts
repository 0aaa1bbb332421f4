import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DAY, type Harness, type Receiver, START, startReceiver, startSandbox } from './support.js';

const SECRET = 'whsec_sandbox_test';

describe('Stripe sandbox: clock, renewals, retries and webhooks', () => {
  let h: Harness;
  let receiver: Receiver;
  beforeEach(async () => {
    receiver = await startReceiver(SECRET);
    // What is delivered, in order and within the call: realistic delivery has its own tests.
    h = await startSandbox({ webhook: { url: receiver.url, secret: SECRET }, delivery: 'ordered' });
  });
  afterEach(async () => {
    await h.close();
    await receiver.close();
  });

  const subscribe = async (source = 'tok_visa') => {
    const customer = await h.stripe.customers.create({ email: 'cycle@example.com', source });
    const sub = await h.stripe.subscriptions.create({ customer: customer.id, items: [{ price: 'monthly' }] });
    return { customer, sub };
  };

  it('delivers signed events that stripe.webhooks.constructEvent accepts, awaited within the call', async () => {
    const { sub } = await subscribe();
    const types = receiver.events.map((e) => e.type);
    expect(types).toEqual(
      expect.arrayContaining([
        'customer.created',
        'invoice.created',
        'invoice.finalized',
        'charge.succeeded',
        'invoice.paid',
        'invoice.payment_succeeded',
        'customer.subscription.created',
      ]),
    );
    const created = receiver.events.find((e) => e.type === 'customer.subscription.created')!;
    expect(created.api_version).toBe('2026-10-28.endive');
    expect((created.data.object as { id: string }).id).toBe(sub.id);
    expect(await h.stripe.events.retrieve(created.id)).toMatchObject({ id: created.id, type: created.type });
    expect(h.sandbox.deliveries.every((d) => d.ok && d.status === 200)).toBe(true);
  });

  it('renews at period end and bills the next period', async () => {
    const { sub } = await subscribe();
    await h.sandbox.advance(31 * DAY);
    const renewed = await h.stripe.subscriptions.retrieve(sub.id);
    expect(renewed.status).toBe('active');
    expect(renewed.items.data[0]!.current_period_start).toBe(Date.UTC(2026, 1, 15, 12) / 1000);
    expect(renewed.items.data[0]!.current_period_end).toBe(Date.UTC(2026, 2, 15, 12) / 1000);
    const invoices = await h.stripe.invoices.list({ customer: String(sub.customer), limit: 10 });
    expect(invoices.object).toBe('list');
    expect(invoices.data.map((i) => i.billing_reason)).toEqual(['subscription_cycle', 'subscription_create']);
    expect(invoices.data.every((i) => i.status === 'paid')).toBe(true);
  });

  it('cancels at period end: canceled, and customer.subscription.deleted is delivered', async () => {
    const { sub } = await subscribe();
    const scheduled = await h.stripe.subscriptions.update(sub.id, { cancel_at_period_end: true });
    expect(scheduled.cancel_at_period_end).toBe(true);
    expect(scheduled.cancel_at).toBe(Date.UTC(2026, 1, 15, 12) / 1000);
    const updated = receiver.events.filter((e) => e.type === 'customer.subscription.updated').at(-1)!;
    expect(updated.data.previous_attributes).toMatchObject({ cancel_at_period_end: false });

    await h.sandbox.advance(30 * DAY);
    expect((await h.stripe.subscriptions.retrieve(sub.id)).status).toBe('active');
    await h.sandbox.advance(1 * DAY);
    const ended = await h.stripe.subscriptions.retrieve(sub.id);
    expect(ended.status).toBe('canceled');
    expect(ended.ended_at).toBe(Date.UTC(2026, 1, 15, 12) / 1000);
    const deleted = receiver.events.filter((e) => e.type === 'customer.subscription.deleted');
    expect(deleted).toHaveLength(1);
    expect((deleted[0]!.data.object as { id: string }).id).toBe(sub.id);
    // No renewal invoice was made.
    expect((await h.stripe.invoices.list({ customer: String(sub.customer) })).data).toHaveLength(1);
  });

  it('resumes a scheduled cancellation with cancel_at_period_end=false', async () => {
    const { sub } = await subscribe();
    await h.stripe.subscriptions.update(sub.id, { cancel_at_period_end: true });
    const resumed = await h.stripe.subscriptions.update(sub.id, { cancel_at_period_end: false });
    expect(resumed.cancel_at).toBeNull();
    await h.sandbox.advance(31 * DAY);
    expect((await h.stripe.subscriptions.retrieve(sub.id)).status).toBe('active');
  });

  it('retries a failed renewal 3, 5 and 7 days after, then cancels the subscription', async () => {
    const { customer, sub } = await subscribe();
    await h.stripe.customers.update(customer.id, { source: 'tok_chargeCustomerFail' });
    await h.sandbox.advance(31 * DAY);
    const pastDue = await h.stripe.subscriptions.retrieve(sub.id);
    expect(pastDue.status).toBe('past_due');
    const invoice = await h.stripe.invoices.retrieve(pastDue.latest_invoice as string);
    const failedAt = Date.UTC(2026, 1, 15, 12) / 1000;
    expect(invoice).toMatchObject({
      status: 'open',
      attempt_count: 1,
      next_payment_attempt: failedAt + 3 * DAY,
    });

    await h.sandbox.advance(3 * DAY);
    expect(await h.stripe.invoices.retrieve(invoice.id)).toMatchObject({
      attempt_count: 2,
      next_payment_attempt: failedAt + 5 * DAY,
    });
    await h.sandbox.advance(2 * DAY);
    expect((await h.stripe.invoices.retrieve(invoice.id)).attempt_count).toBe(3);
    expect((await h.stripe.subscriptions.retrieve(sub.id)).status).toBe('past_due');
    await h.sandbox.advance(2 * DAY);
    const final = await h.stripe.invoices.retrieve(invoice.id);
    expect(final).toMatchObject({ attempt_count: 4, next_payment_attempt: null, status: 'open' });
    const canceled = await h.stripe.subscriptions.retrieve(sub.id);
    expect(canceled.status).toBe('canceled');
    expect(canceled.cancellation_details?.reason).toBe('payment_failed');
    expect(receiver.events.filter((e) => e.type === 'invoice.payment_failed')).toHaveLength(4);
    expect(receiver.events.at(-1)!.type).toBe('customer.subscription.deleted');
  });

  it('recovers a past-due subscription when a retry succeeds after a card update', async () => {
    const { customer, sub } = await subscribe();
    await h.stripe.customers.update(customer.id, { source: 'tok_chargeCustomerFail' });
    await h.sandbox.advance(31 * DAY);
    await h.stripe.customers.update(customer.id, { source: 'tok_mastercard' });
    await h.sandbox.advance(3 * DAY);
    expect((await h.stripe.subscriptions.retrieve(sub.id)).status).toBe('active');
  });

  it('one-off invoice: a declined pay is a 402, retried on schedule, and not retried once voided', async () => {
    const customer = await h.stripe.customers.create({ source: 'tok_chargeCustomerFail' });
    await h.stripe.invoiceItems.create({
      customer: customer.id,
      amount: 1500,
      currency: 'usd',
      description: 'Setup fee',
    });
    const draft = await h.stripe.invoices.create({
      customer: customer.id,
      auto_advance: true,
      pending_invoice_items_behavior: 'include',
    });
    expect(draft.status).toBe('draft');
    expect(draft.lines.data[0]).toMatchObject({ amount: 1500, description: 'Setup fee' });
    const error = await h.stripe.invoices.pay(draft.id).catch((e) => e);
    expect(error).toBeInstanceOf(h.stripe.errors.StripeCardError);
    const open = await h.stripe.invoices.retrieve(draft.id);
    expect(open).toMatchObject({
      status: 'open',
      attempt_count: 1,
      next_payment_attempt: START / 1000 + 3 * DAY,
    });

    await h.sandbox.advance(3 * DAY);
    expect((await h.stripe.invoices.retrieve(draft.id)).attempt_count).toBe(2);

    const voided = await h.stripe.invoices.voidInvoice(draft.id);
    expect(voided).toMatchObject({ status: 'void', next_payment_attempt: null });
    await h.sandbox.advance(30 * DAY);
    expect((await h.stripe.invoices.retrieve(draft.id)).attempt_count).toBe(2);
    const open2 = await h.stripe.invoices.list({ customer: customer.id, status: 'open' });
    expect(open2.data).toHaveLength(0);
  });

  it('records a non-2xx delivery and redelivers it on request', async () => {
    receiver.status = 500;
    const customer = await h.stripe.customers.create({ email: 'retry@example.com' });
    const failed = h.sandbox.deliveries.at(-1)!;
    expect(failed).toMatchObject({ type: 'customer.created', status: 500, ok: false, attempt: 1 });
    receiver.status = 200;
    const again = await h.sandbox.redeliver(failed.eventId);
    expect(again).toMatchObject({ status: 200, ok: true, attempt: 2 });
    expect((receiver.events.at(-1)!.data.object as { id: string }).id).toBe(customer.id);
  });

  it('moves the clock through the control route', async () => {
    const { sub } = await subscribe();
    const response = await h.sandbox.fetch(
      new Request('http://sandbox/_sandbox/advance', {
        method: 'POST',
        body: JSON.stringify({ seconds: 31 * DAY }),
      }),
    );
    expect(response.status).toBe(200);
    expect(((await response.json()) as { now: number }).now).toBe(START / 1000 + 31 * DAY);
    const state = (await (await h.sandbox.fetch(new Request('http://sandbox/_sandbox/state'))).json()) as {
      invoices: unknown[];
    };
    expect(state.invoices).toHaveLength(2);
    expect((await h.stripe.subscriptions.retrieve(sub.id)).items.data[0]!.current_period_start).toBe(
      Date.UTC(2026, 1, 15, 12) / 1000,
    );
  });
});
