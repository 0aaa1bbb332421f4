import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type WebhookStep, webhookPipeline } from '../../src/billing/index.js';
import { TestClock } from '../../src/core/clock.js';
import type { RunningServer } from '../../src/kernel/server.js';
import type { TestApp } from '../support/app.js';
import { ENGINES } from '../support/engines.js';
import { startBillingApp, stopBillingApp } from './billing-app.js';
import type { EditionSandbox } from './harness.js';
import { stripeHarness } from './stripe-harness.js';

/** Events the added step saw, after the signature was verified. */
const seen: string[] = [];

/** A step of the application's own: answers `customer.created` itself (202), before the claim. */
const ownCustomerEvents: WebhookStep = (delivery) => {
  seen.push(delivery.event.name);
  if (delivery.event.name === 'customer.created') delivery.response = delivery.c.json({ ours: true }, 202);
};

class StepsController extends stripeHarness.webhook.controller {
  protected override get steps(): readonly WebhookStep[] {
    return [webhookPipeline[0]!, ownCustomerEvents, ...webhookPipeline.slice(1)];
  }
}

describe.each(ENGINES)('billing webhooks run named steps an application can add to (%s)', (engine) => {
  const clock = new TestClock(new Date('2026-01-15T12:00:00Z'));
  let sandbox: EditionSandbox;
  let t: TestApp;
  let server: RunningServer;

  beforeAll(async () => {
    sandbox = await stripeHarness.startSandbox({ clock, plans: [], coupons: [], currency: 'usd' });
    ({ t, server } = await startBillingApp({
      engine,
      harness: stripeHarness,
      sandbox,
      clock,
      billing: { plans: [] },
      controller: StepsController,
    }));
  });
  afterAll(() => stopBillingApp({ t, server }, sandbox));

  it('a step after verify sees the verified event and answers it; an unsigned post never reaches it', async () => {
    const base = new URL(String((sandbox.config.stripe as { apiBase: string }).apiBase));
    const stripe = new Stripe('sk_test_dashboard', {
      host: base.hostname,
      port: Number(base.port),
      protocol: 'http',
      maxNetworkRetries: 0,
    });
    const customer = await stripe.customers.create({ email: 'steps@example.com' });
    await sandbox.settled();
    expect(seen).toContain('customer.created');
    const delivery = sandbox
      .deliveries()
      .find((d) => d.type === 'customer.created' && d.subject === customer.id);
    expect(delivery?.status).toBe(202);

    // Counted from here: the sandbox may deliver customer.created again (a retry under load).
    const seenBefore = seen.length;
    const unsigned = await fetch(`${server.url}${stripeHarness.webhook.path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id: 'evt_unsigned', type: 'customer.created' }),
    });
    expect(unsigned.status).toBe(400);
    expect(seen).toHaveLength(seenBefore);
  });
});
