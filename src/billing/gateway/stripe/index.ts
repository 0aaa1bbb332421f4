import type { Application } from '../../../kernel/application.js';
import type { BillingProvider } from '../payment-gateway.js';
import { embeddedSandboxProvider } from './embedded-sandbox.js';
import { StripeProvider } from './stripe-gateway.js';

export { sandboxCoupons, sandboxPlans } from './catalog.js';
export { createStripeClient, type StripeClientOptions } from './client.js';
export { embeddedSandboxProvider } from './embedded-sandbox.js';
export { StripeProvider, type StripeProviderOptions, stripeCapabilities } from './stripe-gateway.js';

/** The edition's entry point, loaded by `billingProvider()` when `billing.edition` is `stripe`. */
export async function createBillingProvider(app: Application): Promise<BillingProvider> {
  const { stripe } = app.config.billing;
  if (!stripe.secret) return embeddedSandboxProvider(app);
  return new StripeProvider({
    secret: stripe.secret,
    apiBase: stripe.apiBase,
    webhookSecret: stripe.webhookSecret,
  });
}
