import type { TollgateConfig } from 'tollgate';
import { formatMoney, type Invoice, type PlanConfig, type Subscription } from 'tollgate/billing';
import type { SubscriptionView } from './pages/billing-page.js';

/** The reference service's one subscription name. */
export const SUBSCRIPTION = 'default';

/** A plan's price for display: Stripe amounts are minor units, Braintree's decimal strings of the full unit. */
export function planPrice(config: TollgateConfig, plan: PlanConfig): string {
  const { currency, currencySymbol } = config.billing;
  if (typeof plan.amount === 'string') return `${currencySymbol}${plan.amount}`;
  return formatMoney(plan.amount, currency, currencySymbol);
}

/** The subscription as the billing page shows it; the state comes from the billing rules. */
export function subscriptionView(config: TollgateConfig, sub: Subscription): SubscriptionView {
  const state =
    sub.status === 'incomplete' || sub.status === 'incomplete_expired'
      ? 'incomplete'
      : sub.onGracePeriod()
        ? 'grace'
        : sub.ended()
          ? 'ended'
          : sub.onTrial()
            ? 'trial'
            : 'active';
  return {
    plan: config.billing.plans.find((p) => p.id === sub.plan),
    planId: sub.plan,
    state,
    trialEndsAt: sub.trial_ends_at,
    endsAt: sub.ends_at,
  };
}

/** One line for the overview: "Pro — trial until Jan 29, 2026". */
export function subscriptionSummary(view: SubscriptionView | undefined): string {
  if (!view || view.state === 'ended') return 'No subscription.';
  const name = view.plan?.name ?? view.planId;
  const date = (iso: string | null) =>
    iso ? new Date(iso).toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric' }) : '';
  if (view.state === 'trial') return `${name} — trial until ${date(view.trialEndsAt)}`;
  if (view.state === 'grace') return `${name} — cancelled, active until ${date(view.endsAt)}`;
  if (view.state === 'incomplete') return `${name} — payment not confirmed`;
  return `${name} — active`;
}

export function invoiceRow(invoice: Invoice) {
  return {
    id: invoice.id,
    number: invoice.number(),
    date: invoice.date(),
    total: invoice.total(),
    paid: invoice.paid(),
  };
}
