import { randomChars } from '../../shared/ids.js';
import type { IssuedNonce, PaymentMethodRecord } from '../store/records.js';
import type { SandboxContext } from './context.js';
import { authenticated } from './nonces.js';

const NONCE_CHARS = '0123456789abcdef';

/** A single-use nonce: `tokencc_` + random, as Braintree's look. */
export function issueNonce(ctx: SandboxContext, issued: IssuedNonce): string {
  const nonce = `tokencc_sb_${randomChars(24, NONCE_CHARS)}`;
  ctx.store.nonces.set(nonce, issued);
  return nonce;
}

/** `paymentMethodNonce.create(token)`: a nonce for a vaulted method, to run 3-D Secure on. */
export function nonceForVaulted(ctx: SandboxContext, pm: PaymentMethodRecord): string {
  return issueNonce(ctx, { instrument: { ...pm }, token: pm.token, threeDSecureInfo: null });
}

/**
 * The Drop-in's `threeDSecure.verifyCard` (lookup, then the issuer's challenge when the card asks
 * for one): consumes `nonce` and gives a new one carrying the outcome. A card that asks for no
 * challenge is authenticated without one (frictionless). Null for an unknown or used nonce.
 */
export function verifyCard(
  ctx: SandboxContext,
  nonce: string,
  passed: boolean,
): { nonce: string; liabilityShifted: boolean } | null {
  const issued = ctx.store.nonces.get(nonce);
  if (issued?.instrument.kind !== 'credit_card') return null;
  ctx.store.nonces.delete(nonce);
  const challenged = issued.instrument.threeDSecure === 'challenge';
  const info = challenged
    ? authenticated(passed)
    : { ...authenticated(true), status: 'authenticate_frictionless_successful' as const };
  return {
    nonce: issueNonce(ctx, { ...issued, threeDSecureInfo: info }),
    liabilityShifted: info.liabilityShifted,
  };
}

/** Whether the card behind a nonce asks for a challenge (the page shows one) or passes frictionless. */
export function challengeNeeded(ctx: SandboxContext, nonce: string): boolean | null {
  const issued = ctx.store.nonces.get(nonce);
  if (issued?.instrument.kind !== 'credit_card') return null;
  return issued.instrument.threeDSecure === 'challenge';
}
