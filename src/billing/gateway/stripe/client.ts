import Stripe from 'stripe';
import { traceHttpCalls } from '../../../core/http-client-spans.js';

export interface StripeClientOptions {
  secret: string;
  /** `http://127.0.0.1:12111` for a sandbox; empty for api.stripe.com. */
  apiBase?: string;
  maxNetworkRetries?: number;
}

/**
 * The official SDK, pointed at Stripe or at a sandbox through its own host/port/protocol settings.
 * With tracing on, each API call is a client span.
 */
export function createStripeClient(options: StripeClientOptions): Stripe {
  const url = options.apiBase ? new URL(options.apiBase) : undefined;
  const protocol = url?.protocol === 'http:' ? 'http' : 'https';
  if (!url) {
    traceHttpCalls('api.stripe.com', 'stripe');
    return new Stripe(options.secret, { maxNetworkRetries: options.maxNetworkRetries ?? 2 });
  }
  traceHttpCalls(url.host, 'stripe');
  return new Stripe(options.secret, {
    host: url.hostname,
    port: url.port || (protocol === 'https' ? 443 : 80),
    protocol,
    // A sandbox answers at once and deterministically; a retry would only hide a bug.
    maxNetworkRetries: options.maxNetworkRetries ?? 0,
  });
}
