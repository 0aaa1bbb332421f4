import { describe, expect, it } from 'vitest';
import { checkCatalogAmounts } from './catalog-amounts.js';
import { type BillingConfig, billingConfig } from './config.js';

const billing = (edition: 'stripe' | 'braintree', currency: string, amount: number | string): BillingConfig =>
  ({
    ...billingConfig.defaults.billing!,
    edition,
    currency,
    plans: [{ id: 'basic', name: 'Basic', amount, interval: 'month' }],
  }) as BillingConfig;

describe('catalog amounts are checked at boot against what the provider can charge', () => {
  it.each([
    ['stripe', 'kwd', 7790],
    ['stripe', 'isk', 50_000],
    ['stripe', 'jpy', 1000],
    ['braintree', 'kwd', 7795],
    ['braintree', 'kwd', '7.795'],
    ['braintree', 'jpy', '1000.00'],
    ['braintree', 'usd', '9.5'],
  ] as const)('%s takes %s %s', (edition, currency, amount) => {
    expect(() => checkCatalogAmounts(billing(edition, currency, amount))).not.toThrow();
  });

  it.each([
    ['stripe', 'kwd', 7795, /billing\.plans\[basic\]\.amount is 7795: .*KWD, in multiples of 10/],
    ['stripe', 'ugx', 50_050, /in multiples of 100/],
    ['stripe', 'usd', 9.5, /whole minor units of USD/],
    ['braintree', 'isk', 50_050, /in multiples of 100/],
    ['braintree', 'kwd', '7.7951', /"7.7951": a decimal amount of KWD has at most 3 decimals/],
    ['braintree', 'jpy', '1000.5', /at most 0 decimals/],
  ] as const)('%s refuses %s %s', (edition, currency, amount, message) => {
    expect(() => checkCatalogAmounts(billing(edition, currency, amount))).toThrow(message);
  });
});
