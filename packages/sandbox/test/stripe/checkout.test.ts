import type Stripe from 'stripe';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DAY, type Harness, type Receiver, startReceiver, startSandbox } from './support.js';

const SECRET = 'whsec_checkout';

/**
 * Checkout Sessions and the customer portal through the official SDK, and their stand-in pages
 * as a browser posts them (https://docs.stripe.com/api/checkout/sessions,
 * https://docs.stripe.com/api/customer_portal/sessions).
 */
describe('Stripe sandbox: Checkout and the customer portal', () => {
  let h: Harness;
  let receiver: Receiver;
  beforeEach(async () => {
    receiver = await startReceiver(SECRET);
    // Ordered delivery: these tests read the events in the order Stripe emits them.
    h = await startSandbox({ webhook: { url: receiver.url, secret: SECRET }, delivery: 'ordered' });
  });
  afterEach(async () => {
    await h.close();
    await receiver.close();
  });

  const pay = (session: Stripe.Checkout.Session, number: string) =>
    fetch(session.url!, { method: 'POST', body: new URLSearchParams({ number }), redirect: 'manual' });
  const portalPost = (url: string, form: Record<string, string>) =>
    fetch(url, { method: 'POST', body: new URLSearchParams(form), redirect: 'manual' });
  const subscriptionSession = async (params: Partial<Stripe.Checkout.SessionCreateParams> = {}) => {
    const customer = await h.stripe.customers.create({ email: 'ada@example.com' });
    const session = await h.stripe.checkout.sessions.create({
      mode: 'subscription',
      customer: customer.id,
      line_items: [{ price: 'monthly', quantity: 1 }],
      success_url: 'https://app.test/billing/checkout/success?session_id={CHECKOUT_SESSION_ID}',
      cancel_url: 'https://app.test/billing',
      client_reference_id: '42',
      subscription_data: { metadata: { name: 'main' } },
      ...params,
    });
    return { customer, session };
  };

  it('creates an open session with its hosted page, and shows line items only when expanded', async () => {
    const { customer, session } = await subscriptionSession();
    expect(session).toMatchObject({
      object: 'checkout.session',
      mode: 'subscription',
      status: 'open',
      payment_status: 'unpaid',
      customer: customer.id,
      client_reference_id: '42',
      amount_total: 1000,
      currency: 'usd',
      subscription: null,
    });
    expect(session.id).toMatch(/^cs_test_/);
    expect(session.url).toBe(`http://127.0.0.1:${h.port}/_sandbox/checkout/${session.id}`);
    expect(session.line_items).toBeUndefined();
    const expanded = await h.stripe.checkout.sessions.retrieve(session.id, { expand: ['line_items'] });
    expect(expanded.line_items?.data).toMatchObject([
      { description: 'Pro', quantity: 1, amount_total: 1000 },
    ]);
    const page = await (await fetch(session.url!)).text();
    expect(page).toContain('Pro');
    expect(page).toContain('$10.00 / month');
    expect(page).toContain('4242 4242 4242 4242');
  });

  it('refuses what Stripe refuses: a recurring price in payment mode, no recurring price in subscription mode, no success_url', async () => {
    const base = { success_url: 'https://app.test/ok', line_items: [{ price: 'monthly' }] };
    await expect(h.stripe.checkout.sessions.create({ ...base, mode: 'payment' })).rejects.toMatchObject({
      statusCode: 400,
      message: expect.stringContaining('recurring price'),
    });
    await expect(
      h.stripe.checkout.sessions.create({
        mode: 'subscription',
        success_url: 'https://app.test/ok',
        line_items: [{ price_data: { currency: 'usd', unit_amount: 500, product_data: { name: 'Tee' } } }],
      }),
    ).rejects.toMatchObject({ statusCode: 400 });
    await expect(
      h.stripe.checkout.sessions.create({ mode: 'subscription', line_items: [{ price: 'monthly' }] }),
    ).rejects.toMatchObject({ statusCode: 400, param: 'success_url' });
  });

  it('paying makes the subscription with the metadata, completes the session and redirects with its id', async () => {
    const { customer, session } = await subscriptionSession();
    const response = await pay(session, '4242 4242 4242 4242');
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe(
      `https://app.test/billing/checkout/success?session_id=${session.id}`,
    );
    const done = await h.stripe.checkout.sessions.retrieve(session.id, { expand: ['subscription'] });
    expect(done).toMatchObject({
      status: 'complete',
      payment_status: 'paid',
      customer: customer.id,
      url: null,
    });
    const sub = done.subscription as Stripe.Subscription;
    expect(sub).toMatchObject({ status: 'active', customer: customer.id, metadata: { name: 'main' } });
    expect(sub.items.data[0]!.price.id).toBe('monthly');
    const types = receiver.events.map((e) => e.type);
    expect(types).toContain('customer.subscription.created');
    expect(types.at(-1)).toBe('checkout.session.completed');
    const completed = receiver.events.at(-1)!.data.object as Stripe.Checkout.Session;
    expect(completed).toMatchObject({ id: session.id, subscription: sub.id, client_reference_id: '42' });
    // A completed session's page no longer takes payment.
    expect((await pay(session, '4242424242424242')).status).toBe(410);
    expect(h.sandbox.store.subscriptions.size).toBe(1);
  });

  it('a declined card makes nothing and keeps the session open; a trial charges nothing', async () => {
    const { session } = await subscriptionSession();
    const declined = await pay(session, '4000 0000 0000 0002');
    expect(declined.status).toBe(402);
    expect(await declined.text()).toContain('Your card was declined.');
    expect(h.sandbox.store.subscriptions.size).toBe(0);
    expect((await h.stripe.checkout.sessions.retrieve(session.id)).status).toBe('open');

    const trial = await subscriptionSession({ subscription_data: { trial_period_days: 14 } });
    await pay(trial.session, '4242424242424242');
    const done = await h.stripe.checkout.sessions.retrieve(trial.session.id, { expand: ['subscription'] });
    expect(done.payment_status).toBe('no_payment_required');
    expect(done.subscription).toMatchObject({ status: 'trialing' });
    expect((done.subscription as Stripe.Subscription).trial_end).toBe(h.sandbox.store.now() + 14 * DAY);
  });

  it('a card that asks for 3-D Secure goes through the challenge, then completes', async () => {
    const { session } = await subscriptionSession();
    const response = await pay(session, '4000 0027 6000 3184');
    expect(response.status).toBe(303);
    const challenge = response.headers.get('location')!;
    expect(challenge).toMatch(/\/_sandbox\/3ds\/pi_/);
    const url = new URL(challenge);
    const back = await fetch(`${url.origin}${url.pathname}`, {
      method: 'POST',
      body: new URLSearchParams({
        client_secret: url.searchParams.get('client_secret')!,
        return_url: url.searchParams.get('return_url')!,
        outcome: 'complete',
      }),
      redirect: 'manual',
    });
    const finish = await fetch(back.headers.get('location')!, { redirect: 'manual' });
    expect(finish.headers.get('location')).toContain(`session_id=${session.id}`);
    const done = await h.stripe.checkout.sessions.retrieve(session.id, { expand: ['subscription'] });
    expect(done.status).toBe('complete');
    expect(done.subscription).toMatchObject({ status: 'active' });
  });

  it('payment mode charges the inline price; setup mode saves the card', async () => {
    const payment = await h.stripe.checkout.sessions.create({
      mode: 'payment',
      success_url: 'https://app.test/ok?s={CHECKOUT_SESSION_ID}',
      line_items: [
        { price_data: { currency: 'usd', unit_amount: 1500, product_data: { name: 'Tee' } }, quantity: 2 },
      ],
    });
    expect(payment.amount_total).toBe(3000);
    expect((await pay(payment, '4242424242424242')).status).toBe(303);
    const paid = await h.stripe.checkout.sessions.retrieve(payment.id, { expand: ['payment_intent'] });
    expect(paid.payment_status).toBe('paid');
    expect(paid.payment_intent).toMatchObject({ status: 'succeeded', amount: 3000 });

    const customer = await h.stripe.customers.create({ email: 'setup@example.com' });
    const setup = await h.stripe.checkout.sessions.create({
      mode: 'setup',
      customer: customer.id,
      success_url: 'https://app.test/ok',
    });
    await pay(setup, '5555555555554444');
    const saved = await h.stripe.checkout.sessions.retrieve(setup.id, { expand: ['setup_intent'] });
    expect(saved.setup_intent).toMatchObject({ status: 'succeeded' });
    const pms = await h.stripe.paymentMethods.list({ customer: customer.id, type: 'card' });
    expect(pms.data[0]?.card?.last4).toBe('4444');
  });

  it('expires a session: checkout.session.expired, and its page is gone', async () => {
    const { session } = await subscriptionSession();
    const expired = await h.stripe.checkout.sessions.expire(session.id);
    expect(expired).toMatchObject({ status: 'expired', url: null });
    expect(receiver.events.map((e) => e.type)).toContain('checkout.session.expired');
    expect((await fetch(session.url!)).status).toBe(410);
    await expect(h.stripe.checkout.sessions.expire(session.id)).rejects.toMatchObject({ statusCode: 400 });
  });

  it('the portal session links to a page that cancels at period end, renews, switches plan and replaces the card', async () => {
    const { customer, session } = await subscriptionSession();
    await pay(session, '4242424242424242');
    const portal = await h.stripe.billingPortal.sessions.create({
      customer: customer.id,
      return_url: 'https://app.test/billing',
    });
    expect(portal).toMatchObject({
      object: 'billing_portal.session',
      customer: customer.id,
      return_url: 'https://app.test/billing',
    });
    expect(portal.url).toBe(`http://127.0.0.1:${h.port}/_sandbox/portal/${portal.id}`);
    const page = await (await fetch(portal.url)).text();
    expect(page).toContain('Renews on');
    expect(page).toContain('href="https://app.test/billing"');
    const sub = [...h.sandbox.store.subscriptions.values()][0]!;

    expect((await portalPost(portal.url, { action: 'cancel', subscription: sub.id })).status).toBe(303);
    expect((await h.stripe.subscriptions.retrieve(sub.id)).cancel_at_period_end).toBe(true);
    expect(await (await fetch(portal.url)).text()).toContain('Cancels on');
    await portalPost(portal.url, { action: 'renew', subscription: sub.id });
    expect((await h.stripe.subscriptions.retrieve(sub.id)).cancel_at_period_end).toBe(false);

    await portalPost(portal.url, { action: 'switch', subscription: sub.id, price: 'team' });
    expect((await h.stripe.subscriptions.retrieve(sub.id)).items.data[0]!.price.id).toBe('team');

    const before = receiver.events.length;
    await portalPost(portal.url, { action: 'card', number: '5555 5555 5555 4444' });
    const updated = await h.stripe.customers.retrieve(customer.id, {
      expand: ['invoice_settings.default_payment_method'],
    });
    const pm = (updated as Stripe.Customer).invoice_settings.default_payment_method as Stripe.PaymentMethod;
    expect(pm.card?.last4).toBe('4444');
    expect(receiver.events.slice(before).map((e) => e.type)).toEqual(
      expect.arrayContaining([
        'payment_method.attached',
        'customer.updated',
        'customer.subscription.updated',
      ]),
    );
    const declined = await portalPost(portal.url, { action: 'card', number: '4000000000000002' });
    expect(declined.status).toBe(402);
    // Another customer's subscription is not this portal's to change.
    const other = await h.stripe.customers.create({
      email: 'other@example.com',
      payment_method: 'pm_card_visa',
      invoice_settings: { default_payment_method: 'pm_card_visa' },
    });
    const theirs = await h.stripe.subscriptions.create({ customer: other.id, items: [{ price: 'monthly' }] });
    expect((await portalPost(portal.url, { action: 'cancel', subscription: theirs.id })).status).toBe(402);
    expect((await h.stripe.subscriptions.retrieve(theirs.id)).cancel_at_period_end).toBe(false);
  });

  it('a portal session needs a customer and a return_url', async () => {
    await expect(
      h.stripe.billingPortal.sessions.create({ customer: 'cus_nope', return_url: 'https://app.test' }),
    ).rejects.toMatchObject({ statusCode: 404 });
    const customer = await h.stripe.customers.create({ email: 'x@example.com' });
    await expect(h.stripe.billingPortal.sessions.create({ customer: customer.id })).rejects.toMatchObject({
      statusCode: 400,
      param: 'return_url',
    });
  });
});
