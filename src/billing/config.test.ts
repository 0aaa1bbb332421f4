import { describe, expect, it } from 'vitest';
import { billingConfig } from './config.js';

describe('billing.seller from the environment', () => {
  it('reads BILLING_SELLER_* with the address split on | or newlines', () => {
    const { billing } = billingConfig.fromEnv({
      BILLING_SELLER_NAME: 'Acme GmbH',
      BILLING_SELLER_ADDRESS: 'Hauptstraße 1| 10115 Berlin\nGermany',
      BILLING_SELLER_TAX_ID: 'USt-IdNr. DE123456789',
      BILLING_SELLER_EMAIL: 'billing@acme.test',
    });
    expect(billing?.seller).toEqual({
      name: 'Acme GmbH',
      address: ['Hauptstraße 1', '10115 Berlin', 'Germany'],
      taxId: 'USt-IdNr. DE123456789',
      email: 'billing@acme.test',
    });
  });

  it('leaves the defaults (name empty: app.name) when unset', () => {
    expect(billingConfig.fromEnv({}).billing?.seller).toEqual({
      name: undefined,
      address: undefined,
      taxId: undefined,
      email: undefined,
    });
    expect(billingConfig.defaults.billing.seller).toEqual({ name: '', address: [], taxId: '', email: '' });
  });
});
