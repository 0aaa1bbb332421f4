import type Stripe from 'stripe';
import { StripeSandboxError } from '../objects/errors.js';
import { makePaymentMethod } from '../objects/intents.js';
import { type TestCard, testPaymentMethod } from '../objects/test-cards.js';
import type { SandboxContext } from './context.js';

/** A new card PaymentMethod for a test card, unattached. */
export function createPaymentMethod(ctx: SandboxContext, spec: TestCard): Stripe.PaymentMethod {
  const { store } = ctx;
  const year = new Date(store.now() * 1000).getUTCFullYear() + 3;
  const pm = makePaymentMethod(store.now(), spec, year);
  store.paymentMethods.set(pm.id, pm);
  store.paymentMethodCards.set(pm.id, spec);
  return pm;
}

/**
 * A PaymentMethod id as a request gives it. A test id (`pm_card_visa`) makes a new PaymentMethod
 * each time it is used, as at Stripe; any other id must exist.
 */
export function resolvePaymentMethod(ctx: SandboxContext, id: string, param: string): Stripe.PaymentMethod {
  if (id.startsWith('pm_card_')) return createPaymentMethod(ctx, testPaymentMethod(id, param));
  return ctx.store.paymentMethod(id, param);
}

/** https://docs.stripe.com/api/payment_methods/attach: a card that declines on attach fails with 402. */
export function attachPaymentMethod(
  ctx: SandboxContext,
  pm: Stripe.PaymentMethod,
  customer: string,
): Stripe.PaymentMethod {
  if (pm.customer === customer) return pm;
  if (pm.customer) {
    throw StripeSandboxError.invalid(
      'The payment method you provided has already been attached to a customer.',
      'payment_method',
    );
  }
  if (ctx.store.paymentMethodCards.get(pm.id)?.declineOnAttach) throw StripeSandboxError.cardDeclined();
  pm.customer = customer;
  ctx.events.emit('payment_method.attached', pm);
  return pm;
}

/** The customer's PaymentMethod `param` names, resolved and attached (customer creation, updates). */
export function attachById(ctx: SandboxContext, id: string, customer: string, param: string): string {
  return attachPaymentMethod(ctx, resolvePaymentMethod(ctx, id, param), customer).id;
}

/** A PaymentMethod id that must already be attached to `customer` (`invoice_settings.default_payment_method`). */
export function attachedTo(ctx: SandboxContext, id: string, customer: string, param: string): string {
  const pm = ctx.store.paymentMethods.get(id);
  if (!pm || pm.customer !== customer) {
    throw StripeSandboxError.invalid(
      `No such PaymentMethod: '${id}'; It's possible this PaymentMethod exists on one of your connected accounts, or it is not attached to customer ${customer}.`,
      param,
      'resource_missing',
    );
  }
  return pm.id;
}

export type Instrument = { card: Stripe.Card } | { paymentMethod: Stripe.PaymentMethod };

const idOf = (value: string | { id: string } | null | undefined): string | undefined =>
  typeof value === 'string' ? value : value?.id;

/**
 * What an invoice is charged to, in Stripe's order: the subscription's `default_payment_method`,
 * its `default_source`, the customer's `invoice_settings.default_payment_method`, its `default_source`.
 */
export function defaultInstrument(
  ctx: SandboxContext,
  customer: Stripe.Customer,
  subscription?: Stripe.Subscription,
): Instrument | null {
  const { store } = ctx;
  const candidates = [
    idOf(subscription?.default_payment_method),
    idOf(subscription?.default_source),
    idOf(customer.invoice_settings?.default_payment_method),
    idOf(customer.default_source),
  ];
  for (const id of candidates) {
    if (!id) continue;
    const card = store.cards.get(id);
    if (card) return { card };
    const pm = store.paymentMethods.get(id);
    if (pm && pm.customer === customer.id) return { paymentMethod: pm };
  }
  return null;
}
