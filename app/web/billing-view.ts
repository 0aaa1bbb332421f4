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

/** `25 December 2026` (UTC): how the billing page names the day a plan renews or ends. */
export function longDate(value: Date | string | null | undefined): string | null {
  if (!value) return null;
  return new Date(value).toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });
}

/**
 * The line under the plan: "Renews on 25 December 2026" (active: the provider's current period
 * end), "Ends on …" (cancelled, in its grace period), "Trial ends on …" (trialing). Null when the
 * date is not known (the provider could not be reached) or nothing renews.
 */
export async function renewalLine(sub: Subscription, view: SubscriptionView): Promise<string | null> {
  if (view.state === 'trial') return prefixed('Trial ends on', longDate(view.trialEndsAt));
  if (view.state === 'grace') return prefixed('Ends on', longDate(view.endsAt));
  if (view.state !== 'active') return null;
  const remote = await sub.asProviderSubscription();
  return prefixed('Renews on', longDate(remote.currentPeriodEnd));
}

const prefixed = (prefix: string, date: string | null) => (date ? `${prefix} ${date}` : null);

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
    renewal: null,
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
