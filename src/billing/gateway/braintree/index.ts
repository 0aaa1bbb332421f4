export { braintreeEdition } from './braintree-edition.js';
export {
  BraintreePaymentGateway,
  type BraintreePaymentGatewayOptions,
  notificationId,
} from './braintree-gateway.js';
export { BraintreeWebhookController } from './braintree-webhook-controller.js';
export { braintreeCapabilities } from './capabilities.js';
export { braintreeAmount, sandboxDiscounts, sandboxPlans } from './catalog.js';
export { type BraintreeClientOptions, createBraintreeGateway } from './client.js';
export {
  BRAINTREE_SANDBOX_WARNING,
  embeddedSandboxGateway,
  startEmbeddedSandbox,
} from './embedded-sandbox.js';
export { PLAN_CREDIT } from './pricing.js';
export { planCredit, unusedValue } from './proration.js';
