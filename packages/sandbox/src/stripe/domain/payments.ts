import type Stripe from 'stripe';
import { makeCharge } from '../objects/payments.js';
import type { SandboxContext } from './context.js';

export interface ChargeRequest {
  amount: number;
  currency: string;
  customer: string | null;
  card: Stripe.Card;
  description: string | null;
  metadata?: Record<string, string>;
  receiptEmail?: string | null;
  statementDescriptor?: string | null;
}

/**
 * The card to charge: the subscription's own `default_source` when it has one that still
 * exists, else the customer's default card.
 */
export function defaultCard(
  ctx: SandboxContext,
  customer: Stripe.Customer,
  subscription?: Stripe.Subscription,
): Stripe.Card | null {
  const idOf = (source: string | Stripe.CustomerSource | null | undefined) =>
    typeof source === 'string' ? source : source?.id;
  const own = idOf(subscription?.default_source);
  const id = (own && ctx.store.cards.has(own) ? own : undefined) ?? idOf(customer.default_source);
  return id ? (ctx.store.cards.get(id) ?? null) : null;
}

/**
 * Run a charge against a test card. A failed charge is still a stored charge object (status
 * `failed`), as at Stripe, so the 402 error can name it.
 */
export function runCharge(ctx: SandboxContext, request: ChargeRequest): Stripe.Charge {
  const succeeded = ctx.store.cardBehaviour.get(request.card.id) !== 'decline';
  const charge = makeCharge(ctx.store.now(), {
    amount: request.amount,
    currency: request.currency,
    customer: request.customer,
    card: request.card,
    description: request.description,
    metadata: request.metadata ?? {},
    receiptEmail: request.receiptEmail ?? null,
    statementDescriptor: request.statementDescriptor ?? null,
    succeeded,
  });
  ctx.store.charges.set(charge.id, charge);
  ctx.events.emit(succeeded ? 'charge.succeeded' : 'charge.failed', charge);
  return charge;
}
