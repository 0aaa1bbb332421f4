import type Stripe from 'stripe';
import type { SandboxContext } from './context.js';
import { makeCharge } from './objects/payments.js';

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

/** The customer's default card, if it still exists. */
export function defaultCard(ctx: SandboxContext, customer: Stripe.Customer): Stripe.Card | null {
  const id =
    typeof customer.default_source === 'string' ? customer.default_source : customer.default_source?.id;
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
