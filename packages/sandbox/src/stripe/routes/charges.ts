import type { Hono } from 'hono';
import type Stripe from 'stripe';
import { cardForToken } from '../domain/cards.js';
import type { SandboxContext } from '../domain/context.js';
import { defaultCard, runCharge } from '../domain/payments.js';
import { assertChargeable } from '../objects/currency.js';
import { StripeSandboxError } from '../objects/errors.js';
import { respond, respondList, type SandboxEnv } from './respond.js';

/** Stripe's minimum charge is 50 units of the smallest currency unit for USD-like currencies. */
const MINIMUM_AMOUNT = 50;

/** One-off charges (https://docs.stripe.com/api/charges/create). */
export function registerCharges(app: Hono<SandboxEnv>, ctx: SandboxContext): void {
  const { store } = ctx;

  app.post('/v1/charges', (c) => {
    const p = c.get('params');
    const amount = p.int('amount');
    if (amount === undefined) throw StripeSandboxError.missingParam('amount');
    const currency = p.required('currency').toLowerCase();
    if (amount < MINIMUM_AMOUNT) {
      throw StripeSandboxError.invalid('Amount must be at least 50 cents', 'amount', 'amount_too_small');
    }
    assertChargeable(amount, currency);
    const customerId = p.str('customer');
    const customer = customerId ? store.customer(customerId) : null;
    const source = p.str('source');
    let card: Stripe.Card | null;
    if (source?.startsWith('tok_')) card = cardForToken(store, source);
    else if (source) {
      card = store.cards.get(source) ?? null;
      if (!card || (customer && card.customer !== customer.id))
        throw StripeSandboxError.noSuch('source', source, 'source');
    } else if (customer) {
      card = defaultCard(ctx, customer);
      if (!card) {
        throw StripeSandboxError.invalid(
          'Cannot charge a customer that has no active card',
          'card',
          'missing',
        );
      }
    } else
      throw StripeSandboxError.invalid('Must provide source or customer.', 'source', 'parameter_missing');

    const charge = runCharge(ctx, {
      amount,
      currency,
      customer: customer?.id ?? null,
      card,
      description: p.str('description') ?? null,
      metadata: p.metadata() ?? {},
      receiptEmail: p.str('receipt_email') ?? null,
      statementDescriptor: p.str('statement_descriptor') ?? null,
    });
    if (charge.status !== 'succeeded') throw StripeSandboxError.cardDeclined(charge.id);
    return respond(c, store, charge);
  });

  app.get('/v1/charges', (c) => {
    const customer = c.get('params').str('customer');
    const all = [...store.charges.values()];
    return respondList(
      c,
      store,
      customer ? all.filter((ch) => ch.customer === customer) : all,
      '/v1/charges',
    );
  });

  app.get('/v1/charges/:id', (c) => {
    const charge = store.charges.get(c.req.param('id'));
    if (!charge) throw StripeSandboxError.noSuch('charge', c.req.param('id'));
    return respond(c, store, charge);
  });
}
