import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { StripeSandboxOptions } from '@tollgate/sandbox/stripe';
import { afterEach, describe, expect, it } from 'vitest';
import { type Harness, type Receiver, startReceiver, startSandbox } from './support.js';

const SECRET = 'whsec_realistic';

describe('Stripe sandbox: realistic webhook delivery (the default)', () => {
  let h: Harness;
  let receiver: Receiver;
  afterEach(async () => {
    await h.close();
    await receiver.close();
  });

  const start = async (delivery?: StripeSandboxOptions['delivery']) => {
    receiver = await startReceiver(SECRET);
    h = await startSandbox({ webhook: { url: receiver.url, secret: SECRET }, delivery });
  };

  const subscribe = async () => {
    const customer = await h.stripe.customers.create({ email: 'real@example.com', source: 'tok_visa' });
    return h.stripe.subscriptions.create({ customer: customer.id, items: [{ price: 'monthly' }] });
  };

  it('delivers after the call returns, every event at least once, some twice, once settled', async () => {
    await start({ seed: 7, duplicates: 0.5, maxDelayMs: 200 });
    expect(h.sandbox.webhooks.mode).toBe('realistic');
    expect(h.sandbox.webhooks.seed).toBe(7);
    await subscribe();
    // The call has returned; its events are still on their way.
    expect(h.sandbox.webhooks.pending).toBeGreaterThan(0);
    await h.sandbox.webhooks.settled();
    expect(h.sandbox.webhooks.pending).toBe(0);
    const emitted = h.sandbox.events().map((e) => e.id);
    const received = receiver.events.map((e) => e.id);
    expect(new Set(received)).toEqual(new Set(emitted));
    expect(received.length).toBeGreaterThan(emitted.length);
  });

  it('retries a non-2xx answer with backoff until it is accepted, and gives up after the last retry', async () => {
    await start({ seed: 3, duplicates: 0, maxDelayMs: 0, retryDelaysMs: [5, 5, 5] });
    receiver.failNext = 2;
    const customer = await h.stripe.customers.create({ email: 'retry@example.com' });
    await h.sandbox.webhooks.settled();
    const attempts = h.sandbox.deliveries.filter((d) => d.type === 'customer.created');
    expect(attempts.map((a) => a.status)).toEqual([503, 503, 200]);
    expect(attempts.at(-1)).toMatchObject({ ok: true, status: 200 });
    expect(attempts.map((a) => a.attempt)).toEqual(attempts.map((_, i) => i + 1));
    expect((receiver.events.at(-1)!.data.object as { id: string }).id).toBe(customer.id);

    receiver.status = 500;
    await h.stripe.customers.create({ email: 'given-up@example.com' });
    await h.sandbox.webhooks.settled();
    const last = h.sandbox.deliveries.filter((d) => d.type === 'customer.created').slice(-4);
    expect(last.map((d) => d.status)).toEqual([500, 500, 500, 500]);
    expect(h.sandbox.webhooks.pending).toBe(0);
  });

  it('a 2xx answer is a delivery even when its body breaks off afterwards: no retry, no second copy', async () => {
    // The receiver answers 200 at once, then stalls and drops the connection before the body's
    // end: the event was taken; retrying it would deliver it twice, each attempt answered 200.
    const cutOff = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-length': '64' });
        res.write('{"received":');
        setTimeout(() => res.socket?.destroy(), 50);
      });
    });
    await new Promise<void>((resolve) => cutOff.listen(0, '127.0.0.1', resolve));
    receiver = await startReceiver(SECRET);
    const url = `http://127.0.0.1:${(cutOff.address() as AddressInfo).port}/webhook`;
    h = await startSandbox({
      webhook: { url, secret: SECRET },
      delivery: { seed: 11, duplicates: 0, maxDelayMs: 0, retryDelaysMs: [5, 5, 5] },
    });
    try {
      await h.stripe.customers.create({ email: 'cut-off@example.com' });
      await h.sandbox.webhooks.settled();
      const attempts = h.sandbox.deliveries.filter((d) => d.type === 'customer.created');
      expect(attempts).toHaveLength(1);
      expect(attempts[0]).toMatchObject({ status: 200, ok: true, attempt: 1 });
    } finally {
      cutOff.close();
    }
  });

  it('retries when the endpoint cannot be reached', async () => {
    await start({ seed: 5, duplicates: 0, maxDelayMs: 0, retryDelaysMs: [5, 5] });
    await receiver.close();
    await h.stripe.customers.create({ email: 'down@example.com' });
    await h.sandbox.webhooks.settled();
    const attempts = h.sandbox.deliveries.filter((d) => d.type === 'customer.created');
    expect(attempts).toHaveLength(3);
    expect(attempts.every((a) => a.status === null && a.error !== null)).toBe(true);
    receiver = await startReceiver(SECRET);
  });

  it('waits for delivery through the control route', async () => {
    await start({ seed: 11 });
    await subscribe();
    const response = await h.sandbox.fetch(new Request('http://sandbox/_sandbox/settle', { method: 'POST' }));
    expect(response.status).toBe(200);
    expect(h.sandbox.webhooks.pending).toBe(0);
    expect(receiver.events.some((e) => e.type === 'customer.subscription.created')).toBe(true);
  });
});
