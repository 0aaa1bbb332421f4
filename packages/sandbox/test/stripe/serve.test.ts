import { serveStripeSandbox } from '@tollgate/sandbox/stripe';
import Stripe from 'stripe';
import { afterEach, describe, expect, it } from 'vitest';
import { DAY, type Receiver, startReceiver } from './support.js';

describe('Stripe sandbox: standalone server', () => {
  let receiver: Receiver | undefined;
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await close?.();
    await receiver?.close();
    close = undefined;
    receiver = undefined;
  });

  it('serves the API and the control routes on a real port, delivering signed webhooks', async () => {
    receiver = await startReceiver('whsec_cli');
    const running = await serveStripeSandbox({
      host: '127.0.0.1',
      port: 0,
      webhookUrl: receiver.url,
      webhookSecret: 'whsec_cli',
      plans: [{ id: 'basic', amount: 500, interval: 'month', product: 'Basic', trial_period_days: 7 }],
    });
    close = running.close;
    expect(running.url).toBe(`http://127.0.0.1:${running.port}`);
    const stripe = new Stripe('sk_test_cli', {
      host: '127.0.0.1',
      port: running.port,
      protocol: 'http',
      maxNetworkRetries: 0,
    });
    const customer = await stripe.customers.create({ source: 'tok_visa' });
    const sub = await stripe.subscriptions.create({
      customer: customer.id,
      items: [{ plan: 'basic' }],
      trial_from_plan: true,
    });
    expect(sub.status).toBe('trialing');

    const advanced = await fetch(`${running.url}/_sandbox/advance`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ seconds: 7 * DAY }),
    });
    // Two steps: trial_will_end three days before the end, then the trial's end.
    expect(((await advanced.json()) as { steps: number }).steps).toBe(2);
    expect((await stripe.subscriptions.retrieve(sub.id)).status).toBe('active');
    const state = (await (await fetch(`${running.url}/_sandbox/state`)).json()) as {
      subscriptions: Stripe.Subscription[];
    };
    expect(state.subscriptions[0]!.status).toBe('active');
    // Webhooks arrive after the calls that caused them: wait for every delivery.
    await fetch(`${running.url}/_sandbox/settle`, { method: 'POST' });
    expect(receiver.events.some((e) => e.type === 'invoice.payment_succeeded')).toBe(true);
    const warning = receiver.events.find((e) => e.type === 'customer.subscription.trial_will_end')!;
    expect(warning.created).toBe(sub.trial_end! - 3 * DAY);
  });

  it('requires a webhook secret with a webhook URL', async () => {
    await expect(serveStripeSandbox({ port: 0, webhookUrl: 'http://127.0.0.1:1/hook' })).rejects.toThrow(
      /webhookSecret/,
    );
  });
});
