import braintree from 'braintree';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { collect, startSandbox } from './support.js';

describe('Braintree sandbox: transactions (via the official SDK)', () => {
  let env: Awaited<ReturnType<typeof startSandbox>>;
  beforeEach(async () => {
    env = await startSandbox();
  });
  afterEach(async () => {
    await env.server.close();
  });

  it('charges a vaulted card and submits it for settlement', async () => {
    const { customer } = await env.gateway.customer.create({ paymentMethodNonce: 'fake-valid-nonce' });
    const result = await env.gateway.transaction.sale({
      amount: '12.50',
      customerId: customer.id,
      options: { submitForSettlement: true },
      customFields: { description: 'Extra seat' },
    });
    expect(result.success).toBe(true);
    expect(result.transaction.customFields).toEqual({ description: 'Extra seat' });
    expect(result.transaction.amount).toBe('12.50');
    expect(result.transaction.status).toBe('submitted_for_settlement');
    expect(result.transaction.creditCard?.last4).toBe('1111');
    const found = await env.gateway.transaction.find(result.transaction.id);
    expect(found.customer.id).toBe(customer.id);
  });

  it('returns an unsuccessful result with processor_declined for a declining card', async () => {
    const created = await env.gateway.customer.create({
      paymentMethodNonce: 'fake-processor-declined-visa-nonce',
    });
    expect(created.success).toBe(true);
    const token = created.customer.paymentMethods?.[0]?.token ?? '';
    const result = await env.gateway.transaction.sale({ amount: '10.00', paymentMethodToken: token });
    expect(result.success).toBe(false);
    expect(result.transaction.status).toBe('processor_declined');
    expect(result.transaction.processorResponseCode).toBe('2000');
    expect(result.message).toBe('Do Not Honor');
  });

  it('charges a one-time nonce without vaulting it', async () => {
    const result = await env.gateway.transaction.sale({
      amount: '5.00',
      paymentMethodNonce: 'fake-valid-mastercard-nonce',
    });
    expect(result.success).toBe(true);
    expect(result.transaction.status).toBe('authorized');
    expect(result.transaction.creditCard?.cardType).toBe('MasterCard');
    expect(result.transaction.creditCard?.token).toBeNull();
  });

  it('validates the amount', async () => {
    const result = await env.gateway.transaction.sale({
      amount: 'ten',
      paymentMethodNonce: 'fake-valid-nonce',
    });
    expect(result.success).toBe(false);
    expect(result.errors.deepErrors().map((e) => [e.attribute, e.code])).toEqual([['amount', '81503']]);
  });

  it("finds a customer's transactions with the advanced-search protocol, newest first", async () => {
    const { customer } = await env.gateway.customer.create({ paymentMethodNonce: 'fake-valid-nonce' });
    const other = await env.gateway.customer.create({ paymentMethodNonce: 'fake-valid-nonce' });
    await env.gateway.transaction.sale({ amount: '1.00', customerId: customer.id });
    env.clock.advanceDays(1);
    await env.gateway.transaction.sale({ amount: '2.00', customerId: customer.id });
    await env.gateway.transaction.sale({ amount: '3.00', customerId: other.customer.id });
    const found = await collect<braintree.Transaction>(
      env.gateway.transaction.search((search) => search.customerId().is(customer.id)),
    );
    expect(found.map((t) => t.amount)).toEqual(['2.00', '1.00']);
    expect(found[0]).toBeInstanceOf(braintree.Transaction);
    const operations = env.sandbox.requests.map((r) => r.operation);
    expect(operations).toContain('transaction.search');
    expect(operations).toContain('transaction.searchPage');
  });

  it('pages search results beyond the page size', async () => {
    const { customer } = await env.gateway.customer.create({ paymentMethodNonce: 'fake-valid-nonce' });
    for (let i = 0; i < 55; i++) {
      env.clock.advance(1000);
      await env.gateway.transaction.sale({ amount: `${i + 1}.00`, customerId: customer.id });
    }
    const found = await collect<braintree.Transaction>(
      env.gateway.transaction.search((search) => search.customerId().is(customer.id)),
    );
    expect(found).toHaveLength(55);
    expect(found[0]?.amount).toBe('55.00');
    expect(found[54]?.amount).toBe('1.00');
  });
});
