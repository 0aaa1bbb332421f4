import type { BillingEdition } from '../config.js';
import type { Edition } from './edition.js';

/**
 * Every edition, by the name `billing.edition` gives. Each is imported when chosen, so an
 * application loads one payment SDK; the paths are literal, so bundlers and readers see them all.
 */
export const editions: Readonly<Record<BillingEdition, () => Promise<Edition>>> = Object.freeze({
  stripe: async () => (await import('./stripe/stripe-edition.js')).stripeEdition,
  braintree: async () => (await import('./braintree/braintree-edition.js')).braintreeEdition,
});
