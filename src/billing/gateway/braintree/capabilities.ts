import { type GatewayCapabilities, GatewayCapabilitiesBase } from '../capabilities.js';

class BraintreeCapabilities extends GatewayCapabilitiesBase {
  readonly edition = 'braintree';
  readonly columns = Object.freeze({
    customerId: 'braintree_id',
    subscriptionId: 'braintree_id',
    subscriptionPlan: 'braintree_plan',
  } as const);
  override readonly supportsUsageReporting = true;
  override readonly supportsPaypal = true;
  override readonly amountUnit = 'major';
}

/** PayPal; amounts in the full currency unit (dollars); no quantities. */
export const braintreeCapabilities: GatewayCapabilities = Object.freeze(new BraintreeCapabilities());
