import type { SecurityHeaders } from '../../http/security-headers.js';
import type { BillingEdition } from '../config.js';

/**
 * What each edition's card form loads in the browser, added to the strict Content-Security-Policy:
 * Stripe.js Elements (docs.stripe.com/security/guide, "Content Security Policy") and Braintree's
 * Drop-in with PayPal (Braintree's JavaScript SDK setup guide, "Content Security Policy"). Drop-in
 * writes inline styles, so the Braintree edition alone gets `'unsafe-inline'` for styles — never
 * for scripts. Both the live and the providers' own sandbox hosts are listed.
 */
const CARD_FORM_SOURCES: Record<BillingEdition, Record<string, string[]>> = {
  stripe: {
    'script-src': ['https://js.stripe.com'],
    'frame-src': ['https://js.stripe.com', 'https://hooks.stripe.com'],
    'connect-src': ['https://api.stripe.com'],
    'img-src': ['https://*.stripe.com'],
  },
  braintree: {
    'script-src': [
      'https://js.braintreegateway.com',
      'https://assets.braintreegateway.com',
      'https://www.paypalobjects.com',
      'https://*.paypal.com',
    ],
    'style-src': ["'unsafe-inline'", 'https://assets.braintreegateway.com'],
    'frame-src': [
      'https://assets.braintreegateway.com',
      'https://*.paypal.com',
      'https://*.cardinalcommerce.com',
    ],
    'connect-src': [
      'https://api.braintreegateway.com',
      'https://api.sandbox.braintreegateway.com',
      'https://client-analytics.braintreegateway.com',
      'https://client-analytics.sandbox.braintreegateway.com',
      'https://*.braintree-api.com',
      'https://*.paypal.com',
    ],
    'img-src': ['https://assets.braintreegateway.com', 'https://checkout.paypal.com'],
  },
};

/** Lets pages load the configured edition's card form, and nothing else from elsewhere. */
export function allowCardFormSources(headers: SecurityHeaders, edition: BillingEdition): void {
  for (const [directive, sources] of Object.entries(CARD_FORM_SOURCES[edition] ?? {})) {
    headers.allow(directive, ...sources);
  }
}
