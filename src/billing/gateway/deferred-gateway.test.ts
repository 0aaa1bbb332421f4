import { describe, expect, it } from 'vitest';
import { deferredGateway } from './deferred-gateway.js';
import type { PaymentGateway } from './payment-gateway.js';
import { stripeCapabilities } from './stripe/capabilities.js';

describe('deferredGateway', () => {
  it('starts the gateway on first use and passes the customer, reconcile and Checkout calls through', async () => {
    let made = 0;
    const real = {
      capabilities: stripeCapabilities,
      findCustomer: async (id: string) => ({
        id,
        cardBrand: 'Visa',
        cardLastFour: '4242',
        paypalEmail: null,
      }),
      listSubscriptions: async () => [],
      findCheckoutSession: async () => null,
      createBillingPortalSession: async () => ({ url: 'https://portal.test/session' }),
    } as unknown as PaymentGateway;
    const gateway = deferredGateway(stripeCapabilities, async () => {
      made++;
      return real;
    });
    expect(made).toBe(0);
    await expect(gateway.findCustomer('cus_1')).resolves.toMatchObject({ id: 'cus_1', cardLastFour: '4242' });
    await expect(gateway.listSubscriptions('cus_1')).resolves.toEqual([]);
    await expect(gateway.findCheckoutSession!('cs_1')).resolves.toBeNull();
    await expect(
      gateway.createBillingPortalSession!({ customerId: 'cus_1', returnUrl: 'https://app.test' }),
    ).resolves.toEqual({ url: 'https://portal.test/session' });
    expect(made).toBe(1);
  });
});
