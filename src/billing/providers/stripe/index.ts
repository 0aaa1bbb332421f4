import type { Application } from '../../../foundation/application.js';
import type { BillingProvider } from '../../provider.js';
import { startEmbeddedSandbox } from './embedded-sandbox.js';
import { StripeProvider } from './stripe-provider.js';

export { createStripeClient, type StripeClientOptions } from './client.js';
export { StripeProvider, type StripeProviderOptions } from './stripe-provider.js';

/** The edition's entry point, loaded by `billingProvider()` when `billing.edition` is `stripe`. */
export async function createBillingProvider(app: Application): Promise<BillingProvider> {
  const { stripe } = app.config.billing;
  if (!stripe.secret) return startEmbeddedSandbox(app);
  return new StripeProvider({
    secret: stripe.secret,
    apiBase: stripe.apiBase,
    webhookSecret: stripe.webhookSecret,
  });
}
