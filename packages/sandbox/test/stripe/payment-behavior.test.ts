import type Stripe from 'stripe';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DAY, type Harness, startSandbox } from './support.js';

const HOURS_23 = 23 * 3600;

describe('Stripe sandbox: payment_behavior', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await startSandbox({ delivery: 'ordered' });
  });
  afterEach(() => h.close());

  const events = (type: string) => h.sandbox.events(type as Stripe.Event.Type);
  const invoiceOf = (sub: Stripe.Subscription) => h.stripe.invoices.retrieve(sub.latest_invoice as string);
  const charges = async (customer: string) => (await h.stripe.charges.list({ customer })).data;

  /** An active monthly subscription paid by a card that declines from now on. */
  async function onDecliningCard() {
    const cus = await h.stripe.customers.create({ email: 'pending@example.com', source: 'tok_visa' });
    const sub = await h.stripe.subscriptions.create({ customer: cus.id, items: [{ price: 'monthly' }] });
    await h.stripe.customers.update(cus.id, { source: 'tok_chargeCustomerFail' });
    h.clock.advance(10 * DAY * 1000);
    return { cus, sub, item: sub.items.data[0]!.id };
  }

  describe('pending_if_incomplete', () => {
    const swap = (sub: Stripe.Subscription, item: string, extra: Record<string, unknown> = {}) =>
      h.stripe.subscriptions.update(sub.id, {
        items: [{ id: item, price: 'team' }],
        proration_behavior: 'always_invoice',
        payment_behavior: 'pending_if_incomplete',
        ...extra,
      });

    it('a change whose invoice is declined is not applied: pending_update, the invoice open and not retried', async () => {
      const { sub, item } = await onDecliningCard();
      const updatedBefore = events('customer.subscription.updated').length;
      const answer = await swap(sub, item);
      expect(answer.status).toBe('active');
      expect(answer.items.data[0]!.price.id).toBe('monthly');
      expect(answer.pending_update).toMatchObject({
        expires_at: h.sandbox.store.now() + HOURS_23,
        trial_end: null,
        billing_cycle_anchor: null,
      });
      expect(answer.pending_update!.subscription_items!.map((i) => i.price.id)).toEqual(['team']);
      const invoice = await invoiceOf(answer);
      expect([invoice.status, invoice.billing_reason, invoice.next_payment_attempt]).toEqual([
        'open',
        'subscription_update',
        null,
      ]);
      // The one subscription event says only that a change is pending; nothing went past due.
      const updated = events('customer.subscription.updated').slice(updatedBefore);
      expect(updated).toHaveLength(1);
      expect(Object.keys(updated[0]!.data.previous_attributes ?? {}).sort()).toEqual([
        'latest_invoice',
        'pending_update',
      ]);
      expect((updated[0]!.data.object as Stripe.Subscription).items.data[0]!.price.id).toBe('monthly');
      // The subscription cycles as if no update was made: the renewal bills the old price.
      await h.sandbox.advance(22 * DAY);
      const renewed = await h.stripe.subscriptions.retrieve(sub.id);
      expect(renewed.items.data[0]!.price.id).toBe('monthly');
      expect(await invoiceOf(renewed)).toMatchObject({ billing_reason: 'subscription_cycle', total: 1000 });
      expect((await h.stripe.invoices.retrieve(invoice.id)).status).toBe('void');
    });

    it('paying the invoice applies the change and clears pending_update', async () => {
      const { cus, sub, item } = await onDecliningCard();
      const held = await swap(sub, item);
      await h.stripe.customers.update(cus.id, { source: 'tok_visa' });
      const paid = await h.stripe.invoices.pay(held.latest_invoice as string);
      expect(paid.status).toBe('paid');
      const applied = await h.stripe.subscriptions.retrieve(sub.id);
      expect(applied.pending_update).toBeNull();
      expect([applied.items.data[0]!.price.id, applied.status]).toEqual(['team', 'active']);
      const applying = events('customer.subscription.updated').filter(
        (e) => (e.data.previous_attributes as Partial<Stripe.Subscription> | undefined)?.items,
      );
      expect(applying).toHaveLength(1);
      expect(applying[0]!.data.previous_attributes).toMatchObject({ pending_update: held.pending_update });
    });

    it('voiding the invoice drops the change; expiry after 23 hours drops it and voids the invoice', async () => {
      const { sub, item } = await onDecliningCard();
      const held = await swap(sub, item);
      await h.stripe.invoices.voidInvoice(held.latest_invoice as string);
      const dropped = await h.stripe.subscriptions.retrieve(sub.id);
      expect([dropped.pending_update, dropped.items.data[0]!.price.id]).toEqual([null, 'monthly']);

      const again = await swap(dropped, item);
      expect(again.pending_update).not.toBeNull();
      await h.sandbox.advance(HOURS_23 - 60);
      expect((await h.stripe.subscriptions.retrieve(sub.id)).pending_update).not.toBeNull();
      await h.sandbox.advance(60);
      const expired = await h.stripe.subscriptions.retrieve(sub.id);
      expect([expired.pending_update, expired.items.data[0]!.price.id, expired.status]).toEqual([
        null,
        'monthly',
        'active',
      ]);
      expect(events('customer.subscription.pending_update_expired')).toHaveLength(1);
      expect((await invoiceOf(again)).status).toBe('void');
    });

    it('a paid change applies at once, with no pending_update; quantities too', async () => {
      const cus = await h.stripe.customers.create({ email: 'ok@example.com', source: 'tok_visa' });
      const sub = await h.stripe.subscriptions.create({ customer: cus.id, items: [{ price: 'monthly' }] });
      h.clock.advance(10 * DAY * 1000);
      const item = sub.items.data[0]!.id;
      const swapped = await swap(sub, item, { items: [{ id: item, price: 'team', quantity: 2 }] });
      expect(swapped.pending_update).toBeNull();
      expect([swapped.items.data[0]!.price.id, swapped.items.data[0]!.quantity]).toEqual(['team', 2]);
      expect((await invoiceOf(swapped)).status).toBe('paid');
    });

    it('refuses parameters pending updates do not support, before changing anything', async () => {
      const { sub, item } = await onDecliningCard();
      const refused = await swap(sub, item, { metadata: { a: 'b' } }).catch((e: unknown) => e);
      expect(refused).toMatchObject({ type: 'StripeInvalidRequestError', param: 'metadata' });
      const still = await h.stripe.subscriptions.retrieve(sub.id);
      expect([still.items.data[0]!.price.id, still.pending_update]).toEqual(['monthly', null]);
    });

    it('allow_incomplete (the default) applies the change and leaves the subscription past_due', async () => {
      const { sub, item } = await onDecliningCard();
      const applied = await h.stripe.subscriptions.update(sub.id, {
        items: [{ id: item, price: 'team' }],
        proration_behavior: 'always_invoice',
      });
      expect([applied.items.data[0]!.price.id, applied.status, applied.pending_update]).toEqual([
        'team',
        'past_due',
        null,
      ]);
    });
  });

  describe('default_incomplete', () => {
    it('creates the subscription incomplete, its first invoice open, nothing charged until the PaymentIntent is confirmed', async () => {
      const cus = await h.stripe.customers.create({
        email: 'di@example.com',
        payment_method: 'pm_card_visa',
        invoice_settings: { default_payment_method: 'pm_card_visa' },
      });
      const sub = await h.stripe.subscriptions.create({
        customer: cus.id,
        items: [{ price: 'monthly' }],
        payment_behavior: 'default_incomplete',
      });
      expect(sub.status).toBe('incomplete');
      const invoice = await invoiceOf(sub);
      expect([invoice.status, invoice.amount_due, invoice.next_payment_attempt]).toEqual([
        'open',
        1000,
        null,
      ]);
      const [link] = (await h.stripe.invoicePayments.list({ invoice: invoice.id })).data;
      const pi = await h.stripe.paymentIntents.retrieve(link!.payment.payment_intent as string);
      expect([pi.status, pi.amount]).toEqual(['requires_confirmation', 1000]);
      expect(await charges(cus.id)).toEqual([]);

      const confirmed = await h.stripe.paymentIntents.confirm(pi.id);
      expect(confirmed.status).toBe('succeeded');
      expect((await h.stripe.invoices.retrieve(invoice.id)).status).toBe('paid');
      expect((await h.stripe.subscriptions.retrieve(sub.id)).status).toBe('active');
      expect((await charges(cus.id)).map((c) => c.amount)).toEqual([1000]);
    });

    it('without a default PaymentMethod the PaymentIntent requires one; unconfirmed, it expires after 23 hours', async () => {
      const cus = await h.stripe.customers.create({ email: 'none@example.com' });
      const sub = await h.stripe.subscriptions.create({
        customer: cus.id,
        items: [{ price: 'monthly' }],
        payment_behavior: 'default_incomplete',
      });
      const invoice = await invoiceOf(sub);
      const [link] = (await h.stripe.invoicePayments.list({ invoice: invoice.id })).data;
      const pi = await h.stripe.paymentIntents.retrieve(link!.payment.payment_intent as string);
      expect(pi.status).toBe('requires_payment_method');
      await h.sandbox.advance(HOURS_23);
      expect((await h.stripe.subscriptions.retrieve(sub.id)).status).toBe('incomplete_expired');
      expect((await h.stripe.invoices.retrieve(invoice.id)).status).toBe('void');
    });

    it('a trial starts as usual: trialing, nothing to confirm', async () => {
      const cus = await h.stripe.customers.create({ email: 'trial@example.com' });
      const sub = await h.stripe.subscriptions.create({
        customer: cus.id,
        items: [{ price: 'monthly' }],
        trial_period_days: 7,
        payment_behavior: 'default_incomplete',
      });
      expect(sub.status).toBe('trialing');
      expect((await invoiceOf(sub)).status).toBe('paid');
    });
  });
});
