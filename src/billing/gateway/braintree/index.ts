import type { Application } from '../../../kernel/application.js';
import type { BillingProvider } from '../payment-gateway.js';
import { BraintreeProvider } from './braintree-gateway.js';
import { createBraintreeGateway } from './client.js';
import { embeddedSandboxProvider } from './embedded-sandbox.js';

export {
  BraintreeProvider,
  type BraintreeProviderOptions,
  braintreeCapabilities,
  notificationId,
} from './braintree-gateway.js';
export { braintreeAmount, sandboxDiscounts, sandboxPlans } from './catalog.js';
export { type BraintreeClientOptions, createBraintreeGateway } from './client.js';
export { embeddedSandboxProvider, startEmbeddedSandbox } from './embedded-sandbox.js';
export { PLAN_CREDIT } from './pricing.js';
export { planCredit, unusedValue } from './proration.js';

/**
 * The edition's entry point, loaded by `billingProvider()` when `billing.edition` is `braintree`.
 * `billing.braintree` (environment, merchant id, public and private key) configures the SDK here, at
 * boot; without credentials the embedded sandbox stands in.
 */
export async function createBillingProvider(app: Application): Promise<BillingProvider> {
  const { braintree, coupons, currency } = app.config.billing;
  if (!braintree.merchantId || !braintree.publicKey || !braintree.privateKey) {
    return embeddedSandboxProvider(app);
  }
  return new BraintreeProvider({
    gateway: createBraintreeGateway(braintree),
    clock: app.clock,
    coupons,
    currency,
  });
}
