import { readFileSync } from 'node:fs';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../core/logger.js';
import { renderError } from '../http/error-handler.js';
import { BillingError, billingErrorCodes } from './errors.js';
import { formatMoney, toMajor, toMinor } from './money.js';
import { validateTaxPercentage } from './tax.js';
import { handlerName } from './webhooks/webhook-controller.js';

describe('money', () => {
  it('formats minor units with the configured symbol', () => {
    expect(formatMoney(1999, 'usd', '$')).toBe('$19.99');
    expect(formatMoney(123456789, 'eur', '€')).toBe('€1,234,567.89');
    expect(formatMoney(-500, 'usd', '$')).toBe('-$5.00');
    expect(formatMoney(0, 'usd', '$')).toBe('$0.00');
    expect(formatMoney(1500, 'jpy', '¥')).toBe('¥1,500');
  });

  it('converts between full and minor units', () => {
    expect(toMinor('10.50', 'usd')).toBe(1050);
    expect(toMinor(19.99, 'usd')).toBe(1999);
    expect(toMajor(1050, 'usd')).toBe('10.50');
    expect(toMinor(1500, 'jpy')).toBe(1500);
  });
});

describe('taxPercentage (spec, Limits: 0 to 100, at most two decimals)', () => {
  it.each([0, 7, 8.25, 19.5, 100, 12.34])('accepts %s', (value) => {
    expect(validateTaxPercentage(value)).toBe(value);
  });

  it.each([-0.01, 100.01, 1.234, Number.NaN, Number.POSITIVE_INFINITY, '10', null])('refuses %s', (value) => {
    expect(() => validateTaxPercentage(value)).toThrow(BillingError);
    try {
      validateTaxPercentage(value);
    } catch (err) {
      expect((err as BillingError).code).toBe('invalid_tax_percentage');
    }
  });
});

describe('webhook handler names (spec, Events)', () => {
  it.each([
    ['invoice.payment_succeeded', 'handleInvoicePaymentSucceeded'],
    ['customer.subscription.deleted', 'handleCustomerSubscriptionDeleted'],
    ['dispute_opened', 'handleDisputeOpened'],
    ['subscription_charged_unsuccessfully', 'handleSubscriptionChargedUnsuccessfully'],
  ])('%s → %s', (event, method) => {
    expect(handlerName(event)).toBe(method);
  });
});

describe('BillingError', () => {
  it('named constructors carry the code, a status and the provider details', () => {
    const err = BillingError.cardDeclined('Your card was declined.', {
      providerCode: 'card_declined',
      declineCode: 'generic_decline',
    });
    expect([err.code, err.status, err.providerCode, err.declineCode]).toEqual([
      'card_declined',
      402,
      'card_declined',
      'generic_decline',
    ]);
    expect(BillingError.notOnGracePeriod().code).toBe('not_on_grace_period');
    expect(BillingError.unsupportedByEdition('Quantities', 'braintree').message).toContain('braintree');
  });

  it('renders as its status with { message, code }; a provider error as a generic 5xx', async () => {
    const app = new Hono();
    app.onError((err, c) => renderError(err, c, createLogger('silent')));
    app.get('/declined', () => {
      throw BillingError.cardDeclined('Your card was declined.');
    });
    app.get('/provider', () => {
      throw BillingError.provider('Stripe: secret detail');
    });
    const declined = await app.request('/declined', { headers: { accept: 'application/json' } });
    expect(declined.status).toBe(402);
    expect(await declined.json()).toEqual({ message: 'Your card was declined.', code: 'card_declined' });
    const provider = await app.request('/provider', { headers: { accept: 'application/json' } });
    expect(provider.status).toBe(502);
    expect(JSON.stringify(await provider.json())).not.toContain('secret detail');
  });

  it('docs/billing.md lists every error code', () => {
    const docs = readFileSync(new URL('../../docs/billing.md', import.meta.url), 'utf8');
    for (const code of billingErrorCodes) expect(docs).toContain(`\`${code}\``);
  });
});
