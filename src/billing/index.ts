/**
 * `tollgate/billing`: subscription billing on the user model, over Stripe or Braintree. Register
 * `billingProvider()`, mix `Billable` into the user class, and route the provider's webhook to
 * `StripeWebhookController` or `BraintreeWebhookController`.
 */

export { Billable } from './billable.js';
export type { BillableStore } from './billable-stores.js';
export { BillableStores } from './billable-stores.js';
export type {
  BillableColumns,
  BillableModel,
  BillableOwner,
  BillableRef,
  BillableUser,
  InvoiceAddressee,
} from './billable-user.js';
export type {
  CheckoutOptions,
  CheckoutPrices,
  CheckoutSession,
  CompletedCheckout,
} from './checkout/checkouts.js';
export { Checkouts } from './checkout/checkouts.js';
export type { BillingConfig, BillingEdition, CouponConfig, PlanConfig, SellerConfig } from './config.js';
export { billingConfig } from './config.js';
export type { BillingErrorCode } from './errors.js';
export { BillingError, IncompletePayment } from './errors.js';
export { BraintreeWebhookController } from './gateway/braintree/braintree-webhook-controller.js';
export type { GatewayCapabilities } from './gateway/capabilities.js';
export type {
  BillingProvider,
  ChargeResponse,
  CheckoutItem,
  CheckoutSessionInput,
  GatewayCheckoutSession,
  GatewayPayment,
  GatewaySetupIntent,
  PaymentGateway,
  PaymentStatus,
  WebhookEvent,
} from './gateway/payment-gateway.js';
export { BillingProviderKey, PaymentGatewayKey } from './gateway/payment-gateway.js';
export { StripeWebhookController } from './gateway/stripe/stripe-webhook-controller.js';
export type { InvoiceLine } from './invoices/invoice.js';
export { Invoice } from './invoices/invoice.js';
export { InvoiceController } from './invoices/invoice-controller.js';
export { InvoicePaid } from './invoices/invoice-paid.js';
export type { InvoicePdfOptions } from './invoices/invoice-pdf.js';
export { formatMoney } from './money.js';
export { PaymentActionRequired } from './payments/payment-action-required.js';
export { PaymentFailed } from './payments/payment-failed.js';
export { Payments } from './payments/payments.js';
export type { Drift, DriftKind, ReconcileReport } from './reconcile/drift.js';
export {
  type ReconcileScheduleOptions,
  reconcileOnce,
  scheduleReconcile,
} from './reconcile/reconcile-schedule.js';
export { type ReconcileOptions, Reconciler } from './reconcile/reconciler.js';
export type { BillingProviderOptions, GatewayFactory } from './service-provider.js';
export { billingProvider, closeBilling } from './service-provider.js';
export { Subscription } from './subscriptions/subscription.js';
export { SubscriptionBuilder } from './subscriptions/subscription-builder.js';
export { SubscriptionChanged } from './subscriptions/subscription-changed.js';
export { SubscriptionCancelled, TrialWillEnd } from './subscriptions/subscription-lifecycle.js';
export type { SubscriptionRow } from './tables.js';
export { WebhookController } from './webhooks/webhook-controller.js';
export type { WebhookDelivery, WebhookHandler, WebhookParts, WebhookStep } from './webhooks/webhook-steps.js';
export { webhookPipeline } from './webhooks/webhook-steps.js';
