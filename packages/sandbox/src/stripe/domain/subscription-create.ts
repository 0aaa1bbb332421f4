import type Stripe from 'stripe';
import { StripeSandboxError } from '../objects/errors.js';
import { makeSubscription, makeSubscriptionItem } from '../objects/subscriptions.js';
import { currentPeriod, pricePeriod } from './billing-cycle.js';
import type { SandboxContext } from './context.js';
import { buildSubscriptionInvoice } from './invoice-builder.js';
import { attemptPayment, finalizeInvoice, invoiceIntent, voidInvoice } from './invoice-lifecycle.js';
import type { Params } from './params.js';
import { paymentIntentError } from './payment-intents.js';
import { attachedTo, defaultInstrument } from './payment-methods.js';
import { runCharge } from './payments.js';
import {
  catalogFor,
  discountsFrom,
  itemQuantity,
  requestedTrialEnd,
  taxRatesFrom,
} from './subscription-inputs.js';

/**
 * https://docs.stripe.com/api/subscriptions/create — the subscription, its first invoice and the
 * attempt to pay it, as `POST /v1/subscriptions` and a completed Checkout Session make them.
 * `payment_behavior`: `allow_incomplete` (default) leaves it `incomplete` when the first payment
 * fails; `error_if_incomplete` refuses it (402, nothing kept); `default_incomplete` charges
 * nothing — the subscription is `incomplete` and its first invoice open until the invoice's
 * PaymentIntent is confirmed.
 */
export function createSubscription(ctx: SandboxContext, p: Params): Stripe.Subscription {
  const { store, events } = ctx;
  const customer = store.customer(p.required('customer'));
  const itemParams = p.objects('items');
  if (itemParams.length === 0) throw StripeSandboxError.missingParam('items');
  const catalog = itemParams.map((item, i) => {
    const entry = catalogFor(ctx, item, i);
    return { entry, quantity: itemQuantity(item, i, entry.price) };
  });
  const currency = catalog[0]!.entry.price.currency;
  if (catalog.some((e) => e.entry.price.currency !== currency)) {
    throw StripeSandboxError.invalid('All prices on a subscription must have the same currency.', 'items');
  }
  const behaviour = p.str('payment_behavior') ?? 'allow_incomplete';
  const now = store.now();
  const trialEnd = requestedTrialEnd(ctx, p, catalog[0]!.entry.plan);
  const source = p.str('default_source');
  if (source && store.cards.get(source)?.customer !== customer.id) {
    throw StripeSandboxError.noSuch('source', source, 'default_source');
  }
  const pmParam = p.str('default_payment_method');
  const pm = pmParam ? attachedTo(ctx, pmParam, customer.id, 'default_payment_method') : null;
  const instrument = source
    ? { card: store.cards.get(source)! }
    : defaultInstrument(
        ctx,
        customer,
        pm ? ({ default_payment_method: pm } as Stripe.Subscription) : undefined,
      );
  const card = instrument && 'card' in instrument ? instrument.card : null;

  const sub = makeSubscription(now, {
    customer: customer.id,
    currency,
    status: trialEnd ? 'trialing' : 'active',
    trial_start: trialEnd ? now : null,
    trial_end: trialEnd,
    metadata: p.metadata() ?? {},
    description: p.str('description') ?? null,
    default_tax_rates: taxRatesFrom(ctx, p) ?? [],
    default_source: source ?? null,
    default_payment_method: pm,
    cancel_at_period_end: p.bool('cancel_at_period_end') ?? false,
  });
  const period = trialEnd ? { start: now, end: trialEnd } : pricePeriod(catalog[0]!.entry.price, now);
  sub.items.data = catalog.map(({ entry, quantity }) =>
    makeSubscriptionItem(now, sub.id, entry, quantity, period),
  );
  if (sub.cancel_at_period_end) sub.cancel_at = period.end;

  sub.discounts = discountsFrom(ctx, p, { customer: customer.id, subscription: sub.id }) ?? [];
  const refuse = !trialEnd && behaviour === 'error_if_incomplete';
  // A card source is checked before anything is made; a PaymentMethod is tried, then undone.
  if (refuse && !(instrument && 'paymentMethod' in instrument)) refuseIfUnpayable(ctx, sub, customer, card);
  store.subscriptions.set(sub.id, sub);

  const invoice = buildSubscriptionInvoice(ctx, sub, {
    reason: 'subscription_create',
    period,
    includeItems: true,
    trial: trialEnd !== null,
  });
  finalizeInvoice(ctx, invoice);
  if (invoice.status === 'open' && behaviour === 'default_incomplete') {
    // Nothing is charged: the first invoice waits, open, for its PaymentIntent to be confirmed.
    invoiceIntent(
      ctx,
      invoice,
      instrument && 'paymentMethod' in instrument ? instrument.paymentMethod.id : null,
    );
    sub.status = 'incomplete';
    invoice.next_payment_attempt = null;
  } else if (invoice.status === 'open') {
    const outcome = attemptPayment(ctx, invoice, false);
    if (!outcome.paid && refuse && outcome.intent) {
      store.subscriptions.delete(sub.id);
      voidInvoice(ctx, invoice);
      throw paymentIntentError(outcome.intent);
    }
    if (!outcome.paid) {
      sub.status = 'incomplete';
      // The first invoice of an incomplete subscription is not retried: the customer must act.
      invoice.next_payment_attempt = null;
    }
  }
  events.emit('customer.subscription.created', sub);
  return sub;
}

/**
 * `payment_behavior: 'error_if_incomplete'`: when the first invoice could not be paid, fail with
 * 402 naming the declined charge and keep nothing else — no subscription, invoice or discount.
 */
function refuseIfUnpayable(
  ctx: SandboxContext,
  sub: Stripe.Subscription,
  customer: Stripe.Customer,
  card: Stripe.Card | null,
): void {
  const preview = buildSubscriptionInvoice(ctx, sub, {
    reason: 'subscription_create',
    period: currentPeriod(sub),
    includeItems: true,
    trial: false,
    preview: true,
  });
  const amount = Math.max(0, preview.total + customer.balance);
  const declines = card !== null && ctx.store.cardBehaviour.get(card.id) === 'decline';
  if (amount === 0 || (card && !declines)) return;
  for (const ref of sub.discounts) {
    const discount = ctx.store.discounts.get(typeof ref === 'string' ? ref : ref.id);
    const coupon = discount?.source.coupon;
    if (coupon && typeof coupon !== 'string') coupon.times_redeemed -= 1;
    if (discount) ctx.store.discounts.delete(discount.id);
  }
  if (!card) throw StripeSandboxError.noPaymentSource();
  const charge = runCharge(ctx, {
    amount,
    currency: sub.currency,
    customer: customer.id,
    card,
    description: 'Subscription creation',
  });
  throw StripeSandboxError.cardDeclined(charge.id);
}
