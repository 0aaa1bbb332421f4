import type { Instrument, IssuedNonce, ThreeDSecureInfo } from '../store/records.js';

const card = (cardType: string, bin: string, last4: string, declines = false): Instrument => ({
  kind: 'credit_card',
  cardType,
  bin,
  last4,
  expirationMonth: '12',
  expirationYear: '2030',
  declines,
});

/** Visa 4000 0000 0000 1091: the card Braintree's 3-D Secure 2 testing uses for a challenge. */
const challengeCard = (): Instrument => ({ ...card('Visa', '400000', '1091'), threeDSecure: 'challenge' });

export const authenticated = (ok: boolean): ThreeDSecureInfo => ({
  status: ok ? 'authenticate_successful' : 'authenticate_failed',
  liabilityShifted: ok,
  liabilityShiftPossible: true,
  enrolled: 'Y',
});

/**
 * Braintree's 3-D Secure test nonces (already through the challenge, so they carry its outcome), and
 * the sandbox's own nonce for the same card not yet authenticated — what a Drop-in without
 * `threeDSecure` gives.
 */
const THREE_D_SECURE_NONCES: Record<string, ThreeDSecureInfo | null> = {
  'fake-three-d-secure-visa-full-authentication-nonce': authenticated(true),
  'fake-three-d-secure-visa-failed-authentication-nonce': authenticated(false),
  'fake-valid-three-d-secure-visa-nonce': null,
};

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

export type NonceLookup = ({ ok: true } & IssuedNonce) | { ok: false; reason: 'consumed' | 'unknown' };

/** Resolves a nonce; a nonce is single-use, except the fixed test nonces above. */
export function resolveNonce(nonce: string, issued: Map<string, IssuedNonce>): NonceLookup {
  if (nonce === CONSUMED_NONCE) return { ok: false, reason: 'consumed' };
  const fixed = NONCES[nonce];
  if (fixed) return { ok: true, instrument: { ...fixed }, token: null, threeDSecureInfo: null };
  if (nonce in THREE_D_SECURE_NONCES) {
    const info = THREE_D_SECURE_NONCES[nonce] ?? null;
    return { ok: true, instrument: challengeCard(), token: null, threeDSecureInfo: info && { ...info } };
  }
  const once = issued.get(nonce);
  if (once) {
    issued.delete(nonce);
    return { ok: true, ...once };
  }
  return { ok: false, reason: 'unknown' };
}
