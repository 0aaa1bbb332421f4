import braintree from 'braintree';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox } from './support.js';

describe('Braintree sandbox: authentication and control routes', () => {
  let env: Awaited<ReturnType<typeof startSandbox>>;
  beforeEach(async () => {
    env = await startSandbox();
  });
  afterEach(async () => {
    await env.server.close();
  });

  function gatewayWith(overrides: { merchantId?: string; privateKey?: string }) {
    return new braintree.BraintreeGateway({ ...env.sandbox.gatewayConfig(env.server), ...overrides });
  }

  it('answers 401 to a wrong key pair, which the SDK reports as authenticationError', async () => {
    await expect(gatewayWith({ privateKey: 'wrong' }).plan.all()).rejects.toMatchObject({
      type: 'authenticationError',
    });
  });

  it('answers 403 to good keys on another merchant, which the SDK reports as authorizationError', async () => {
    await expect(gatewayWith({ merchantId: 'someone_else' }).plan.all()).rejects.toMatchObject({
      type: 'authorizationError',
    });
  });

  it('generates a client token for the Drop-in UI', async () => {
    const { customer } = await env.gateway.customer.create({});
    const result = await env.gateway.clientToken.generate({ customerId: customer.id });
    expect(result.success).toBe(true);
    expect(JSON.parse(Buffer.from(result.clientToken, 'base64').toString('utf8'))).toMatchObject({
      customerId: customer.id,
    });
  });

  it('moves the clock and reports state through /_sandbox routes', async () => {
    const { customer } = await env.gateway.customer.create({ paymentMethodNonce: 'fake-valid-nonce' });
    await env.gateway.subscription.create({
      paymentMethodToken: customer.paymentMethods?.[0]?.token ?? '',
      planId: 'monthly',
    });
    const advanced = await fetch(`${env.server.url}/_sandbox/advance`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ seconds: 31 * 86_400 }),
    });
    expect(await advanced.json()).toEqual({ now: '2026-02-10T12:00:00.000Z', processed: 1 });
    const state = (await (await fetch(`${env.server.url}/_sandbox/state`)).json()) as {
      subscriptions: { nextBillingDate: string }[];
      transactions: { amount: string }[];
    };
    expect(state.subscriptions[0]?.nextBillingDate).toBe('2026-03-10');
    expect(state.transactions.map((t) => t.amount)).toEqual(['10.00', '10.00']);
  });
});
