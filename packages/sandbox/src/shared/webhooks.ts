import { type BinaryLike, createHmac } from 'node:crypto';

/** A hex HMAC of a webhook payload: both providers sign their deliveries this way, with their own key and hash. */
export function hmacHex(
  algorithm: 'sha1' | 'sha256',
  key: BinaryLike,
  payload: string,
  encoding: 'utf8' | 'latin1' = 'utf8',
): string {
  return createHmac(algorithm, key).update(payload, encoding).digest('hex');
}

/** What came of one webhook POST: the receiver's status, or the network error that stopped it. */
export interface PostOutcome {
  status: number | null;
  /** A 2xx status: the receiver took the event (a body that breaks off after it does not undo that). */
  ok: boolean;
  error: string | null;
}

/** POSTs one webhook delivery and reads the answer to its end, never throwing. */
export async function postWebhook(url: string, init: { headers: Record<string, string>; body: BodyInit }) {
  const outcome: PostOutcome = { status: null, ok: false, error: null };
  try {
    const response = await fetch(url, { method: 'POST', headers: init.headers, body: init.body });
    outcome.status = response.status;
    // The status is the receiver's answer, as for the real providers: a 2xx whose body is cut off
    // (a slow or dropped connection) was still taken, and retrying it would deliver it twice.
    outcome.ok = response.ok;
    await response.arrayBuffer();
  } catch (error) {
    outcome.error = error instanceof Error ? error.message : String(error);
  }
  return outcome;
}
