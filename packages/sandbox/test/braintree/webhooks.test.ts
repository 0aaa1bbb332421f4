import { signPayload } from '@tollgate/sandbox/braintree';
import type braintree from 'braintree';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox } from './support.js';

describe('Braintree sandbox: webhook notifications', () => {
  let env: Awaited<ReturnType<typeof startSandbox>>;
  beforeEach(async () => {
    env = await startSandbox();
  });
  afterEach(async () => {
    await env.server.close();
  });

  it("signs exactly as the SDK's webhookTesting.sampleNotification does", async () => {
    const sample = env.gateway.webhookTesting.sampleNotification(
      'subscription_went_past_due',
      'sub_1',
    ) as unknown as {
      bt_signature: string;
      bt_payload: string;
    };
    const { publicKey, privateKey } = env.sandbox.credentials;
    expect(signPayload(publicKey, privateKey, sample.bt_payload)).toBe(sample.bt_signature);
    const parsed = (await env.gateway.webhookNotification.parse(
      sample.bt_signature,
      sample.bt_payload,
    )) as braintree.SubscriptionNotification;
    expect(parsed.subscription?.id).toBe('sub_1');
  });

  it('a PayPal account revoked by the customer: payment_method_revoked_by_customer names it; it no longer pays', async () => {
    const { customer } = await env.gateway.customer.create({
      paymentMethodNonce: 'fake-paypal-billing-agreement-nonce',
    });
    const token = customer.paymentMethods?.[0]?.token ?? '';
    await env.sandbox.revokePaymentMethod(token);
    const delivery = env.sandbox.deliveries.at(-1)!;
    const parsed = (await env.gateway.webhookNotification.parse(
      delivery.btSignature,
      delivery.btPayload,
    )) as unknown as {
      kind: string;
      revokedPaymentMethodMetadata: {
        token: string;
        customerId: string;
        revokedPaymentMethod: { revokedAt: unknown };
      };
    };
    expect(parsed.kind).toBe('payment_method_revoked_by_customer');
    expect([
      parsed.revokedPaymentMethodMetadata.token,
      parsed.revokedPaymentMethodMetadata.customerId,
    ]).toEqual([token, customer.id]);
    expect(parsed.revokedPaymentMethodMetadata.revokedPaymentMethod.revokedAt).toBeTruthy();
    const found = (await env.gateway.customer.find(customer.id)).paypalAccounts?.[0] as unknown as {
      revokedAt: unknown;
    };
    expect(found.revokedAt).toBeTruthy();
    const sale = await env.gateway.transaction.sale({ amount: '5.00', paymentMethodToken: token });
    expect(sale.success).toBe(false);

    const updated = await env.sandbox.notify('payment_method_customer_data_updated', token);
    const data = (await env.gateway.webhookNotification.parse(
      updated.btSignature,
      updated.btPayload,
    )) as unknown as {
      paymentMethodCustomerDataUpdatedMetadata: { token: string; paymentMethod: { customerId: string } };
    };
    expect(data.paymentMethodCustomerDataUpdatedMetadata.token).toBe(token);
    expect(data.paymentMethodCustomerDataUpdatedMetadata.paymentMethod.customerId).toBe(customer.id);
  });

  it('sends any kind by hand; a dispute names the disputed transaction', async () => {
    const sale = await env.gateway.transaction.sale({
      amount: '42.00',
      paymentMethodNonce: 'fake-valid-nonce',
    });
    const delivery = await env.sandbox.notify('dispute_opened', 'dp_1', {
      transactionId: sale.transaction.id,
    });
    expect(delivery.url).toBeNull();
    const parsed = (await env.gateway.webhookNotification.parse(
      delivery.btSignature,
      delivery.btPayload,
    )) as braintree.DisputeNotification;
    expect(parsed.kind).toBe('dispute_opened');
    expect(parsed.dispute?.status).toBe('open');
    expect(parsed.dispute?.amountDisputed).toBe('42.00');
    expect(parsed.dispute?.transaction.id).toBe(sale.transaction.id);
    expect(parsed.timestamp).toBe('2026-01-10T12:00:00Z');
  });

  it('embeds the stored subscription in subscription notifications', async () => {
    const { customer } = await env.gateway.customer.create({ paymentMethodNonce: 'fake-valid-nonce' });
    const { subscription } = await env.gateway.subscription.create({
      paymentMethodToken: customer.paymentMethods?.[0]?.token ?? '',
      planId: 'yearly',
    });
    const delivery = await env.sandbox.notify('subscription_went_active', subscription.id);
    const parsed = (await env.gateway.webhookNotification.parse(
      delivery.btSignature,
      delivery.btPayload,
    )) as braintree.SubscriptionNotification;
    expect(parsed.subscription?.planId).toBe('yearly');
    expect(parsed.subscription?.transactions?.[0]?.amount).toBe('100.00');
    expect(parsed.subscription?.nextBillingDate).toBe('2027-01-10');
  });

  it('produces payloads the SDK rejects once tampered with', async () => {
    const delivery = await env.sandbox.notify('check', 'check');
    const parsed = await env.gateway.webhookNotification.parse(delivery.btSignature, delivery.btPayload);
    expect(parsed.kind).toBe('check');
    const tampered = Buffer.from(
      Buffer.from(delivery.btPayload, 'base64')
        .toString('utf8')
        .replace('check</kind>', 'dispute_won</kind>'),
    ).toString('base64');
    await expect(env.gateway.webhookNotification.parse(delivery.btSignature, tampered)).rejects.toMatchObject(
      {
        type: 'invalidSignatureError',
      },
    );
  });
});
