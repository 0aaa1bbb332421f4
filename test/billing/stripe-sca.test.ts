import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Users } from '../../src/auth/users.js';
import { BillingError, PaymentActionRequired, Payments } from '../../src/billing/index.js';
import { TestClock } from '../../src/core/clock.js';
import { EventsKey } from '../../src/core/keys.js';
import type { RunningServer } from '../../src/kernel/server.js';
import type { TestApp } from '../support/app.js';
import { ENGINES } from '../support/engines.js';
import { startStripeBillingApp, stopBillingApp } from './billing-app.js';
import type { TestUser } from './contract/context.js';
import type { EditionSandbox } from './harness.js';
import { incomplete } from './incomplete-payment.js';
import { pausedAfterAnswer } from './paused-gateway.js';
import { stripeHarness } from './stripe-harness.js';

/** What the customer's browser does on the issuer's (the sandbox's) 3-D Secure page. */
async function challenge(actionUrl: string | null, outcome: 'complete' | 'fail'): Promise<Response> {
  const url = new URL(actionUrl ?? '');
  return fetch(`${url.origin}${url.pathname}`, {
    method: 'POST',
    body: new URLSearchParams({ client_secret: url.searchParams.get('client_secret') ?? '', outcome }),
    redirect: 'manual',
  });
}

// Strong customer authentication: PaymentMethods, 3-D Secure and the IncompletePayment flow.
describe.each(ENGINES)('Stripe SCA: PaymentMethods and 3-D Secure (%s)', (engine) => {
  const clock = new TestClock(new Date('2026-01-15T12:00:00Z'));
  const { plans } = stripeHarness;
  let sandbox: EditionSandbox;
  let t: TestApp;
  let server: RunningServer;
  let n = 0;

  beforeAll(async () => {
    ({ t, server, sandbox } = await startStripeBillingApp(engine, clock));
  });
  afterAll(() => stopBillingApp({ t, server }, sandbox));

  const newUser = () =>
    t.app.container.make(Users).create<TestUser>({
      name: 'Strong Auth',
      email: `sca${++n}@example.com`,
      password: 'correct horse battery',
    });
  /** The challenge, then the webhooks it caused, delivered: nothing else tells the app. */
  const authenticate = async (actionUrl: string | null, outcome: 'complete' | 'fail') => {
    const response = await challenge(actionUrl, outcome);
    await sandbox.settled();
    return response;
  };
  const reload = async (user: TestUser) => (await t.app.container.make(Users).find<TestUser>(user.id))!;

  it('create() takes a PaymentMethod id: the card is stored from the PaymentMethod and the subscription is active', async () => {
    const user = await newUser();
    const sub = await user.newSubscription('main', plans.monthly.id).create('pm_card_visa');
    expect(sub.status).toBe('active');
    expect(await user.subscribed('main')).toBe(true);
    const fresh = await reload(user);
    expect([fresh.card_brand, fresh.card_last_four]).toEqual(['Visa', '4242']);
    await fresh.updateCard('pm_card_mastercard');
    expect([(await reload(user)).card_brand, (await reload(user)).card_last_four]).toEqual([
      'MasterCard',
      '4444',
    ]);
    // A legacy token after a PaymentMethod becomes the default again.
    await fresh.updateCard('tok_amex');
    expect((await reload(user)).card_last_four).toBe('0005');
    expect((await fresh.charge(1200)).status).toBe('succeeded');
  });

  it('a card that needs 3-D Secure: IncompletePayment with the payment, the row stored incomplete, not subscribed', async () => {
    const user = await newUser();
    const err = await incomplete(
      user.newSubscription('main', plans.monthly.id).create('pm_card_threeDSecure2Required'),
    );
    expect(err).toBeInstanceOf(BillingError);
    expect(err).toMatchObject({ code: 'payment_action_required', status: 402 });
    expect(err.requiresAction()).toBe(true);
    expect(err.payment).toMatchObject({ status: 'requires_action', amount: 1000, currency: 'usd' });
    expect(err.payment.id).toMatch(/^pi_/);
    expect(err.payment.clientSecret).toMatch(new RegExp(`^${err.payment.id}_secret_`));
    const sub = (await user.subscription('main'))!;
    expect(sub.status).toBe('incomplete');
    expect(sub.valid()).toBe(false);
    expect(await user.subscribed('main')).toBe(false);
    expect((await user.incompletePayment('main'))?.id).toBe(err.payment.id);
    expect((await user.findPayment(err.payment.id)).subscriptionId).toBe(sub.providerId);
  });

  it('a double submit (one request key) with a 3-D Secure card makes one subscription; both get the same IncompletePayment', async () => {
    const user = await newUser();
    const before = sandbox.counts().subscriptions;
    const create = () =>
      incomplete(
        user
          .newSubscription('main', plans.monthly.id)
          .create('pm_card_threeDSecure2Required', { requestKey: `sca-double-${user.id}` }),
      );
    const [a, b] = await Promise.all([create(), create()]);
    expect(a.payment.id).toBe(b.payment.id);
    expect(sandbox.counts().subscriptions - before).toBe(1);
    expect((await user.subscriptions()).map((s) => s.status)).toEqual(['incomplete']);
  });

  it('authenticated: the webhook activates the subscription, and syncing on return again changes nothing', async () => {
    const user = await newUser();
    const { payment } = await incomplete(
      user.newSubscription('main', plans.monthly.id).create('pm_card_authenticationRequired'),
    );
    expect((await authenticate(payment.actionUrl, 'complete')).status).toBe(200);
    expect(await user.subscribed('main')).toBe(true);
    expect((await user.subscription('main'))!.status).toBe('active');
    const payments = t.app.container.make(Payments);
    const confirmed = await user.findPayment(payment.id);
    expect(confirmed.status).toBe('succeeded');
    await Promise.all([payments.sync(confirmed), payments.sync(confirmed)]);
    expect((await user.subscription('main'))!.status).toBe('active');
    expect(await user.incompletePayment('main')).toBeNull();
    expect(await sandbox.payments((await reload(user)).stripe_id!)).toEqual([
      { amount: 1000, succeeded: true },
    ]);
  });

  // The sync on the customer's return fetches the subscription, then applies it. A webhook applying
  // a newer state in between (the provider ended it) must not be overwritten by the older one.
  it('a sync on return that fetched the subscription before the provider ended it does not store the older state', async () => {
    const user = await newUser();
    const { payment } = await incomplete(
      user.newSubscription('main', plans.monthly.id).create('pm_card_authenticationRequired'),
    );
    expect((await authenticate(payment.actionUrl, 'complete')).status).toBe(200);
    const confirmed = await user.findPayment(payment.id);
    const paused = pausedAfterAnswer(t.app.container, 'findSubscription');
    const sync = paused.construct(Payments).sync(confirmed);
    await paused.answered;
    const end = (async () => {
      await paused.gateway.cancelSubscription(confirmed.subscriptionId!, { atPeriodEnd: false });
      await sandbox.settled();
    })().finally(paused.resume);
    await Promise.all([sync, end]);
    await sandbox.settled();
    expect((await user.subscription('main'))!.status).toBe('canceled');
    expect(await user.subscribed('main')).toBe(false);
  });

  it('two confirmations at once (a double click on the challenge) charge once and activate once', async () => {
    const user = await newUser();
    const { payment } = await incomplete(
      user.newSubscription('main', plans.monthly.id).create('pm_card_threeDSecure2Required'),
    );
    const [a, b] = await Promise.all([
      authenticate(payment.actionUrl, 'complete'),
      authenticate(payment.actionUrl, 'complete'),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    const payments = t.app.container.make(Payments);
    const confirmed = await user.findPayment(payment.id);
    await Promise.all([payments.sync(confirmed), payments.sync(confirmed)]);
    expect((await user.subscriptions()).map((s) => s.status)).toEqual(['active']);
    expect(await sandbox.payments((await reload(user)).stripe_id!)).toEqual([
      { amount: 1000, succeeded: true },
    ]);
  });

  it('failed authentication leaves it incomplete; a new create() with another card replaces it', async () => {
    const user = await newUser();
    const { payment } = await incomplete(
      user.newSubscription('main', plans.monthly.id).create('pm_card_threeDSecure2Required'),
    );
    await authenticate(payment.actionUrl, 'fail');
    const failed = await user.findPayment(payment.id);
    expect(failed.status).toBe('requires_payment_method');
    expect(failed.failureMessage).toMatch(/unable to authenticate/);
    await t.app.container.make(Payments).sync(failed);
    expect((await user.subscription('main'))!.status).toBe('incomplete');
    expect(await user.subscribed('main')).toBe(false);
    const sub = await (await reload(user)).newSubscription('main', plans.monthly.id).create('pm_card_visa');
    expect(sub.status).toBe('active');
    expect((await user.subscriptions()).map((s) => s.status).sort()).toEqual(['active', 'canceled']);
  });

  it('confirmed in another tab before the webhook came: a new create() finds it paid, stores it active and makes no second one', async () => {
    const user = await newUser();
    const { payment } = await incomplete(
      user.newSubscription('main', plans.monthly.id).create('pm_card_threeDSecure2Required'),
    );
    // The creation's own events first: one still being handled when the challenge completes would
    // apply the subscription as Stripe has it then (active), which is what this test rules out.
    await sandbox.settled();
    sandbox.setWebhook('http://127.0.0.1:9/unreachable');
    try {
      await authenticate(payment.actionUrl, 'complete');
    } finally {
      sandbox.setWebhook(`${server.url}${stripeHarness.webhook.path}`);
    }
    expect((await user.subscription('main'))!.status).toBe('incomplete');
    const before = sandbox.counts().subscriptions;
    const err = await (await reload(user))
      .newSubscription('main', plans.monthly.id)
      .create('pm_card_visa')
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'subscription_exists' });
    expect(sandbox.counts().subscriptions).toBe(before);
    expect((await user.subscriptions()).map((s) => s.status)).toEqual(['active']);
    expect(await user.subscribed('main')).toBe(true);
  });

  it('declined after authentication (insufficient funds) or at once: no live subscription, card_declined', async () => {
    const user = await newUser();
    const err = (await user
      .newSubscription('main', plans.monthly.id)
      .create('pm_card_chargeCustomerFail')
      .catch((e: unknown) => e)) as BillingError;
    expect(err).toMatchObject({ code: 'card_declined' });
    expect(await user.subscriptions()).toEqual([]);
  });

  it('charge() with a card that needs 3-D Secure throws IncompletePayment; authenticated, the payment succeeded', async () => {
    const user = await newUser();
    await user.updateCard('pm_card_threeDSecure2Required');
    const { payment } = await incomplete(user.charge(1500, { requestKey: 'charge-sca-1' }));
    expect(payment).toMatchObject({ status: 'requires_action', amount: 1500, subscriptionId: null });
    await authenticate(payment.actionUrl, 'complete');
    expect((await user.findPayment(payment.id)).status).toBe('succeeded');
    // A PaymentMethod given for one charge is used for it.
    expect((await user.charge(1500, { payment_method: 'pm_card_visa' })).status).toBe('succeeded');
  });

  it('invoiceFor() on a card that needs 3-D Secure throws IncompletePayment for the invoice', async () => {
    const user = await newUser();
    await user.updateCard('pm_card_authenticationRequired');
    const { payment } = await incomplete(user.invoiceFor('Setup', 4000));
    expect(payment.invoiceId).toMatch(/^in_/);
    await authenticate(payment.actionUrl, 'complete');
    expect((await user.findInvoice(payment.invoiceId!))?.paid()).toBe(true);
  });

  it('a swap whose proration needs 3-D Secure throws IncompletePayment and keeps the old plan; authenticated, the new plan applies', async () => {
    const user = await newUser();
    const sub = await user.newSubscription('main', plans.monthly.id).create('pm_card_visa');
    await (await reload(user)).updateCard('pm_card_threeDSecure2Required');
    const { payment } = await incomplete(sub.swap(plans.other.id));
    expect(payment).toMatchObject({ status: 'requires_action', subscriptionId: sub.providerId });
    // Stripe holds the change as a pending update: nothing is granted before it is paid.
    await sandbox.settled();
    const waiting = (await user.subscription('main'))!;
    expect([waiting.plan, waiting.status]).toEqual([plans.monthly.id, 'active']);
    await authenticate(payment.actionUrl, 'complete');
    await sandbox.settled();
    const swapped = (await user.subscription('main'))!;
    expect([swapped.plan, swapped.status]).toEqual([plans.other.id, 'active']);
  });

  it("another user's payment is not found", async () => {
    const owner = await newUser();
    const { payment } = await incomplete(
      owner.newSubscription('main', plans.monthly.id).create('pm_card_threeDSecure2Required'),
    );
    const other = await newUser();
    await other.updateCard('pm_card_visa');
    await expect((await reload(other)).findPayment(payment.id)).rejects.toMatchObject({
      code: 'payment_not_found',
      status: 404,
    });
  });

  it('a renewal that needs 3-D Secure dispatches PaymentActionRequired and waits; authenticated, it is active again', async () => {
    const seen: PaymentActionRequired[] = [];
    const stop = t.app.container.make(EventsKey).listen(PaymentActionRequired, (event) => {
      seen.push(event);
    });
    const user = await newUser();
    await user.newSubscription('main', plans.monthly.id).create('pm_card_visa');
    await (await reload(user)).updateCard('pm_card_authenticationRequired');
    await sandbox.advanceDays(32);
    stop();
    const sub = (await user.subscription('main'))!;
    expect(sub.status).toBe('past_due');
    const pending = await user.incompletePayment('main');
    expect(pending).toMatchObject({
      status: 'requires_action',
      amount: 1000,
      subscriptionId: sub.providerId,
    });
    // Others whose cards always ask for 3-D Secure renewed too; this user's event names its payment.
    expect(seen.filter((e) => e.userId === user.id).map((e) => e.payment.id)).toEqual([pending!.id]);
    await authenticate(pending!.actionUrl, 'complete');
    expect((await user.subscription('main'))!.status).toBe('active');
    expect(await user.incompletePayment('main')).toBeNull();
  });
});
