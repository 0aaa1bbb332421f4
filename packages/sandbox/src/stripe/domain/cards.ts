import type Stripe from 'stripe';
import { StripeSandboxError } from '../objects/errors.js';
import { type CardDetails, makeCard } from '../objects/payments.js';
import type { CardBehaviour, SandboxStore } from '../store/store.js';

interface TestToken {
  details: CardDetails;
  /** Declined already when attached to a customer (Stripe validates the card on attach). */
  declineOnAttach: boolean;
  behaviour: CardBehaviour;
}

const visa = { brand: 'Visa', funding: 'credit', country: 'US' };

/** The test tokens the sandbox knows, with Stripe's documented behaviour (https://docs.stripe.com/testing). */
export const TEST_TOKENS: Record<string, TestToken> = {
  tok_visa: { details: { ...visa, last4: '4242' }, declineOnAttach: false, behaviour: 'succeed' },
  tok_visa_debit: {
    details: { ...visa, funding: 'debit', last4: '5556' },
    declineOnAttach: false,
    behaviour: 'succeed',
  },
  tok_mastercard: {
    details: { brand: 'MasterCard', funding: 'credit', country: 'US', last4: '4444' },
    declineOnAttach: false,
    behaviour: 'succeed',
  },
  tok_amex: {
    details: { brand: 'American Express', funding: 'credit', country: 'US', last4: '0005' },
    declineOnAttach: false,
    behaviour: 'succeed',
  },
  tok_chargeDeclined: { details: { ...visa, last4: '0002' }, declineOnAttach: true, behaviour: 'decline' },
  tok_chargeCustomerFail: {
    details: { ...visa, last4: '0341' },
    declineOnAttach: false,
    behaviour: 'decline',
  },
};

function token(id: string, param: string): TestToken {
  const found = TEST_TOKENS[id];
  if (!found) throw StripeSandboxError.noSuch('token', id, param);
  return found;
}

/** Attach a token to a customer as a new card object; a declining token fails with 402. */
export function attachToken(
  store: SandboxStore,
  customer: string,
  tokenId: string,
  param = 'source',
): Stripe.Card {
  const spec = token(tokenId, param);
  if (spec.declineOnAttach) throw StripeSandboxError.cardDeclined();
  return storeCard(store, customer, spec);
}

/** A token used directly as a charge source, without a customer. */
export function cardForToken(store: SandboxStore, tokenId: string, param = 'source'): Stripe.Card {
  return storeCard(store, null, token(tokenId, param));
}

function storeCard(store: SandboxStore, customer: string | null, spec: TestToken): Stripe.Card {
  const year = new Date(store.now() * 1000).getUTCFullYear() + 3;
  const card = makeCard(customer, spec.details, year);
  store.cards.set(card.id, card);
  store.cardBehaviour.set(card.id, spec.behaviour);
  return card;
}
