import { signPayload } from '@tollgate/sandbox/stripe';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Users } from '../../src/auth/users.js';
import { braintreeCapabilities } from '../../src/billing/gateway/braintree/capabilities.js';
import type { PaymentGateway } from '../../src/billing/gateway/payment-gateway.js';
import { Checkouts, Reconciler } from '../../src/billing/index.js';
import { TestClock } from '../../src/core/clock.js';
import type { RunningServer } from '../../src/kernel/server.js';
import type { TestApp } from '../support/app.js';
import { ENGINES } from '../support/engines.js';
import { startStripeBillingApp, stopBillingApp } from './billing-app.js';
import { expectBillingError, type TestUser } from './contract/context.js';
import type { EditionSandbox } from './harness.js';
import { stripeHarness } from './stripe-harness.js';

const SECRET = 'whsec_test_tollgate';
const SUCCESS = 'https://app.test/billing/checkout/success?session_id={CHECKOUT_SESSION_ID}';

// Stripe Checkout and the billing portal: the session, the page, and the subscription synced back.
describe.each(ENGINES)('Stripe Checkout and the billing portal (%s)', (engine) => {
  const clock = new TestClock(new Date('2026-01-15T12:00:00Z'));
  const { plans } = stripeHarness;
  let sandbox: EditionSandbox;
  let t: TestApp;
  let server: RunningServer;
  let stripe: Stripe;
  let n = 0;

  beforeAll(async () => {
    ({ t, server, sandbox } = await startStripeBillingApp(engine, clock));
    const api = new URL((sandbox.config as { stripe: { apiBase: string } }).stripe.apiBase);
    stripe = new Stripe('sk_test_inspect', {
      host: api.hostname,
      port: Number(api.port),
      protocol: 'http',
      maxNetworkRetries: 0,
    });
  });
  afterAll(() => stopBillingApp({ t, server }, sandbox));

  const newUser = () =>
    t.app.container.make(Users).create<TestUser>({
      name: 'Checkout Customer',
      email: `checkout${++n}@example.com`,
      password: 'correct horse battery',
    });
  const reload = async (user: TestUser) => (await t.app.container.make(Users).find<TestUser>(user.id))!;
  const webhookUrl = () => `${server.url}${stripeHarness.webhook.path}`;
  /** The sandbox's `checkout.session.completed` for a session, as it was sent. */
  const completedEvent = (sessionId: string) =>
    sandbox.deliveries().find((d) => d.type === 'checkout.session.completed' && d.subject === sessionId)!
      .eventId;
  /** The same event under a new id (Stripe may send one state in several events), signed. */
  const postEvent = (eventId: string, newId?: string) => {
    const { body } = sandbox.signed(eventId);
    const copy = newId ? JSON.stringify({ ...JSON.parse(body), id: newId }) : body;
    return fetch(webhookUrl(), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': signPayload(copy, SECRET) },
      body: copy,
    });
  };
  /** What the customer's browser does on the sandbox's Checkout page, then the webhooks it caused, delivered. */
  const pay = async (url: string, number = '4242 4242 4242 4242') => {
    const response = await fetch(url, {
      method: 'POST',
      body: new URLSearchParams({ number }),
      redirect: 'manual',
    });
    await sandbox.settled();
    return response;
  };
  /** Pays on the Checkout page with the webhook endpoint unreachable: no event reaches the app. */
  const payUnseen = async (url: string) => {
    sandbox.setWebhook('http://127.0.0.1:9/unreachable');
    try {
      return await pay(url);
    } finally {
      sandbox.setWebhook(webhookUrl());
    }
  };

  it('newSubscription().checkout(): a session for the user’s customer; paying stores the subscription through the webhook', async () => {
    const user = await newUser();
    const session = await user
      .newSubscription('main', plans.monthly.id)
      .checkout({ successUrl: SUCCESS, cancelUrl: 'https://app.test/billing' });
    expect(session.id).toMatch(/^cs_test_/);
    const customer = (await reload(user)).stripe_id!;
    const remote = await stripe.checkout.sessions.retrieve(session.id);
    expect(remote).toMatchObject({
      mode: 'subscription',
      customer,
      client_reference_id: String(user.id),
      success_url: SUCCESS,
      cancel_url: 'https://app.test/billing',
    });
    const page = await pay(session.url);
    expect(page.headers.get('location')).toBe(SUCCESS.replace('{CHECKOUT_SESSION_ID}', session.id));
    const sub = (await user.subscription('main'))!;
    expect(sub).toMatchObject({ status: 'active', plan: plans.monthly.id });
    expect(await user.subscribed('main')).toBe(true);
    const provider = await stripe.subscriptions.retrieve(sub.providerId);
    expect(provider.metadata).toMatchObject({ name: 'main' });
    // The card paid with is the card on file, at Stripe too (Checkout sets it on the subscription only).
    const fresh = await reload(user);
    expect([fresh.card_brand, fresh.card_last_four]).toEqual(['Visa', '4242']);
    const cus = (await stripe.customers.retrieve(customer)) as Stripe.Customer;
    expect(cus.invoice_settings.default_payment_method).toBe(provider.default_payment_method);
    // Back at the success URL: the same row, nothing new.
    const done = await fresh.completeCheckout(session.id);
    expect(done).toMatchObject({ status: 'complete', paymentStatus: 'paid', mode: 'subscription' });
    expect(done.subscription?.id).toBe(sub.id);
    expect((await user.subscriptions()).length).toBe(1);
  });

  it('a duplicate, a re-sent copy under a new id, and a late copy after the return make no second row', async () => {
    const user = await newUser();
    const session = await user.newSubscription('main', plans.monthly.id).checkout({ successUrl: SUCCESS });
    await payUnseen(session.url);
    expect(await user.subscription('main')).toBeUndefined();
    // The return comes first: it stores the subscription from the session as Stripe has it now.
    const done = await (await reload(user)).completeCheckout(session.id);
    expect(done.subscription).toMatchObject({ status: 'active', name: 'main' });
    const eventId = completedEvent(session.id);
    expect((await postEvent(eventId)).status).toBe(200);
    expect((await postEvent(eventId)).status).toBe(200);
    expect((await postEvent(eventId, `${eventId}_copy`)).status).toBe(200);
    expect((await user.subscriptions()).map((s) => s.id)).toEqual([done.subscription!.id]);
  });

  it('the success return and the webhook at once (and twice each) make one row', async () => {
    const user = await newUser();
    const session = await user.newSubscription('main', plans.monthly.id).checkout({ successUrl: SUCCESS });
    await payUnseen(session.url);
    const eventId = completedEvent(session.id);
    const fresh = await reload(user);
    const results = await Promise.all([
      fresh.completeCheckout(session.id),
      postEvent(eventId),
      fresh.completeCheckout(session.id),
      postEvent(eventId, `${eventId}_again`),
    ]);
    expect([(results[1] as Response).status, (results[3] as Response).status]).toEqual([200, 200]);
    const rows = await user.subscriptions();
    expect(rows.length).toBe(1);
    expect((results[0] as { subscription: { id: number } }).subscription.id).toBe(rows[0]!.id);
    expect((results[2] as { subscription: { id: number } }).subscription.id).toBe(rows[0]!.id);
    expect(sandbox.counts().subscriptions).toBeGreaterThan(0);
  });

  it('a double submit with one request key gets the same session; a live subscription refuses another', async () => {
    const user = await newUser();
    const start = () =>
      user
        .newSubscription('main', plans.monthly.id)
        .checkout({ successUrl: SUCCESS, requestKey: `k-${user.id}` });
    const [a, b] = await Promise.all([start(), start()]);
    expect(a).toEqual(b);
    await pay(a.url);
    await expectBillingError(
      (await reload(user)).newSubscription('main', plans.other.id).checkout({ successUrl: SUCCESS }),
      'subscription_exists',
    );
  });

  it('two sessions opened in two tabs and both paid: the first stored, the second left for reconcile', async () => {
    const user = await newUser();
    const first = await user.newSubscription('main', plans.monthly.id).checkout({ successUrl: SUCCESS });
    const second = await (await reload(user))
      .newSubscription('main', plans.other.id)
      .checkout({ successUrl: SUCCESS });
    await pay(first.url);
    await pay(second.url);
    const rows = await user.subscriptions();
    expect(rows.map((r) => r.plan)).toEqual([plans.monthly.id]);
    const again = await (await reload(user)).completeCheckout(second.id);
    expect(again.status).toBe('complete');
    expect(again.subscription).toBeUndefined();
    expect((await user.subscriptions()).length).toBe(1);
    const report = await t.app.container
      .make(Reconciler)
      .run({ owner: { type: 'user', id: user.id }, fix: false, adoptAs: 'default' });
    expect(report.drift.filter((d) => d.kind === 'orphaned').map((d) => d.providerId)).toHaveLength(1);
  });

  it('a subscription whose first payment waits for 3-D Secure holds the name: Checkout is refused', async () => {
    const user = await newUser();
    await expect(
      user.newSubscription('main', plans.monthly.id).create('pm_card_threeDSecure2Required'),
    ).rejects.toMatchObject({ code: 'payment_action_required' });
    await expectBillingError(
      (await reload(user)).newSubscription('main', plans.monthly.id).checkout({ successUrl: SUCCESS }),
      'subscription_exists',
    );
  });

  it('a trial through Checkout: trialing, nothing charged', async () => {
    const user = await newUser();
    const session = await user
      .newSubscription('main', plans.monthly.id)
      .trialDays(7)
      .checkout({ successUrl: SUCCESS });
    await pay(session.url);
    const sub = (await user.subscription('main'))!;
    expect(sub.status).toBe('trialing');
    expect(sub.onTrial()).toBe(true);
    expect(await sandbox.payments((await reload(user)).stripe_id!)).toEqual([]);
  });

  it('another user’s session is not found, and an unpaid one stores nothing', async () => {
    const owner = await newUser();
    const other = await newUser();
    const session = await owner.newSubscription('main', plans.monthly.id).checkout({ successUrl: SUCCESS });
    await other.newSubscription('main', plans.monthly.id).checkout({ successUrl: SUCCESS });
    await expectBillingError(
      (await reload(other)).completeCheckout(session.id),
      'checkout_session_not_found',
    );
    const open = await (await reload(owner)).completeCheckout(session.id);
    expect(open).toMatchObject({ status: 'open', paymentStatus: 'unpaid' });
    expect(open.subscription).toBeUndefined();
    expect(await owner.subscriptions()).toEqual([]);
  });

  it('checkoutCharge(): a one-off payment on the Checkout page', async () => {
    const user = await newUser();
    const session = await user.checkoutCharge(1500, 'T-shirt', { successUrl: SUCCESS, quantity: 2 });
    await pay(session.url);
    const done = await (await reload(user)).completeCheckout(session.id);
    expect(done).toMatchObject({ mode: 'payment', status: 'complete', paymentStatus: 'paid' });
    expect(done.paymentId).toMatch(/^pi_/);
    expect(await user.subscriptions()).toEqual([]);
    // A recurring price is not a one-off payment: Stripe's refusal comes back as a billing error.
    await expectBillingError(user.checkout(plans.monthly.id, { successUrl: SUCCESS }), 'provider_error');
  });

  it('the billing portal: cancel at period end, switch plan and a new card come back through the webhooks', async () => {
    const user = await newUser();
    const session = await user.newSubscription('main', plans.monthly.id).checkout({ successUrl: SUCCESS });
    await pay(session.url);
    const url = await (await reload(user)).billingPortalUrl('https://app.test/dashboard/billing');
    const page = await (await fetch(url)).text();
    expect(page).toContain('Basic');
    expect(page).toContain('href="https://app.test/dashboard/billing"');
    const sub = (await user.subscription('main'))!;
    const act = async (form: Record<string, string>) => {
      const response = await fetch(url, {
        method: 'POST',
        body: new URLSearchParams(form),
        redirect: 'manual',
      });
      await sandbox.settled();
      return response;
    };

    expect(
      (await act({ action: 'switch', subscription: sub.providerId, price: plans.other.id })).status,
    ).toBe(303);
    expect((await user.subscription('main'))!.plan).toBe(plans.other.id);

    await act({ action: 'card', number: '5555 5555 5555 4444' });
    const fresh = await reload(user);
    expect([fresh.card_brand, fresh.card_last_four]).toEqual(['MasterCard', '4444']);

    await act({ action: 'cancel', subscription: sub.providerId });
    const cancelled = (await user.subscription('main'))!;
    expect(cancelled.onGracePeriod()).toBe(true);
    expect(cancelled.valid()).toBe(true);
    await act({ action: 'renew', subscription: sub.providerId });
    expect((await user.subscription('main'))!.onGracePeriod()).toBe(false);
    expect((await user.subscriptions()).length).toBe(1);
  });

  it('the portal shows the card on file the application shows, a card source (legacy token) included', async () => {
    const user = await newUser();
    await user.newSubscription('main', plans.monthly.id).create(stripeHarness.tokens.card);
    const fresh = await reload(user);
    expect([fresh.card_brand, fresh.card_last_four]).toEqual(['Visa', '4242']);
    const portal = async () => {
      const url = await (await reload(user)).billingPortalUrl('https://app.test/dashboard/billing');
      const html = await (await fetch(url)).text();
      return html.match(/<p data-portal-card>([^<]*)<\/p>/)?.[1];
    };
    expect(await portal()).toBe('Visa •••• 4242');
    await (await reload(user)).updateCard(stripeHarness.tokens.otherCard);
    expect(await portal()).toBe('MasterCard •••• 4444');
  });

  it('redirectToBillingPortal() answers a 303 to the portal', async () => {
    const user = await newUser();
    const response = await user.redirectToBillingPortal('https://app.test/billing');
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toMatch(/\/_sandbox\/portal\/bps_/);
  });

  it('an edition without hosted pages (Braintree) says so', async () => {
    const gateway = { capabilities: braintreeCapabilities } as unknown as PaymentGateway;
    const none = null as never;
    const checkouts = new Checkouts(gateway, none, none, none, none, none, none, none);
    const user = await newUser();
    const error = await expectBillingError(
      checkouts.portalUrl(user, 'https://app.test'),
      'unsupported_by_edition',
    );
    expect(error.message).toBe('The billing portal is not supported by the braintree edition.');
    await expectBillingError(checkouts.payment(user, 'p', { successUrl: SUCCESS }), 'unsupported_by_edition');
  });
});
