import Stripe from 'stripe';
import { BillingError, IncompletePayment } from '../../errors.js';
import { mapPayment } from './payments.js';

/**
 * Stripe's errors as `BillingError`: a card error (HTTP 402) keeps Stripe's message, code and
 * decline code (https://docs.stripe.com/error-codes); anything else is `provider_error`.
 */
export function toBillingError(err: unknown, extra: { invoiceId?: string } = {}): unknown {
  if (err instanceof BillingError) return err;
  // `invoices.pay` on a card that asks for 3-D Secure: the invoice waits for the customer.
  const intent = err instanceof Stripe.errors.StripeError ? err.payment_intent : undefined;
  if (intent?.status === 'requires_action') {
    return new IncompletePayment(
      mapPayment(intent, { invoiceId: extra.invoiceId ?? null, subscriptionId: null }),
    );
  }
  if (err instanceof Stripe.errors.StripeCardError) {
    return BillingError.cardDeclined(err.message, {
      providerCode: err.code,
      declineCode: err.decline_code,
      invoiceId: extra.invoiceId,
      cause: err,
    });
  }
  if (err instanceof Stripe.errors.StripeError) {
    return BillingError.provider(`Stripe: ${err.message}`, { providerCode: err.code, cause: err });
  }
  return err;
}

/** Runs a Stripe call, translating its errors. */
export async function stripeCall<T>(fn: () => Promise<T>, extra?: { invoiceId?: string }): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw toBillingError(err, extra);
  }
}

/** A 404 for a missing object (`resource_missing`): the caller maps it to "not found". */
export function isMissing(err: unknown): boolean {
  const cause = err instanceof BillingError ? err.cause : err;
  return cause instanceof Stripe.errors.StripeInvalidRequestError && cause.statusCode === 404;
}
