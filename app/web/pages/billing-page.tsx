import type { FC } from 'hono/jsx';
import type { PlanConfig } from 'tollgate/billing';
import { CsrfField } from 'tollgate/views';
import { CardEntry, type CardEntryConfig } from '../card-entry.js';
import { DashboardFrame, displayDate } from './frame.js';

export interface SubscriptionView {
  plan: PlanConfig | undefined;
  planId: string;
  /** `incomplete`: created, its first payment waits for 3-D Secure (not subscribed yet). */
  state: 'active' | 'trial' | 'grace' | 'ended' | 'incomplete';
  trialEndsAt: string | null;
  endsAt: string | null;
  /** "Renews on 25 December 2026", "Ends on …", "Trial ends on …"; null when unknown. */
  renewal: string | null;
}

export interface BillingPageProps {
  script: string;
  csrfToken: string;
  /** New on every render of the page: a form posted twice (double click, resend) subscribes once. */
  requestKey: string;
  plans: PlanConfig[];
  /** The plan picked last time (after a declined card); the first plan otherwise. */
  selectedPlan?: string | undefined;
  price: (plan: PlanConfig) => string;
  subscription: SubscriptionView | undefined;
  /** A payment that waits for the customer's 3-D Secure (a renewal, or the first payment). */
  pendingPayment?: { id: string; amount: string } | undefined;
  /** The default payment method on file: a card, or (Braintree) a PayPal account. */
  card: { brand: string; lastFour: string } | { paypal: string } | undefined;
  invoices: Array<{ id: string; number: string; date: string; total: string; paid: boolean }>;
  cardEntry: CardEntryConfig;
  /** The provider could not be reached: show what is known locally. */
  providerError?: string | undefined;
  /** The edition has a hosted Checkout page: offer "Subscribe with Checkout". */
  hostedCheckout?: boolean;
  /** The user is a customer and the edition has a customer portal: offer "Manage billing". */
  portal?: boolean;
}

const Price: FC<{ plan: PlanConfig; price: string }> = ({ plan, price }) => (
  <span class="price">
    {price} <small>/ {plan.interval}</small>
  </span>
);

const StatusBadge: FC<{ sub: SubscriptionView }> = ({ sub }) => {
  switch (sub.state) {
    case 'trial':
      return <span class="badge badge-success">Trial until {displayDate(sub.trialEndsAt)}</span>;
    case 'grace':
      return <span class="badge badge-warning">Cancelled — active until {displayDate(sub.endsAt)}</span>;
    case 'ended':
      return <span class="badge badge-danger">Ended {displayDate(sub.endsAt)}</span>;
    case 'incomplete':
      return <span class="badge badge-warning">Payment not confirmed</span>;
    default:
      return <span class="badge badge-success">Active</span>;
  }
};

const Current: FC<BillingPageProps & { sub: SubscriptionView }> = (props) => {
  const { sub, csrfToken, plans, price } = props;
  const others = plans.filter((p) => p.id !== sub.planId);
  return (
    <section class="card" data-subscription data-state={sub.state}>
      <div class="row">
        <h2>Your subscription</h2>
        <StatusBadge sub={sub} />
      </div>
      {sub.renewal ? (
        <p class="mt-sm" data-renewal>
          <strong>{sub.renewal}</strong>
        </p>
      ) : null}
      <dl class="dl mt-md">
        <dt>Plan</dt>
        <dd data-plan={sub.planId}>{sub.plan?.name ?? sub.planId}</dd>
        <dt>Price</dt>
        <dd>{sub.plan ? `${price(sub.plan)} / ${sub.plan.interval}` : '—'}</dd>
        {sub.state === 'trial' ? (
          <>
            <dt>Trial ends</dt>
            <dd>{displayDate(sub.trialEndsAt)} — the first charge is then</dd>
          </>
        ) : null}
        {sub.state === 'grace' ? (
          <>
            <dt>Access until</dt>
            <dd data-ends-at>{displayDate(sub.endsAt)} (end of the paid period; no further charges)</dd>
          </>
        ) : null}
      </dl>
      {sub.state === 'grace' ? (
        <form method="post" action="/dashboard/billing/resume" class="actions">
          <CsrfField token={csrfToken} />
          <button type="submit" class="btn btn-primary">
            Resume subscription
          </button>
          <span class="small muted">Billing continues on the original cycle; nothing is charged now.</span>
        </form>
      ) : null}
      {sub.state === 'active' || sub.state === 'trial' ? (
        <div class="actions">
          {others.length > 0 ? (
            <form method="post" action="/dashboard/billing/swap" class="actions m-0">
              <CsrfField token={csrfToken} />
              <label class="small" for="swap-plan">
                Change plan
              </label>
              <select id="swap-plan" name="plan" class="select">
                {others.map((p) => (
                  <option value={p.id}>
                    {p.name} — {price(p)} / {p.interval}
                  </option>
                ))}
              </select>
              <button type="submit" class="btn">
                Swap
              </button>
            </form>
          ) : null}
          <form
            class="m-0"
            method="post"
            action="/dashboard/billing/cancel"
            data-confirm="Cancel your subscription? It stays active until the end of the paid period."
          >
            <CsrfField token={csrfToken} />
            <button type="submit" class="btn btn-danger">
              Cancel subscription
            </button>
          </form>
        </div>
      ) : null}
    </section>
  );
};

const Subscribe: FC<BillingPageProps> = ({
  plans,
  price,
  csrfToken,
  requestKey,
  cardEntry,
  selectedPlan,
  card,
  hostedCheckout,
}) => {
  // Offline, the card saved on the sandbox's card page can pay for the subscription.
  const onFile = card && 'brand' in card ? `${card.brand} ending ${card.lastFour}` : undefined;
  const selected = plans.some((p) => p.id === selectedPlan) ? selectedPlan : plans[0]?.id;
  return (
    <section class="card">
      <h2>Choose a plan</h2>
      <form method="post" action="/dashboard/billing/subscribe" data-card-form>
        <CsrfField token={csrfToken} />
        <input type="hidden" name="request_key" value={requestKey} />
        <div class="plans" role="radiogroup" aria-label="Plan">
          {plans.map((plan) => (
            <label class="plan" for={`plan-${plan.id}`}>
              <input
                type="radio"
                id={`plan-${plan.id}`}
                name="plan"
                value={plan.id}
                checked={plan.id === selected}
              />
              <span class="name">{plan.name}</span>
              <Price plan={plan} price={price(plan)} />
              {plan.description ? <span class="small muted desc">{plan.description}</span> : null}
              {plan.trialDays ? (
                <span class="badge badge-success mt-sm">{plan.trialDays}-day free trial</span>
              ) : null}
            </label>
          ))}
        </div>
        <CardEntry config={cardEntry} idPrefix="subscribe" onFile={onFile} />
        <div class="actions">
          <button type="submit" class="btn btn-primary">
            Subscribe
          </button>
          <span class="small muted">Plans with a trial charge nothing until the trial ends.</span>
        </div>
      </form>
      {hostedCheckout ? (
        <form method="post" action="/dashboard/billing/checkout" class="actions mt-md" data-checkout-form>
          <CsrfField token={csrfToken} />
          <input type="hidden" name="request_key" value={`${requestKey}-checkout`} />
          <label class="small" for="checkout-plan">
            Or pay on Stripe's page
          </label>
          <select id="checkout-plan" name="plan" class="select">
            {plans.map((p) => (
              <option value={p.id} selected={p.id === selected}>
                {p.name} — {price(p)} / {p.interval}
              </option>
            ))}
          </select>
          <button type="submit" class="btn">
            Subscribe with Checkout
          </button>
        </form>
      ) : null}
    </section>
  );
};

/** "Manage billing": the provider's customer portal (cancel, switch plan, card, invoices). */
const Portal: FC<{ csrfToken: string }> = ({ csrfToken }) => (
  <form method="post" action="/dashboard/billing/portal" class="actions m-0" data-portal-form>
    <CsrfField token={csrfToken} />
    <button type="submit" class="btn">
      Manage billing
    </button>
    <span class="small muted">Cancel, switch plan or replace your card on Stripe's billing portal.</span>
  </form>
);

/** `/dashboard/billing`: plans, the subscription and its actions, the card, invoices. */
export const BillingPage: FC<BillingPageProps> = (props) => {
  const sub = props.subscription;
  const live = sub && sub.state !== 'ended' && sub.state !== 'incomplete';
  const pending = props.pendingPayment;
  return (
    <DashboardFrame current="billing" title="Billing" script={props.script}>
      {props.providerError ? (
        <div class="flash flash-error" role="alert">
          {props.providerError}
        </div>
      ) : null}
      {pending ? (
        <div class="flash flash-error" role="alert" data-payment-banner>
          Your payment of {pending.amount} needs your confirmation (3-D Secure) before it can go through.{' '}
          <a href={`/billing/payment/${encodeURIComponent(pending.id)}`}>Confirm your payment</a>
        </div>
      ) : null}
      {sub ? <Current {...props} sub={sub} /> : null}
      {props.portal ? (
        <section class="card">
          <h2>Billing portal</h2>
          <Portal csrfToken={props.csrfToken} />
        </section>
      ) : null}
      {live ? null : <Subscribe {...props} />}
      <section class="card">
        <h2>Payment method</h2>
        {props.card && 'paypal' in props.card ? (
          <p data-card-on-file>
            PayPal account <strong>{props.card.paypal}</strong>
          </p>
        ) : props.card ? (
          <p data-card-on-file>
            {props.card.brand} ending <strong>{props.card.lastFour}</strong>
          </p>
        ) : (
          <p class="muted">No card on file.</p>
        )}
        {props.card || live ? (
          <details>
            <summary class="btn">Update card</summary>
            <form class="mt-md" method="post" action="/dashboard/billing/card" data-card-form>
              <CsrfField token={props.csrfToken} />
              <CardEntry config={props.cardEntry} idPrefix="update" />
              <div class="actions">
                <button type="submit" class="btn btn-primary">
                  Save card
                </button>
              </div>
            </form>
          </details>
        ) : null}
      </section>
      <section class="card" data-invoices>
        <h2>Invoices</h2>
        {props.invoices.length === 0 ? (
          <p class="muted">No invoices yet.</p>
        ) : (
          <div class="table-wrap">
            <table class="table stack-sm">
              <thead>
                <tr>
                  <th>Date</th>
                  <th>Number</th>
                  <th>Total</th>
                  <th>
                    <span class="hidden">Download</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {props.invoices.map((invoice) => (
                  <tr data-invoice={invoice.id}>
                    <td class="nowrap">{invoice.date}</td>
                    <td class="mono">{invoice.number}</td>
                    <td>
                      <strong>{invoice.total}</strong> {invoice.paid ? null : <span class="badge">open</span>}
                    </td>
                    <td>
                      <a href={`/user/invoice/${encodeURIComponent(invoice.id)}`} download>
                        Download PDF
                      </a>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </DashboardFrame>
  );
};
