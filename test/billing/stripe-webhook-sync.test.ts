import Stripe from 'stripe';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Users } from '../../src/auth/users.js';
import { TestClock } from '../../src/core/clock.js';
import type { RunningServer } from '../../src/kernel/server.js';
import type { TestApp } from '../support/app.js';
import { ENGINES } from '../support/engines.js';
import { HELD_WEBHOOKS, startBillingApp, stopBillingApp } from './billing-app.js';
import type { TestUser } from './contract/context.js';
import { type EditionSandbox, reportSeed } from './harness.js';
import { stripeHarness } from './stripe-harness.js';

// Invoice, customer and payment-method events keep local state in step, whatever else is lost.
describe.each(ENGINES)('Stripe: invoice, customer and payment-method webhooks (%s)', (engine) => {
  const clock = new TestClock(new Date('2026-01-15T12:00:00Z'));
  const { plans } = stripeHarness;
  let sandbox: EditionSandbox;
  let t: TestApp;
  let server: RunningServer;
  let stripe: Stripe;

  beforeAll(async () => {
    sandbox = await stripeHarness.startSandbox({
      clock,
      plans: [plans.monthly],
      coupons: [],
      currency: 'usd',
    });
    ({ t, server } = await startBillingApp({
      engine,
      harness: stripeHarness,
      sandbox,
      clock,
      billing: { plans: [plans.monthly] },
      controller: stripeHarness.webhook.controller,
    }));
    const base = new URL(String((sandbox.config.stripe as { apiBase: string }).apiBase));
    stripe = new Stripe('sk_test_dashboard', {
      host: base.hostname,
      port: Number(base.port),
      protocol: 'http',
      maxNetworkRetries: 0,
    });
  });
  afterAll(() => stopBillingApp({ t, server }, sandbox));
  afterEach(({ task }) => {
    if (task.result?.state === 'fail') reportSeed('stripe', sandbox);
  });

  const card = async (user: TestUser) => {
    const fresh = (await t.app.container.make(Users).find<TestUser>(user.id))!;
    return [fresh.card_brand, fresh.card_last_four];
  };

  it('a new default PaymentMethod, then its removal: customer.updated and payment_method.* keep the card in step', async () => {
    const user = await t.app.container.make(Users).create<TestUser>({
      name: 'Card Changer',
      email: 'cards@example.com',
      password: 'correct horse battery',
    });
    await user.newSubscription('main', plans.monthly.id).create(stripeHarness.tokens.card);
    await sandbox.settled();
    expect(await card(user)).toEqual(['Visa', '4242']);
    const customer = (await t.app.container.make(Users).find<TestUser>(user.id))!.stripe_id!;

    const pm = await stripe.paymentMethods.attach('pm_card_mastercard', { customer });
    await stripe.customers.update(customer, { invoice_settings: { default_payment_method: pm.id } });
    await sandbox.settled();
    expect(await card(user)).toEqual(['MasterCard', '4444']);

    await stripe.paymentMethods.detach(pm.id);
    await sandbox.settled();
    // Back to the card source the subscription was made with.
    expect(await card(user)).toEqual(['Visa', '4242']);
  });

  it('invoice.payment_failed alone (the subscription events lost) makes the row past_due', async () => {
    const user = await t.app.container.make(Users).create<TestUser>({
      name: 'Lost Events',
      email: 'lost@example.com',
      password: 'correct horse battery',
    });
    const sub = await user
      .newSubscription('main', plans.monthly.id)
      .trialDays(2)
      .create(stripeHarness.tokens.failsLater);
    await sandbox.settled();
    const from = sandbox.deliveries().length;
    sandbox.setWebhook(`${server.url}${HELD_WEBHOOKS}`);
    try {
      await sandbox.advanceDays(3);
    } finally {
      sandbox.setWebhook(`${server.url}${stripeHarness.webhook.path}`);
    }
    expect((await user.subscription('main'))!.status).toBe('trialing');
    const failed = sandbox
      .deliveries()
      .slice(from)
      .find((d) => d.type === 'invoice.payment_failed')!;
    expect(failed).toBeDefined();
    const { body, headers } = sandbox.signed(failed.eventId);
    const response = await fetch(`${server.url}${stripeHarness.webhook.path}`, {
      method: 'POST',
      body,
      headers,
    });
    expect(response.status).toBe(200);
    const after = (await user.subscription('main'))!;
    expect(after.providerId).toBe(sub.providerId);
    expect(after.status).toBe('past_due');
  });

  it('an event for a customer that is not one of ours changes nothing and is acknowledged', async () => {
    const stranger = await stripe.customers.create({ email: 'stranger@example.com' });
    await stripe.customers.update(stranger.id, { name: 'Someone Else' });
    await sandbox.settled();
    const updated = sandbox
      .deliveries()
      .filter((d) => d.type === 'customer.updated' && d.subject === stranger.id);
    expect(updated.length).toBeGreaterThan(0);
    expect(updated.every((d) => d.status === 200)).toBe(true);
  });
});
