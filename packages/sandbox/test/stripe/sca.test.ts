import type Stripe from 'stripe';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DAY, type Harness, startSandbox } from './support.js';

/** Strong customer authentication as Stripe's test cards behave (https://docs.stripe.com/testing#regulatory-cards). */
describe('Stripe sandbox: PaymentMethods, SetupIntents and 3-D Secure', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await startSandbox();
  });
  afterEach(async () => h.close());

  const base = () => `http://127.0.0.1:${h.port}`;

  const customerWith = (pm: string) =>
    h.stripe.customers.create({
      email: 'sca@example.com',
      payment_method: pm,
      invoice_settings: { default_payment_method: pm },
    });

  const subscribe = async (pm: string) => {
    const customer = await customerWith(pm);
    const sub = await h.stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: 'monthly' }],
      payment_behavior: 'allow_incomplete',
    });
    const payments = await h.stripe.invoicePayments.list({ invoice: sub.latest_invoice as string });
    const pi = await h.stripe.paymentIntents.retrieve(payments.data[0]!.payment.payment_intent as string);
    return { customer, sub, pi };
  };

  /** What a browser does on the sandbox's challenge page. */
  const challenge = async (
    intent: Stripe.PaymentIntent | Stripe.SetupIntent,
    outcome: 'complete' | 'fail',
  ) => {
    const url = intent.next_action?.redirect_to_url?.url ?? '';
    const page = await fetch(url);
    expect(await page.text()).toContain('Complete authentication');
    return fetch(url.split('?')[0]!, {
      method: 'POST',
      body: new URLSearchParams({ client_secret: intent.client_secret ?? '', outcome }),
      redirect: 'manual',
    });
  };

  it('cancelling an incomplete subscription leaves its invoice payable; voiding the invoice cancels its PaymentIntent', async () => {
    const { sub, pi } = await subscribe('pm_card_threeDSecure2Required');
    expect([sub.status, pi.status]).toEqual(['incomplete', 'requires_action']);
    await h.stripe.subscriptions.cancel(sub.id);
    // As at Stripe: the cancellation stops automatic collection, not the customer's own confirmation.
    expect((await h.stripe.paymentIntents.retrieve(pi.id)).status).toBe('requires_action');
    const voided = await h.stripe.invoices.voidInvoice(sub.latest_invoice as string);
    expect(voided.status).toBe('void');
    expect(await h.stripe.paymentIntents.retrieve(pi.id)).toMatchObject({
      status: 'canceled',
      cancellation_reason: 'void_invoice',
    });
    const back = await challenge(pi, 'complete');
    expect(back.status).toBe(200);
    expect((await h.stripe.charges.list({ customer: pi.customer as string })).data).toEqual([]);
  });

  it('a test PaymentMethod id attaches as a new card PaymentMethod and becomes the invoice default', async () => {
    const customer = await customerWith('pm_card_visa');
    const pm = customer.invoice_settings.default_payment_method as string;
    expect(pm).toMatch(/^pm_(?!card_)/);
    const stored = await h.stripe.paymentMethods.retrieve(pm);
    expect(stored).toMatchObject({ customer: customer.id, card: { brand: 'visa', last4: '4242' } });
    const sub = await h.stripe.subscriptions.create({ customer: customer.id, items: [{ price: 'monthly' }] });
    expect(sub.status).toBe('active');
    await expect(
      h.stripe.paymentMethods.attach('pm_card_visa_chargeDeclined', { customer: customer.id }),
    ).rejects.toMatchObject({ statusCode: 402, code: 'card_declined' });
  });

  it('a subscription on a card that requires authentication is incomplete, its PaymentIntent requires_action', async () => {
    const { sub, pi } = await subscribe('pm_card_threeDSecure2Required');
    expect(sub.status).toBe('incomplete');
    expect(pi).toMatchObject({ status: 'requires_action', amount: 1000 });
    expect(pi.next_action?.redirect_to_url?.url).toContain(`${base()}/_sandbox/3ds/${pi.id}`);
    expect(pi.client_secret).toMatch(new RegExp(`^${pi.id}_secret_`));
  });

  it('completing the challenge pays the invoice and activates the subscription (webhook events included)', async () => {
    const { sub, pi } = await subscribe('pm_card_authenticationRequired');
    const res = await challenge(pi, 'complete');
    expect(res.status).toBe(200);
    expect((await h.stripe.paymentIntents.retrieve(pi.id)).status).toBe('succeeded');
    expect((await h.stripe.subscriptions.retrieve(sub.id)).status).toBe('active');
    expect((await h.stripe.invoices.retrieve(sub.latest_invoice as string)).status).toBe('paid');
    const types = h.sandbox.events().map((e) => e.type);
    expect(types).toEqual(
      expect.arrayContaining([
        'payment_intent.requires_action',
        'payment_intent.succeeded',
        'invoice.payment_succeeded',
      ]),
    );
    expect(h.sandbox.events('customer.subscription.updated').at(-1)?.data.object).toMatchObject({
      status: 'active',
    });
  });

  it('failing the challenge leaves the PaymentIntent needing a payment method and the subscription incomplete', async () => {
    const { sub, pi } = await subscribe('pm_card_threeDSecure2Required');
    await challenge(pi, 'fail');
    const after = await h.stripe.paymentIntents.retrieve(pi.id);
    expect(after.status).toBe('requires_payment_method');
    expect(after.last_payment_error?.code).toBe('payment_intent_authentication_failure');
    expect((await h.stripe.subscriptions.retrieve(sub.id)).status).toBe('incomplete');
  });

  it('authentication that succeeds can still be declined (4000 0082 6000 3178: insufficient funds)', async () => {
    const { sub, pi } = await subscribe('pm_card_authenticationRequiredChargeDeclinedInsufficientFunds');
    await challenge(pi, 'complete');
    const after = await h.stripe.paymentIntents.retrieve(pi.id);
    expect(after.status).toBe('requires_payment_method');
    expect(after.last_payment_error).toMatchObject({
      code: 'card_declined',
      decline_code: 'insufficient_funds',
    });
    expect((await h.stripe.subscriptions.retrieve(sub.id)).status).toBe('incomplete');
  });

  it('an on-session PaymentIntent asks for action and redirects back to return_url; off-session it fails authentication_required', async () => {
    const customer = await customerWith('pm_card_authenticationRequired');
    const pm = customer.invoice_settings.default_payment_method as string;
    const pi = await h.stripe.paymentIntents.create({
      amount: 1500,
      currency: 'usd',
      customer: customer.id,
      payment_method: pm,
      confirm: true,
      return_url: 'http://app.test/billing/payment/x',
    });
    expect(pi.status).toBe('requires_action');
    const res = await challenge(pi, 'complete');
    expect(res.status).toBe(303);
    const back = new URL(res.headers.get('location')!);
    expect(back.searchParams.get('payment_intent')).toBe(pi.id);
    expect(back.searchParams.get('redirect_status')).toBe('succeeded');
    await expect(
      h.stripe.paymentIntents.create({
        amount: 1500,
        currency: 'usd',
        customer: customer.id,
        payment_method: pm,
        confirm: true,
        off_session: true,
      }),
    ).rejects.toMatchObject({ statusCode: 402, code: 'authentication_required' });
  });

  it('4000 0025 0000 3155 set up through a SetupIntent (the hosted card page) renews off-session without authentication', async () => {
    const customer = await h.stripe.customers.create({ email: 'setup@example.com' });
    const si = await h.stripe.setupIntents.create({ customer: customer.id, usage: 'off_session' });
    const cardPage = `${base()}/_sandbox/setup/${si.id}`;
    expect((await fetch(`${cardPage}?client_secret=${si.client_secret}`)).status).toBe(200);
    const posted = await fetch(cardPage, {
      method: 'POST',
      body: new URLSearchParams({
        client_secret: si.client_secret!,
        number: '4000 0025 0000 3155',
        return_url: 'http://app.test/back',
      }),
      redirect: 'manual',
    });
    expect(posted.status).toBe(303);
    const pending = await h.stripe.setupIntents.retrieve(si.id);
    expect(pending.status).toBe('requires_action');
    const done = await challenge(pending, 'complete');
    expect(new URL(done.headers.get('location')!).searchParams.get('setup_intent')).toBe(si.id);
    const pm = (await h.stripe.setupIntents.retrieve(si.id)).payment_method as string;
    await h.stripe.customers.update(customer.id, { invoice_settings: { default_payment_method: pm } });
    const sub = await h.stripe.subscriptions.create({ customer: customer.id, items: [{ price: 'monthly' }] });
    expect(sub.status).toBe('active');
    await h.sandbox.advance(32 * DAY);
    expect((await h.stripe.subscriptions.retrieve(sub.id)).status).toBe('active');
  });

  it('a renewal on a card that always requires authentication sends invoice.payment_action_required and goes past_due', async () => {
    const customer = await customerWith('pm_card_visa');
    const sub = await h.stripe.subscriptions.create({ customer: customer.id, items: [{ price: 'monthly' }] });
    const threeDs = await h.stripe.paymentMethods.attach('pm_card_authenticationRequired', {
      customer: customer.id,
    });
    await h.stripe.customers.update(customer.id, {
      invoice_settings: { default_payment_method: threeDs.id },
    });
    await h.sandbox.advance(32 * DAY);
    expect((await h.stripe.subscriptions.retrieve(sub.id)).status).toBe('past_due');
    const [event] = h.sandbox.events('invoice.payment_action_required');
    const invoice = event!.data.object as Stripe.Invoice;
    const payments = await h.stripe.invoicePayments.list({ invoice: invoice.id });
    const pi = await h.stripe.paymentIntents.retrieve(payments.data[0]!.payment.payment_intent as string);
    expect(pi.status).toBe('requires_action');
    await challenge(pi, 'complete');
    expect((await h.stripe.subscriptions.retrieve(sub.id)).status).toBe('active');
    expect((await h.stripe.invoices.retrieve(invoice.id)).status).toBe('paid');
  });

  it('invoices.pay on a card that requires authentication answers 402 invoice_payment_intent_requires_action', async () => {
    const customer = await customerWith('pm_card_threeDSecure2Required');
    await h.stripe.invoiceItems.create({
      customer: customer.id,
      amount: 5000,
      currency: 'usd',
      description: 'Setup',
    });
    const invoice = await h.stripe.invoices.create({
      customer: customer.id,
      pending_invoice_items_behavior: 'include',
    });
    await h.stripe.invoices.finalizeInvoice(invoice.id!);
    const error = await h.stripe.invoices.pay(invoice.id!).catch((e: Stripe.errors.StripeError) => e);
    expect(error).toMatchObject({ statusCode: 402, code: 'invoice_payment_intent_requires_action' });
    expect((error as Stripe.errors.StripeError).payment_intent?.status).toBe('requires_action');
  });

  it('the challenge page needs the client secret', async () => {
    const { pi } = await subscribe('pm_card_threeDSecure2Required');
    expect((await fetch(`${base()}/_sandbox/3ds/${pi.id}?client_secret=wrong`)).status).toBe(404);
    const posted = await fetch(`${base()}/_sandbox/3ds/${pi.id}`, {
      method: 'POST',
      body: new URLSearchParams({ client_secret: 'wrong', outcome: 'complete' }),
    });
    expect(posted.status).toBe(404);
    expect((await h.stripe.paymentIntents.retrieve(pi.id)).status).toBe('requires_action');
  });
});
