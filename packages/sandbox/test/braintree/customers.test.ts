import type braintree from 'braintree';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox } from './support.js';

describe('Braintree sandbox: customers and payment methods (via the official SDK)', () => {
  let env: Awaited<ReturnType<typeof startSandbox>>;
  beforeEach(async () => {
    env = await startSandbox();
  });
  afterEach(async () => {
    await env.server.close();
  });

  it('creates a customer from a card nonce and reports card type and last four', async () => {
    const result = await env.gateway.customer.create({
      firstName: 'Taylor',
      lastName: 'Otwell',
      email: 'taylor@example.com',
      paymentMethodNonce: 'fake-valid-visa-nonce',
    });
    expect(result.success).toBe(true);
    const card = result.customer.creditCards?.[0] as braintree.CreditCard;
    expect(card.cardType).toBe('Visa');
    expect(card.last4).toBe('1881');
    expect(card.maskedNumber).toBe('401288******1881');
    expect(card.default).toBe(true);
    const found = await env.gateway.customer.find(result.customer.id);
    expect(found.email).toBe('taylor@example.com');
    expect(found.paymentMethods?.[0]?.token).toBe(card.token);
  });

  it('vaults a PayPal billing agreement nonce with the payer e-mail', async () => {
    const result = await env.gateway.customer.create({
      paymentMethodNonce: 'fake-paypal-billing-agreement-nonce',
    });
    expect(result.success).toBe(true);
    const account = result.customer.paypalAccounts?.[0] as braintree.PayPalAccount;
    expect(account.email).toBe('jane.doe@paypal.com');
    const found = await env.gateway.paymentMethod.find(account.token);
    expect((found as braintree.PayPalAccount).email).toBe('jane.doe@paypal.com');
  });

  it('rejects a consumed nonce with a validation error result', async () => {
    const result = await env.gateway.customer.create({ paymentMethodNonce: 'fake-consumed-nonce' });
    expect(result.success).toBe(false);
    const codes = result.errors.deepErrors().map((e) => e.code);
    expect(codes).toEqual(['91731']);
    expect(result.message).toMatch(/more than once/);
  });

  it('adds a new default payment method and updates the customer', async () => {
    const { customer } = await env.gateway.customer.create({ paymentMethodNonce: 'fake-valid-nonce' });
    const created = await env.gateway.paymentMethod.create({
      customerId: customer.id,
      paymentMethodNonce: 'fake-valid-mastercard-nonce',
      options: { makeDefault: true },
    });
    expect(created.success).toBe(true);
    const card = created.paymentMethod as braintree.CreditCard;
    expect(card.cardType).toBe('MasterCard');
    expect(card.default).toBe(true);
    const updated = await env.gateway.customer.update(customer.id, { email: 'new@example.com' });
    expect(updated.customer.email).toBe('new@example.com');
    const found = await env.gateway.customer.find(customer.id);
    const defaults = found.creditCards?.filter((c) => c.default).map((c) => c.last4);
    expect(defaults).toEqual(['4444']);
  });

  it('fails verification of a declined card when verifyCard is set', async () => {
    const { customer } = await env.gateway.customer.create({});
    const result = await env.gateway.paymentMethod.create({
      customerId: customer.id,
      paymentMethodNonce: 'fake-processor-declined-visa-nonce',
      options: { verifyCard: true },
    });
    expect(result.success).toBe(false);
    expect((result as unknown as { verification: { status: string } }).verification.status).toBe(
      'processor_declined',
    );
  });

  it('deletes payment methods and customers; finding them then throws notFoundError', async () => {
    const { customer } = await env.gateway.customer.create({ paymentMethodNonce: 'fake-valid-nonce' });
    const token = customer.paymentMethods?.[0]?.token ?? '';
    await env.gateway.paymentMethod.delete(token);
    await expect(env.gateway.paymentMethod.find(token)).rejects.toMatchObject({ type: 'notFoundError' });
    await env.gateway.customer.delete(customer.id);
    await expect(env.gateway.customer.find(customer.id)).rejects.toMatchObject({ type: 'notFoundError' });
  });
});
