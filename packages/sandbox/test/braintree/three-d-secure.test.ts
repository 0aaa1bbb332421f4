import type braintree from 'braintree';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox } from './support.js';

const DAY = 86_400;
const RETURN = 'http://app.test/billing/payment/x';

type Tx = braintree.Transaction & {
  gatewayRejectionReason?: string | null;
  threeDSecureInfo?: { status: string; liabilityShifted: boolean } | null;
};

describe('Braintree sandbox: 3-D Secure (via the official SDK)', () => {
  let env: Awaited<ReturnType<typeof startSandbox>>;
  let token: string;
  beforeEach(async () => {
    env = await startSandbox();
    const { customer } = await env.gateway.customer.create({
      paymentMethodNonce: 'fake-valid-three-d-secure-visa-nonce',
    });
    token = customer.paymentMethods?.[0]?.token ?? '';
  });
  afterEach(async () => {
    await env.server.close();
  });

  /** The Drop-in's verifyCard in a browser: the challenge page, answered, back to RETURN. */
  async function verify(outcome: 'complete' | 'fail' | null) {
    const { paymentMethodNonce } = await env.gateway.paymentMethodNonce.create(token);
    const query = new URLSearchParams({
      nonce: paymentMethodNonce.nonce,
      amount: '10.00 USD',
      return_url: RETURN,
    });
    const page = await fetch(`${env.server.url}/_sandbox/three_d_secure?${query}`, { redirect: 'manual' });
    if (outcome === null) return { page, back: null };
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('Complete authentication');
    expect(html).toContain('10.00 USD');
    const answer = await fetch(`${env.server.url}/_sandbox/three_d_secure`, {
      method: 'POST',
      redirect: 'manual',
      body: new URLSearchParams({ nonce: paymentMethodNonce.nonce, return_url: RETURN, outcome }),
    });
    expect(answer.status).toBe(303);
    const back = new URL(answer.headers.get('location') ?? '');
    return { page, back };
  }

  it('a card that asks for 3-D Secure vaults, but its first subscription charge is soft-declined 2099 and nothing is created', async () => {
    const pm = await env.gateway.paymentMethod.find(token);
    expect([(pm as braintree.CreditCard).bin, (pm as braintree.CreditCard).last4]).toEqual([
      '400000',
      '1091',
    ]);
    const result = await env.gateway.subscription.create({ paymentMethodToken: token, planId: 'monthly' });
    expect(result.success).toBe(false);
    const t = result.transaction as Tx;
    expect([t.status, t.processorResponseCode, t.processorResponseText]).toEqual([
      'processor_declined',
      '2099',
      'Cardholder Authentication Required',
    ]);
    expect(env.sandbox.store.subscriptions.size).toBe(0);
    // So is a sale the customer makes on it.
    const sale = await env.gateway.transaction.sale({ amount: '5.00', paymentMethodToken: token });
    expect([sale.success, sale.transaction?.processorResponseCode]).toEqual([false, '2099']);
  });

  it('verified through the challenge: the enriched nonce of the vaulted card creates the subscription; renewals need no challenge', async () => {
    const { back } = await verify('complete');
    expect(back?.pathname).toBe('/billing/payment/x');
    expect(back?.searchParams.get('liability_shifted')).toBe('true');
    const nonce = back?.searchParams.get('payment_method_nonce') ?? '';
    const result = await env.gateway.subscription.create({ paymentMethodNonce: nonce, planId: 'monthly' });
    expect(result.success).toBe(true);
    expect(result.subscription.paymentMethodToken).toBe(token);
    const first = result.subscription.transactions?.[0] as Tx;
    expect([first.status, first.threeDSecureInfo?.status, first.threeDSecureInfo?.liabilityShifted]).toEqual([
      'submitted_for_settlement',
      'authenticate_successful',
      true,
    ]);
    // A nonce is single-use.
    const again = await env.gateway.subscription.create({ paymentMethodNonce: nonce, planId: 'monthly' });
    expect(again.errors.deepErrors().map((e) => e.code)).toEqual(['91925']);
    await env.sandbox.advance(31 * DAY);
    const renewed = await env.gateway.subscription.find(result.subscription.id);
    expect(renewed.transactions?.map((t) => t.status)).toEqual(['submitted_for_settlement', 'settled']);
  });

  it('failed authentication: the gateway rejects the payment (three_d_secure), unless the merchant does not require it — then the issuer declines it', async () => {
    const { back } = await verify('fail');
    expect(back?.searchParams.get('liability_shifted')).toBe('false');
    const nonce = back?.searchParams.get('payment_method_nonce') ?? '';
    const result = await env.gateway.subscription.create({ paymentMethodNonce: nonce, planId: 'monthly' });
    const t = result.transaction as Tx;
    expect([result.success, t.status, t.gatewayRejectionReason]).toEqual([
      false,
      'gateway_rejected',
      'three_d_secure',
    ]);
    expect(result.message).toBe('Gateway Rejected: three_d_secure');

    const failed = 'fake-three-d-secure-visa-failed-authentication-nonce';
    const rejected = await env.gateway.transaction.sale({ amount: '5.00', paymentMethodNonce: failed });
    expect((rejected.transaction as Tx).gatewayRejectionReason).toBe('three_d_secure');
    const risked = await env.gateway.transaction.sale({
      amount: '5.00',
      paymentMethodNonce: failed,
      options: { threeDSecure: { required: false } },
    } as braintree.TransactionRequest);
    expect([risked.success, risked.transaction?.processorResponseCode]).toEqual([false, '2099']);

    const full = await env.gateway.transaction.sale({
      amount: '5.00',
      paymentMethodNonce: 'fake-three-d-secure-visa-full-authentication-nonce',
    });
    expect([full.success, (full.transaction as Tx).threeDSecureInfo?.liabilityShifted]).toEqual([true, true]);
  });

  it('a card that asks for no challenge passes frictionless; subscriptions take only nonces of vaulted methods (91927)', async () => {
    const { customer } = await env.gateway.customer.create({ paymentMethodNonce: 'fake-valid-nonce' });
    token = customer.paymentMethods?.[0]?.token ?? '';
    const { page } = await verify(null);
    expect(page.status).toBe(303);
    const back = new URL(page.headers.get('location') ?? '');
    expect(back.searchParams.get('liability_shifted')).toBe('true');
    const unvaulted = await env.gateway.subscription.create({
      paymentMethodNonce: 'fake-valid-visa-nonce',
      planId: 'monthly',
    });
    expect(unvaulted.errors.deepErrors().map((e) => e.code)).toEqual(['91927']);
    const unknown = await fetch(`${env.server.url}/_sandbox/three_d_secure?nonce=nope`);
    expect(unknown.status).toBe(404);
  });
});
