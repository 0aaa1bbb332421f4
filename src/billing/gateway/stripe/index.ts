export { stripeCapabilities } from './capabilities.js';
export { sandboxCoupons, sandboxPlans } from './catalog.js';
export { createStripeClient, type StripeClientOptions } from './client.js';
export { embeddedSandboxGateway, STRIPE_SANDBOX_WARNING, startEmbeddedSandbox } from './embedded-sandbox.js';
export { stripeEdition } from './stripe-edition.js';
export { StripePaymentGateway, type StripePaymentGatewayOptions } from './stripe-gateway.js';
export { StripeWebhookController } from './stripe-webhook-controller.js';
