import type Stripe from 'stripe';
import { StripeSandboxError } from '../objects/errors.js';
import { makeCharge } from '../objects/payments.js';
import { needsAuthentication, type Presence } from '../objects/test-cards.js';
import type { SandboxContext } from './context.js';

export interface ConfirmOptions {
  /** `off_session`: the customer is not there (Stripe's `off_session: true`, and invoice collection). */
  presence: Presence;
  /**
   * An invoice's PaymentIntent asks for action even off-session (the customer gets the link by
   * e-mail, `invoice.payment_action_required`); a plain off-session one fails `authentication_required`.
   */
  forInvoice?: boolean;
  returnUrl?: string | null;
}

/** The sandbox's stand-in for the issuer's 3-D Secure page, as `next_action.redirect_to_url` names it. */
export function authenticationUrl(ctx: SandboxContext, intent: { id: string; client_secret: string | null }) {
  return `${ctx.store.publicUrl}/_sandbox/3ds/${intent.id}?client_secret=${encodeURIComponent(intent.client_secret ?? '')}`;
}

/** https://docs.stripe.com/api/payment_intents/confirm — charge, or ask for 3-D Secure first. */
export function confirmPaymentIntent(
  ctx: SandboxContext,
  pi: Stripe.PaymentIntent,
  options: ConfirmOptions,
): Stripe.PaymentIntent {
  const { store, events } = ctx;
  if (pi.status !== 'requires_confirmation' && pi.status !== 'requires_payment_method') {
    throw StripeSandboxError.invalid(
      `You cannot confirm this PaymentIntent because it has a status of ${pi.status}.`,
      undefined,
      'payment_intent_unexpected_state',
    );
  }
  const pmId = typeof pi.payment_method === 'string' ? pi.payment_method : pi.payment_method?.id;
  if (!pmId) {
    throw StripeSandboxError.invalid(
      "You cannot confirm this PaymentIntent because it's missing a payment method.",
      'payment_method',
      'payment_intent_unexpected_state',
    );
  }
  const spec = store.paymentMethodCards.get(pmId);
  pi.last_payment_error = null;
  if (spec && needsAuthentication(spec, options.presence, store.setUpForOffSession.has(pmId))) {
    if (options.presence === 'off_session' && !options.forInvoice) {
      fail(
        ctx,
        pi,
        'authentication_required',
        'Your card was declined. This transaction requires authentication.',
      );
      return pi;
    }
    pi.status = 'requires_action';
    if (options.returnUrl) store.returnUrls.set(pi.id, options.returnUrl);
    pi.next_action = {
      type: 'redirect_to_url',
      redirect_to_url: { url: authenticationUrl(ctx, pi), return_url: options.returnUrl ?? null },
    };
    events.emit('payment_intent.requires_action', pi);
    return pi;
  }
  return chargeIntent(ctx, pi, pmId);
}

/** The payment itself, once any authentication is done. */
function chargeIntent(ctx: SandboxContext, pi: Stripe.PaymentIntent, pmId: string): Stripe.PaymentIntent {
  const { store, events } = ctx;
  const outcome = store.paymentMethodCards.get(pmId)?.outcome ?? 'succeed';
  const succeeded = outcome === 'succeed';
  const charge = makeCharge(store.now(), {
    amount: pi.amount,
    currency: pi.currency,
    customer: typeof pi.customer === 'string' ? pi.customer : (pi.customer?.id ?? null),
    card: null,
    paymentMethod: pmId,
    paymentIntent: pi.id,
    description: pi.description,
    metadata: pi.metadata,
    receiptEmail: pi.receipt_email,
    statementDescriptor: null,
    succeeded,
    failureCode: outcome === 'insufficient_funds' ? 'insufficient_funds' : 'card_declined',
  });
  store.charges.set(charge.id, charge);
  events.emit(succeeded ? 'charge.succeeded' : 'charge.failed', charge);
  pi.latest_charge = charge.id;
  pi.next_action = null;
  if (succeeded) {
    pi.status = 'succeeded';
    pi.amount_received = pi.amount;
    events.emit('payment_intent.succeeded', pi);
  } else {
    fail(
      ctx,
      pi,
      outcome === 'insufficient_funds' ? 'insufficient_funds' : 'card_declined',
      charge.failure_message ?? '',
      charge.id,
    );
  }
  return pi;
}

function fail(ctx: SandboxContext, pi: Stripe.PaymentIntent, code: string, message: string, charge?: string) {
  const pmId = typeof pi.payment_method === 'string' ? pi.payment_method : pi.payment_method?.id;
  pi.status = 'requires_payment_method';
  pi.next_action = null;
  pi.last_payment_error = {
    type: code === 'payment_intent_authentication_failure' ? 'invalid_request_error' : 'card_error',
    code: code === 'insufficient_funds' ? 'card_declined' : code,
    decline_code:
      code === 'card_declined' ? 'generic_decline' : code === 'insufficient_funds' ? code : undefined,
    message,
    charge,
    payment_method: pmId ? ctx.store.paymentMethods.get(pmId) : undefined,
  } as Stripe.PaymentIntent.LastPaymentError;
  ctx.events.emit('payment_intent.payment_failed', pi);
}

/**
 * The customer finished (or failed) the 3-D Secure challenge on the sandbox's page: the payment
 * goes through as the card says, or the PaymentIntent needs a new payment method.
 */
export function authenticatePaymentIntent(
  ctx: SandboxContext,
  pi: Stripe.PaymentIntent,
  passed: boolean,
): Stripe.PaymentIntent {
  if (pi.status !== 'requires_action') return pi;
  const pmId = typeof pi.payment_method === 'string' ? pi.payment_method : (pi.payment_method?.id ?? '');
  if (!passed) {
    fail(
      ctx,
      pi,
      'payment_intent_authentication_failure',
      'We are unable to authenticate your payment method. Please choose a different payment method and try again.',
    );
    return pi;
  }
  return chargeIntent(ctx, pi, pmId);
}

/** The error body Stripe answers a confirm with when the payment failed (402, the PaymentIntent inside). */
export function paymentIntentError(pi: Stripe.PaymentIntent): StripeSandboxError {
  const error = pi.last_payment_error;
  return new StripeSandboxError(402, {
    type: 'card_error',
    code: error?.code ?? 'card_declined',
    decline_code: error?.decline_code,
    message: error?.message ?? 'Your card was declined.',
    charge: error?.charge,
    payment_intent: pi,
  });
}

/** https://docs.stripe.com/api/payment_intents/cancel — nothing more can be confirmed or charged on it. */
export function cancelPaymentIntent(
  ctx: SandboxContext,
  pi: Stripe.PaymentIntent,
  reason: Stripe.PaymentIntent.CancellationReason | null,
): Stripe.PaymentIntent {
  if (pi.status === 'succeeded' || pi.status === 'canceled') {
    throw StripeSandboxError.invalid(
      `You cannot cancel this PaymentIntent because it has a status of ${pi.status}.`,
      undefined,
      'payment_intent_unexpected_state',
    );
  }
  pi.status = 'canceled';
  pi.next_action = null;
  pi.canceled_at = ctx.store.now();
  pi.cancellation_reason = reason;
  ctx.events.emit('payment_intent.canceled', pi);
  return pi;
}
