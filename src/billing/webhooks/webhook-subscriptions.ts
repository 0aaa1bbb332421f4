import { CheckoutAdoptions } from '../subscriptions/checkout-adoption.js';
import { ProviderUpdates } from '../subscriptions/provider-updates.js';

/**
 * What the webhook receiver uses of subscriptions, as one dependency (its constructor's third, so
 * a subclass that appends its own after the four keeps working): the provider's reports applied to
 * the rows, and the subscription a Checkout Session made, stored.
 */
export class WebhookSubscriptions {
  static inject = [ProviderUpdates, CheckoutAdoptions] as const;

  constructor(
    readonly providerUpdates: ProviderUpdates,
    readonly checkoutAdoptions: CheckoutAdoptions,
  ) {}
}
