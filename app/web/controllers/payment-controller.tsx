import type { Context } from 'hono';
import { ConfigKey, type TollgateConfig } from 'tollgate';
import { formatMoney, Payments } from 'tollgate/billing';
import { renderPage } from 'tollgate/views';
import type { AppUser } from '../../user.js';
import { PaymentPage } from '../pages/payment-page.js';
import { scriptUrl } from '../scripts.js';

/**
 * `GET /billing/payment/{id}`: confirm a payment that needs 3-D Secure. The customer comes here
 * from `IncompletePayment` (subscribing, a charge) or from the banner and e-mail of a renewal,
 * goes through their bank's check (Stripe.js, or the sandbox's challenge page) and returns here
 * (Braintree: with the nonce the check verified, which pays the payment here).
 * A payment found succeeded brings its subscription up to date from the provider — the same
 * ordered update the webhook makes, so the two agree whichever comes first.
 */
export class PaymentController {
  static inject = [ConfigKey, Payments] as const;

  constructor(
    private readonly config: TollgateConfig,
    private readonly payments: Payments,
  ) {}

  /** Route parameters come first, then the context (the router's calling convention). */
  async show(id: string, c: Context): Promise<Response> {
    const user = c.get('user') as AppUser;
    // Back from Braintree's 3-D Secure (the Drop-in's verifyCard, or offline the sandbox's challenge)
    // with the verified nonce: it pays, once — a reload finds the payment done.
    const verified = c.req.query('payment_method_nonce');
    const payment = verified ? await this.payments.complete(user, id, verified) : await user.findPayment(id);
    if (payment.status === 'succeeded') await this.payments.sync(payment);
    const sub = payment.subscriptionId
      ? (await user.subscriptions()).find((s) => s.providerId === payment.subscriptionId)
      : undefined;
    const plan = sub ? this.config.billing.plans.find((p) => p.id === sub.plan) : undefined;
    const back = `${new URL(c.req.url).origin}/billing/payment/${encodeURIComponent(payment.id)}`;
    const { stripe } = this.config.billing;
    const confirm = payment.actionUrl
      ? { sandboxUrl: `${payment.actionUrl}&return_url=${encodeURIComponent(back)}` }
      : stripe.key && !stripe.apiBase
        ? { stripeKey: stripe.key }
        : null;
    return renderPage(
      c,
      { title: 'Confirm your payment' },
      <PaymentPage
        script={await scriptUrl()}
        payment={payment}
        amount={formatMoney(payment.amount, payment.currency, this.config.billing.currencySymbol)}
        purpose={plan ? `${plan.name} subscription` : sub ? `${sub.plan} subscription` : 'a one-off payment'}
        confirm={confirm}
      />,
    );
  }
}
