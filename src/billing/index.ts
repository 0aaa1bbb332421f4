export { Billable } from './billable.js';
export type { BillableUser } from './billable-user.js';
export { BraintreeWebhookController } from './braintree-webhook-controller.js';
export { Customers } from './customers.js';
export { deferredProvider } from './deferred-provider.js';
export {
  BillingError,
  type BillingErrorCode,
  type BillingErrorDetails,
  billingErrorCodes,
} from './errors.js';
export { Invoice, type InvoiceLine } from './invoice.js';
export { InvoiceController } from './invoice-controller.js';
export {
  type InvoicePdfOptions,
  invoiceFileName,
  invoicePdfResponse,
  renderInvoicePdf,
} from './invoice-pdf.js';
export { Invoices } from './invoices.js';
export { formatMoney, minorDigits, toMajor, toMinor } from './money.js';
export {
  type BillingCapabilities,
  type BillingProvider,
  BillingProviderKey,
  type ChargeInput,
  type ChargeResponse,
  type CreateCustomerInput,
  type CreateSubscriptionInput,
  type InvoiceForInput,
  type ProviderCustomer,
  type ProviderInvoice,
  type ProviderInvoiceLine,
  type ProviderSubscription,
  type ResumeContext,
  type SubscriptionChanges,
  type WebhookEvent,
  type WebhookRequest,
} from './provider.js';
export {
  type BillingProviderOptions,
  billingProvider,
  closeBilling,
  type EditionFactory,
} from './service-provider.js';
export * as subscriptionStatus from './status.js';
export { StripeWebhookController } from './stripe-webhook-controller.js';
export { Subscription } from './subscription.js';
export { SubscriptionBuilder } from './subscription-builder.js';
export { SubscriptionRepository } from './subscription-repository.js';
export { Subscriptions } from './subscriptions.js';
export type { SubscriptionRow, SubscriptionsTable } from './tables.js';
export { validateTaxPercentage } from './tax.js';
export { handlerName, WebhookController } from './webhook-controller.js';
export { WebhookEvents } from './webhook-events.js';
