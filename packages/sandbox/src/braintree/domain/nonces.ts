import type { Instrument } from '../store/records.js';

const card = (cardType: string, bin: string, last4: string, declines = false): Instrument => ({
  kind: 'credit_card',
  cardType,
  bin,
  last4,
  expirationMonth: '12',
  expirationYear: '2030',
  declines,
});

/**
 * Braintree's documented sandbox nonces (Testing → Payment method nonces) that Tollgate relies on.
 * A declined-card nonce vaults normally; the processor declines it when it is charged.
 */
const NONCES: Record<string, Instrument> = {
  'fake-valid-nonce': card('Visa', '411111', '1111'),
  'fake-valid-visa-nonce': card('Visa', '401288', '1881'),
  'fake-valid-mastercard-nonce': card('MasterCard', '555555', '4444'),
  'fake-valid-amex-nonce': card('American Express', '378282', '0005'),
  'fake-valid-discover-nonce': card('Discover', '601111', '1117'),
  'fake-processor-declined-visa-nonce': card('Visa', '400011', '1115', true),
  'fake-processor-declined-mastercard-nonce': card('MasterCard', '510510', '5100', true),
  'fake-paypal-billing-agreement-nonce': {
    kind: 'paypal_account',
    email: 'jane.doe@paypal.com',
    declines: false,
  },
  'fake-paypal-future-nonce': { kind: 'paypal_account', email: 'jane.doe@paypal.com', declines: false },
};

export const CONSUMED_NONCE = 'fake-consumed-nonce';

export type NonceLookup =
  | { ok: true; instrument: Instrument }
  | { ok: false; reason: 'consumed' | 'unknown' };

/** Resolves a nonce; a nonce is single-use, except the fixed test nonces above. */
export function resolveNonce(nonce: string, issued: Map<string, Instrument>): NonceLookup {
  if (nonce === CONSUMED_NONCE) return { ok: false, reason: 'consumed' };
  const fixed = NONCES[nonce];
  if (fixed) return { ok: true, instrument: { ...fixed } };
  const once = issued.get(nonce);
  if (once) {
    issued.delete(nonce);
    return { ok: true, instrument: once };
  }
  return { ok: false, reason: 'unknown' };
}
