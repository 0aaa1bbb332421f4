/**
 * A subscription's payment failed (a declined renewal; Stripe `invoice.payment_failed`, Braintree
 * `subscription_charged_unsuccessfully`): the subscription is past due until the card is fixed.
 * Raised once per webhook event; listen to it to ask the customer to update their card.
 */
export class PaymentFailed {
  constructor(
    /** The user whose customer owes it; undefined when no user has that customer. */
    readonly userId: number | undefined,
    /** The invoice (Stripe) or transaction (Braintree) that failed. */
    readonly reference: string,
    /** The provider's subscription id, when the payment was for one. */
    readonly subscriptionId: string | undefined,
  ) {}
}
