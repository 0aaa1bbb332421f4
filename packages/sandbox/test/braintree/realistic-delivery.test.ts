import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox, startWebhookReceiver } from './support.js';

describe('Braintree sandbox: realistic webhook delivery (the default)', () => {
  let env: Awaited<ReturnType<typeof startSandbox>>;
  let hooks: Awaited<ReturnType<typeof startWebhookReceiver>>;
  afterEach(async () => {
    await env.server.close();
    await hooks.close();
  });

  it('notifies asynchronously, each notification at least once, settled on request', async () => {
    hooks = await startWebhookReceiver();
    env = await startSandbox({ webhook: { url: hooks.url }, delivery: { seed: 9, duplicates: 1 } });
    expect(env.sandbox.webhooks).toMatchObject({ mode: 'realistic', seed: 9 });
    const { customer } = await env.gateway.customer.create({ paymentMethodNonce: 'fake-valid-nonce' });
    const { subscription } = await env.gateway.subscription.create({
      paymentMethodToken: customer.paymentMethods?.[0]?.token ?? '',
      planId: 'monthly',
    });
    await env.gateway.subscription.cancel(subscription.id);
    await env.sandbox.webhooks.settled();
    const parsed = await Promise.all(
      hooks.received.map((h) => env.gateway.webhookNotification.parse(h.signature, h.payload)),
    );
    // duplicates: 1 sends every notification twice.
    expect(parsed.filter((n) => n.kind === 'subscription_canceled')).toHaveLength(2);
    expect(parsed.every((n) => 'subscription' in n && n.subscription.id === subscription.id)).toBe(true);
    expect(env.sandbox.deliveries.filter((d) => d.kind === 'subscription_canceled')).toHaveLength(2);
  });

  it('keeps notify() immediate, for tests that post one notification by hand', async () => {
    hooks = await startWebhookReceiver();
    env = await startSandbox({ webhook: { url: hooks.url } });
    const delivery = await env.sandbox.notify('check', 'x');
    expect(delivery.status).toBe(200);
    expect(hooks.received).toHaveLength(1);
  });
});
