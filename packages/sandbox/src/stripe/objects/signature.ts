import { hmacHex } from '../../shared/webhooks.js';

/**
 * The `Stripe-Signature` header: `t=<unix>,v1=<hex HMAC-SHA256 of "t.body">`
 * (https://docs.stripe.com/webhooks#verify-manually). Signed with the wall clock, not the
 * sandbox clock, because the SDK checks the timestamp against the system time.
 */
export function signPayload(
  payload: string,
  secret: string,
  timestamp = Math.floor(Date.now() / 1000),
): string {
  return `t=${timestamp},v1=${hmacHex('sha256', secret, `${timestamp}.${payload}`)}`;
}
