import type { FC } from 'hono/jsx';
import type { GatewayPayment } from 'tollgate/billing';
import { DashboardFrame } from './frame.js';

export interface PaymentPageProps {
  script: string;
  payment: GatewayPayment;
  /** The amount as the customer reads it: "$10.00". */
  amount: string;
  /** What the payment is for: the plan, or "a one-off charge". */
  purpose: string;
  /** Where the 3-D Secure step runs: Stripe.js with a publishable key, or the sandbox's test page. */
  confirm: { stripeKey: string } | { sandboxUrl: string } | null;
}

/**
 * `/billing/payment/{id}`: the payment confirmation page (Cashier's). The customer authenticates
 * with their bank (3-D Secure) and comes back here; the page then shows the outcome.
 */
export const PaymentPage: FC<PaymentPageProps> = ({ script, payment, amount, purpose, confirm }) => (
  <DashboardFrame current="billing" title="Confirm your payment" script={script}>
    <section class="card" data-payment={payment.id} data-payment-status={payment.status}>
      <h2>
        {amount} — {purpose}
      </h2>
      {payment.status === 'succeeded' ? (
        <div class="flash flash-status" role="status">
          Payment confirmed.{payment.subscriptionId ? ' Your subscription is active.' : ''}
        </div>
      ) : payment.status === 'requires_action' ? (
        <>
          <p>
            Your bank asks you to confirm this payment (3-D Secure). Nothing is charged until you do
            {payment.subscriptionId ? ', and the subscription starts once it is confirmed' : ''}.
          </p>
          {confirm && 'sandboxUrl' in confirm ? (
            <p>
              <a class="btn btn-primary" href={confirm.sandboxUrl} data-confirm-payment>
                Confirm payment
              </a>{' '}
              <span class="small muted">Sandbox mode: the bank's page is the sandbox's test page.</span>
            </p>
          ) : confirm ? (
            <p>
              <button
                type="button"
                class="btn btn-primary"
                data-confirm-payment
                data-stripe-key={confirm.stripeKey}
                data-client-secret={payment.clientSecret ?? ''}
              >
                Confirm payment
              </button>
            </p>
          ) : (
            <p class="muted">This payment cannot be confirmed here.</p>
          )}
          <div data-payment-error />
        </>
      ) : (
        <div class="flash flash-error" role="alert">
          {payment.status === 'canceled'
            ? (payment.failureMessage ?? 'This payment was cancelled.')
            : `The payment was not confirmed: ${payment.failureMessage ?? 'authentication failed.'}`}{' '}
          Nothing was charged{payment.subscriptionId ? ' and the subscription is not active' : ''}.
        </div>
      )}
      <p class="mt-md">
        <a href="/dashboard/billing">Back to billing</a>
      </p>
    </section>
  </DashboardFrame>
);
