import type { BillingEdition } from '../config.js';

/** The columns an edition fills on `users` (customer id) and `subscriptions` (id, plan). */
export interface EditionColumns {
  readonly customerId: 'stripe_id' | 'braintree_id';
  readonly subscriptionId: 'stripe_id' | 'braintree_id';
  readonly subscriptionPlan: 'stripe_plan' | 'braintree_plan';
}

/** What the shared billing code needs to know of an edition: its differences as data, not `if`s. */
export interface GatewayCapabilities {
  readonly edition: BillingEdition;
  /** Quantities on subscriptions (Stripe yes, Braintree no). */
  readonly supportsQuantities: boolean;
  /** PayPal as a payment method, reported as `paypal_email` (Braintree). */
  readonly supportsPaypal: boolean;
  /** The unit of amounts given to `charge`/`invoiceFor`: `minor` = cents (Stripe), `major` = dollars (Braintree). */
  readonly amountUnit: 'minor' | 'major';
  /** `reportUsage`: metered usage billed by the provider (Stripe meter events, Braintree add-ons). */
  readonly supportsUsageReporting: boolean;
  /**
   * The provider's hosted payment page and customer portal (Stripe Checkout and the billing
   * portal): `checkout()` and `billingPortalUrl()` on the user. Braintree has neither.
   */
  readonly supportsHostedCheckout: boolean;
  readonly columns: EditionColumns;
}

/**
 * The defaults an edition inherits, so a new edition states only its name, its columns and what it
 * does differently (as Kysely's `DialectAdapterBase` does for a dialect's adapter).
 *
 * @example
 * class AcmeCapabilities extends GatewayCapabilitiesBase {
 *   readonly edition = 'acme';
 *   readonly columns = { customerId: 'acme_id', subscriptionId: 'acme_id', subscriptionPlan: 'acme_plan' };
 *   override readonly supportsQuantities = true;
 * }
 */
export abstract class GatewayCapabilitiesBase implements GatewayCapabilities {
  abstract readonly edition: BillingEdition;
  abstract readonly columns: EditionColumns;
  readonly supportsQuantities: boolean = false;
  readonly supportsPaypal: boolean = false;
  readonly amountUnit: 'minor' | 'major' = 'minor';
  readonly supportsUsageReporting: boolean = false;
  readonly supportsHostedCheckout: boolean = false;
}
