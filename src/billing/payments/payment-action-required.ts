import type { GatewayPayment } from '../gateway/payment-gateway.js';

/**
 * An off-session payment (a renewal) needs the customer's action — 3-D Secure under strong
 * customer authentication (Stripe: `invoice.payment_action_required`). Listen to it to send the
 * customer the confirmation page's link; the billing page shows it as well.
 *
 * @example
 * app.container.make(EventsKey).listen(PaymentActionRequired, async (event) => {
 *   await mailer.send(event.userId, `Confirm your payment: ${appUrl}/billing/payment/${event.payment.id}`);
 * });
 */
export class PaymentActionRequired {
  constructor(
    /** The user whose customer owes it; undefined when no user has that customer id. */
    readonly userId: number | undefined,
    readonly payment: GatewayPayment,
    readonly invoiceId: string,
  ) {}
}
