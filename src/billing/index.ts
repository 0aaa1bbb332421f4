/**
 * `tollgate/billing`: subscription billing on the user model, over Stripe or Braintree. Register
 * `billingProvider()`, mix `Billable` into the user class, and route the provider's webhook to
 * `StripeWebhookController` or `BraintreeWebhookController`.
 */

export { Billable } from './billable.js';
export type { BillableUser } from './billable-user.js';
export { BraintreeWebhookController } from './braintree-webhook-controller.js';
export type { BillingConfig, BillingEdition, CouponConfig, PlanConfig } from './config.js';
export { billingConfig } from './config.js';
export type { BillingErrorCode } from './errors.js';
export { BillingError } from './errors.js';
export type { InvoiceLine } from './invoice.js';
export { Invoice } from './invoice.js';
export { InvoiceController } from './invoice-controller.js';
export type { InvoicePdfOptions } from './invoice-pdf.js';
export { formatMoney } from './money.js';
export type { BillingProvider, ChargeResponse, WebhookEvent } from './provider.js';
export { BillingProviderKey } from './provider.js';
export type { BillingProviderOptions } from './service-provider.js';
export { billingProvider, closeBilling } from './service-provider.js';
export { StripeWebhookController } from './stripe-webhook-controller.js';
export { Subscription } from './subscription.js';
export { SubscriptionBuilder } from './subscription-builder.js';
export type { SubscriptionRow } from './tables.js';
export { WebhookController } from './webhook-controller.js';
