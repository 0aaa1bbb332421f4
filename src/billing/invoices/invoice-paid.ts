/**
 * An invoice was paid (Stripe `invoice.payment_succeeded`, Braintree
 * `subscription_charged_successfully`, whose transaction is the invoice). Listen to it to send a
 * receipt: `Invoices.download(user, invoiceId)` renders its PDF.
 */
export class InvoicePaid {
  constructor(
    readonly userId: number | undefined,
    /** The id `user.findInvoice()` / `downloadInvoice()` take. */
    readonly invoiceId: string,
    /** The provider's subscription id, when it was a subscription's invoice. */
    readonly subscriptionId: string | undefined,
  ) {}
}
