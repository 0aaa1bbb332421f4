import { type GatewayCapabilities, GatewayCapabilitiesBase } from '../capabilities.js';

class StripeCapabilities extends GatewayCapabilitiesBase {
  readonly edition = 'stripe';
  readonly columns = Object.freeze({
    customerId: 'stripe_id',
    subscriptionId: 'stripe_id',
    subscriptionPlan: 'stripe_plan',
  } as const);
  override readonly supportsUsageReporting = true;
  override readonly supportsQuantities = true;
  override readonly supportsHostedCheckout = true;
}

/** Quantities; Checkout and the billing portal; amounts in minor units (cents); no PayPal. */
export const stripeCapabilities: GatewayCapabilities = Object.freeze(new StripeCapabilities());
