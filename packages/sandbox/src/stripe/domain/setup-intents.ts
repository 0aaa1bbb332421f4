import type Stripe from 'stripe';
import { StripeSandboxError } from '../objects/errors.js';
import { setupNeedsAuthentication } from '../objects/test-cards.js';
import type { SandboxContext } from './context.js';
import { authenticationUrl } from './payment-intents.js';
import { attachPaymentMethod } from './payment-methods.js';

/**
 * https://docs.stripe.com/api/setup_intents/confirm — save a card for later payments. A card that
 * asks for 3-D Secure on setup waits in `requires_action` for the sandbox's challenge page.
 */
export function confirmSetupIntent(
  ctx: SandboxContext,
  si: Stripe.SetupIntent,
  pm: Stripe.PaymentMethod,
  returnUrl: string | null,
): Stripe.SetupIntent {
  const { store, events } = ctx;
  if (si.status !== 'requires_payment_method' && si.status !== 'requires_confirmation') {
    throw StripeSandboxError.invalid(
      `You cannot confirm this SetupIntent because it has a status of ${si.status}.`,
      undefined,
      'setup_intent_unexpected_state',
    );
  }
  si.payment_method = pm.id;
  si.last_setup_error = null;
  const spec = store.paymentMethodCards.get(pm.id);
  if (spec?.declineOnAttach || spec?.outcome === 'decline') {
    si.status = 'requires_payment_method';
    si.last_setup_error = {
      type: 'card_error',
      code: 'card_declined',
      decline_code: 'generic_decline',
      message: 'Your card was declined.',
    } as Stripe.SetupIntent.LastSetupError;
    events.emit('setup_intent.setup_failed', si);
    return si;
  }
  if (spec && setupNeedsAuthentication(spec)) {
    si.status = 'requires_action';
    if (returnUrl) store.returnUrls.set(si.id, returnUrl);
    si.next_action = {
      type: 'redirect_to_url',
      redirect_to_url: { url: authenticationUrl(ctx, si), return_url: returnUrl },
    };
    events.emit('setup_intent.requires_action', si);
    return si;
  }
  return succeed(ctx, si, pm);
}

function succeed(ctx: SandboxContext, si: Stripe.SetupIntent, pm: Stripe.PaymentMethod): Stripe.SetupIntent {
  const customer = typeof si.customer === 'string' ? si.customer : si.customer?.id;
  if (customer) attachPaymentMethod(ctx, pm, customer);
  if (si.usage === 'off_session') ctx.store.setUpForOffSession.add(pm.id);
  si.status = 'succeeded';
  si.next_action = null;
  ctx.events.emit('setup_intent.succeeded', si);
  return si;
}

/** The customer finished (or failed) the 3-D Secure challenge for a SetupIntent. */
export function authenticateSetupIntent(
  ctx: SandboxContext,
  si: Stripe.SetupIntent,
  passed: boolean,
): Stripe.SetupIntent {
  if (si.status !== 'requires_action') return si;
  const pm = ctx.store.paymentMethod(String(si.payment_method));
  if (passed) return succeed(ctx, si, pm);
  si.status = 'requires_payment_method';
  si.next_action = null;
  si.last_setup_error = {
    type: 'invalid_request_error',
    code: 'setup_intent_authentication_failure',
    message:
      'We are unable to authenticate your payment method. Please choose a different payment method and try again.',
  } as Stripe.SetupIntent.LastSetupError;
  ctx.events.emit('setup_intent.setup_failed', si);
  return si;
}
