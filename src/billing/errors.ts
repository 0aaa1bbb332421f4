import { HttpError } from '../core/errors.js';
import type { GatewayPayment } from './gateway/payment-gateway.js';

/** Every way a billing operation can fail, as a closed union (listed in docs/errors.md and docs/billing.md). */
export type BillingErrorCode =
  | 'card_declined'
  | 'payment_failed'
  | 'payment_action_required'
  | 'payment_not_found'
  | 'checkout_session_not_found'
  | 'customer_missing'
  | 'subscription_not_found'
  | 'invoice_not_found'
  | 'not_on_grace_period'
  | 'subscription_cancelled'
  | 'subscription_past_due'
  | 'unsupported_by_edition'
  | 'invalid_tax_percentage'
  | 'invalid_amount'
  | 'invalid_quantity'
  | 'invalid_webhook_signature'
  | 'subscription_exists'
  | 'request_in_progress'
  | 'invalid_request_key'
  | 'request_key_reused'
  | 'provider_error';

/** The HTTP status each code becomes if it ever reaches a response. */
const statusOf: Record<BillingErrorCode, number> = {
  card_declined: 402,
  payment_failed: 402,
  payment_action_required: 402,
  payment_not_found: 404,
  checkout_session_not_found: 404,
  customer_missing: 422,
  subscription_not_found: 404,
  invoice_not_found: 404,
  not_on_grace_period: 422,
  subscription_cancelled: 422,
  subscription_past_due: 422,
  unsupported_by_edition: 422,
  invalid_tax_percentage: 422,
  invalid_amount: 422,
  invalid_quantity: 422,
  invalid_webhook_signature: 400,
  subscription_exists: 409,
  request_in_progress: 409,
  invalid_request_key: 422,
  request_key_reused: 422,
  provider_error: 502,
};

export interface BillingErrorDetails {
  /** The provider's own error code (`card_declined`, `processor_declined`, `2000`…). */
  providerCode?: string;
  /** The provider's decline code, when it gives one. */
  declineCode?: string;
  /** The invoice left open by a failed `invoiceFor` (the provider retries it on its schedule). */
  invoiceId?: string;
  cause?: unknown;
}

/**
 * The one error type of the billing layer. The message of a card error is the provider's own, so it
 * can be shown to the customer. Thrown from a route, it renders as its status with
 * `{ message, code }` (a 5xx with a generic body, as every server error).
 */
export class BillingError extends HttpError {
  readonly code: BillingErrorCode;
  readonly providerCode: string | undefined;
  readonly declineCode: string | undefined;
  readonly invoiceId: string | undefined;

  constructor(code: BillingErrorCode, message: string, details: BillingErrorDetails = {}) {
    const status = statusOf[code];
    super(status, message, { cause: details.cause, body: status < 500 ? { message, code } : undefined });
    this.name = 'BillingError';
    this.code = code;
    this.providerCode = details.providerCode;
    this.declineCode = details.declineCode;
    this.invoiceId = details.invoiceId;
  }

  static cardDeclined(message: string, details: BillingErrorDetails = {}): BillingError {
    return new BillingError('card_declined', message, details);
  }

  static paymentFailed(message: string, details: BillingErrorDetails = {}): BillingError {
    return new BillingError('payment_failed', message, details);
  }

  /** A payment that waits for the customer (3-D Secure): the `IncompletePayment` carrying it. */
  static paymentActionRequired(payment: GatewayPayment): IncompletePayment {
    return new IncompletePayment(payment);
  }

  static paymentNotFound(id: string): BillingError {
    return new BillingError('payment_not_found', `No payment "${id}" belongs to this user.`);
  }

  static checkoutSessionNotFound(id: string): BillingError {
    return new BillingError('checkout_session_not_found', `No Checkout session ${id} for this customer.`);
  }

  static customerMissing(): BillingError {
    return new BillingError(
      'customer_missing',
      'This user is not a customer at the billing provider yet: create a subscription or update the card first.',
    );
  }

  static subscriptionNotFound(name: string): BillingError {
    return new BillingError('subscription_not_found', `The user has no subscription named "${name}".`);
  }

  static invoiceNotFound(id: string): BillingError {
    return new BillingError('invoice_not_found', `No invoice "${id}" belongs to this user.`);
  }

  static notOnGracePeriod(): BillingError {
    return new BillingError(
      'not_on_grace_period',
      'Unable to resume a subscription that is not within its grace period.',
    );
  }

  static subscriptionCancelled(action: string): BillingError {
    return new BillingError('subscription_cancelled', `Cannot ${action} a cancelled subscription.`);
  }

  /** The provider refuses to re-price a past-due subscription until its balance is paid (Braintree). */
  static subscriptionPastDue(action: string, details: BillingErrorDetails = {}): BillingError {
    return new BillingError(
      'subscription_past_due',
      `Cannot ${action} a past-due subscription: pay the outstanding balance first (update the card).`,
      details,
    );
  }

  static unsupportedByEdition(feature: string, edition: string): BillingError {
    return new BillingError(
      'unsupported_by_edition',
      `${feature} is not supported by the ${edition} edition.`,
    );
  }

  static invalidTaxPercentage(value: unknown): BillingError {
    return new BillingError(
      'invalid_tax_percentage',
      `taxPercentage() must return a number from 0 to 100 with at most two decimals, got ${String(value)}.`,
    );
  }

  static invalidAmount(amount: unknown, unit: string, why?: string): BillingError {
    const reason = why ? `: ${why}` : '.';
    return new BillingError(
      'invalid_amount',
      `The amount ${String(amount)} is not a valid ${unit} amount${reason}`,
    );
  }

  static invalidQuantity(quantity: unknown): BillingError {
    return new BillingError(
      'invalid_quantity',
      `The quantity must be a whole number of at least 1, got ${String(quantity)}.`,
    );
  }

  static invalidWebhookSignature(reason: string): BillingError {
    return new BillingError('invalid_webhook_signature', `Webhook signature verification failed: ${reason}`);
  }

  static subscriptionExists(name: string): BillingError {
    return new BillingError(
      'subscription_exists',
      `The user already has a live subscription named "${name}": cancel it (or let it end) first.`,
    );
  }

  static requestInProgress(): BillingError {
    return new BillingError(
      'request_in_progress',
      'Another billing operation for this user is still running; try again in a moment.',
    );
  }

  static invalidRequestKey(key: unknown): BillingError {
    return new BillingError(
      'invalid_request_key',
      `A request key must be a string of 1 to 255 characters, got ${typeof key}.`,
    );
  }

  static requestKeyReused(): BillingError {
    return new BillingError(
      'request_key_reused',
      'This request key was already used for a different billing operation or with different parameters.',
    );
  }

  static provider(message: string, details: BillingErrorDetails = {}): BillingError {
    return new BillingError('provider_error', message, details);
  }
}

/**
 * A payment that needs the customer before it can complete — 3-D Secure under strong customer
 * authentication (Cashier's `IncompletePayment`). The subscription it was for is stored with
 * status `incomplete` (not subscribed) until the customer confirms the payment on the
 * confirmation page (`/billing/payment/{payment.id}`); a charge or invoice stays unpaid till then.
 *
 * @example
 * try {
 *   await user.newSubscription('main', 'pro-monthly').create(paymentMethod);
 * } catch (err) {
 *   if (err instanceof IncompletePayment) return c.redirect(`/billing/payment/${err.payment.id}`);
 *   throw err;
 * }
 */
export class IncompletePayment extends BillingError {
  constructor(readonly payment: GatewayPayment) {
    super(
      'payment_action_required',
      'The payment needs an extra confirmation from you: authenticate it to complete it.',
    );
    this.name = 'IncompletePayment';
  }

  /** Whether the customer must act (3-D Secure), rather than give another payment method. */
  requiresAction(): boolean {
    return this.payment.status === 'requires_action';
  }
}

/** Every code, for docs and for the test that checks docs/billing.md lists them all. */
export const billingErrorCodes = Object.keys(statusOf) as BillingErrorCode[];
