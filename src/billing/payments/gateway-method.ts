import { BillingError } from '../errors.js';
import type { PaymentGateway } from '../gateway/payment-gateway.js';

/** The gateway's method, or `unsupported_by_edition` for an edition that has no such thing. */
export function gatewayMethod<
  K extends 'createSetupIntent' | 'findSetupIntent' | 'findPayment' | 'latestPayment' | 'completePayment',
>(gateway: PaymentGateway, method: K, feature: string): NonNullable<PaymentGateway[K]> {
  const fn = gateway[method];
  if (typeof fn !== 'function')
    throw BillingError.unsupportedByEdition(feature, gateway.capabilities.edition);
  return fn.bind(gateway) as NonNullable<PaymentGateway[K]>;
}
