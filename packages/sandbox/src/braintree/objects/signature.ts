import { createHash } from 'node:crypto';
import { hmacHex } from '../../shared/webhooks.js';

/**
 * Braintree signs webhook payloads with HMAC-SHA1 keyed by SHA1(private key), sent as
 * `public_key|hexdigest` (braintree/lib/braintree/digest.js, webhook_notification_gateway.js).
 */
export function signPayload(publicKey: string, privateKey: string, payload: string): string {
  const key = createHash('sha1').update(privateKey, 'binary').digest();
  return `${publicKey}|${hmacHex('sha1', key, payload, 'latin1')}`;
}
