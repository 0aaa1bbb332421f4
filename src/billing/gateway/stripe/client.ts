import Stripe from 'stripe';

export interface StripeClientOptions {
  secret: string;
  /** `http://127.0.0.1:12111` for a sandbox; empty for api.stripe.com. */
  apiBase?: string;
  maxNetworkRetries?: number;
}

/** The official SDK, pointed at Stripe or at a sandbox through its own host/port/protocol settings. */
export function createStripeClient(options: StripeClientOptions): Stripe {
  if (!options.apiBase) {
    return new Stripe(options.secret, { maxNetworkRetries: options.maxNetworkRetries ?? 2 });
  }
  const url = new URL(options.apiBase);
  const protocol = url.protocol === 'https:' ? 'https' : 'http';
  return new Stripe(options.secret, {
    host: url.hostname,
    port: url.port || (protocol === 'https' ? 443 : 80),
    protocol,
    // A sandbox answers at once and deterministically; a retry would only hide a bug.
    maxNetworkRetries: options.maxNetworkRetries ?? 0,
  });
}
