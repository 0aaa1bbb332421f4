import { createHash, createHmac } from 'node:crypto';

/**
 * Braintree signs webhook payloads with HMAC-SHA1 keyed by SHA1(private key), sent as
 * `public_key|hexdigest` (braintree/lib/braintree/digest.js, webhook_notification_gateway.js).
 */
export function signPayload(publicKey: string, privateKey: string, payload: string): string {
  const key = createHash('sha1').update(privateKey, 'binary').digest();
  const digest = createHmac('sha1', key).update(payload, 'binary').digest('hex');
  return `${publicKey}|${digest}`;
}
