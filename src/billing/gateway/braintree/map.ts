import { type CurrencyUnit, currencyUnit } from '../../money.js';
import type { SubscriptionStatus } from '../../subscriptions/provider-status.js';
import type {
  GatewayCustomer,
  GatewayInvoice,
  GatewayInvoiceLine,
  GatewaySubscription,
} from '../payment-gateway.js';
import { addDays, startOf } from './dates.js';
import type { BtCustomer, BtModification, BtPaymentMethod, BtSubscription, BtTransaction } from './types.js';

/** Transaction statuses where the money is captured or on its way (Braintree settles in a daily batch). */
const PAID = new Set([
  'submitted_for_settlement',
  'settling',
  'settlement_pending',
  'settlement_confirmed',
  'settled',
]);
const OPEN = new Set(['authorized', 'authorizing']);

/** Money captured or on its way to settlement: Braintree's notion of a paid sale. */
export const isPaid = (status: string): boolean => PAID.has(status);

/** The method Braintree bills: the default one, unless the customer revoked it (then another, if any). */
export function defaultMethod(customer: BtCustomer): BtPaymentMethod | undefined {
  const methods = (customer.paymentMethods ?? []).filter((m) => !m.revokedAt);
  return methods.find((m) => m.default) ?? methods[0];
}

/** Card → brand and last four; PayPal → the payer's e-mail (Cashier-Braintree's columns). */
export function mapCustomer(customer: BtCustomer): GatewayCustomer {
  const method = defaultMethod(customer);
  const paypal = method?.email !== undefined && method?.email !== null && !method.cardType;
  return {
    id: customer.id,
    cardBrand: method && !paypal ? (method.cardType ?? null) : null,
    cardLastFour: method && !paypal ? (method.last4 ?? null) : null,
    paypalEmail: paypal ? (method?.email ?? null) : null,
  };
}

/** In its trial now: Braintree keeps `trialPeriod` true after the trial, so look at the cycle too. */
export function inTrial(sub: BtSubscription): boolean {
  return Boolean(sub.trialPeriod) && (sub.currentBillingCycle ?? 0) === 0 && sub.status !== 'Canceled';
}

/** The instant the paid (or trial) period ends: the next billing date, at the start of that day. */
export function periodEnd(sub: BtSubscription): Date | null {
  if (inTrial(sub) || (sub.trialPeriod && (sub.currentBillingCycle ?? 0) === 0))
    return sub.firstBillingDate ? startOf(sub.firstBillingDate) : null;
  if (sub.nextBillingDate) return startOf(sub.nextBillingDate);
  const paidThrough = sub.paidThroughDate ?? sub.billingPeriodEndDate;
  return paidThrough ? startOf(addDays(paidThrough, 1)) : null;
}

/** Braintree's status words in the neutral vocabulary; Pending (a later first billing date) is active. */
export function neutralStatus(sub: BtSubscription): SubscriptionStatus {
  switch (sub.status) {
    case 'Past Due':
      return 'past_due';
    case 'Canceled':
    case 'Expired':
      return 'canceled';
    default:
      return inTrial(sub) ? 'trialing' : 'active';
  }
}

export function mapSubscription(sub: BtSubscription, trialEndsAt?: Date | null): GatewaySubscription {
  const ended = sub.status === 'Canceled' || sub.status === 'Expired';
  const cycles = sub.numberOfBillingCycles;
  return {
    id: sub.id,
    plan: sub.planId,
    quantity: 1,
    status: neutralStatus(sub),
    trialEndsAt:
      trialEndsAt !== undefined
        ? trialEndsAt
        : inTrial(sub) && sub.firstBillingDate
          ? startOf(sub.firstBillingDate)
          : null,
    currentPeriodEnd: periodEnd(sub),
    currentPeriodStart: sub.billingPeriodStartDate ? startOf(sub.billingPeriodStartDate) : null,
    // Cashier-Braintree cancels at period end by capping the cycles at the current one.
    cancelAtPeriodEnd:
      !ended && cycles !== null && cycles !== undefined && cycles <= (sub.currentBillingCycle ?? 0),
    endedAt: ended && sub.updatedAt ? new Date(sub.updatedAt) : null,
    asOf: sub.updatedAt ? new Date(sub.updatedAt) : null,
  };
}

const modificationTotal = (list: BtModification[] | null | undefined, unit: CurrencyUnit) =>
  (list ?? []).reduce((sum, m) => sum + unit.minor(m.amount) * (m.quantity ?? 1), 0);

/** `LAUNCH20 (4.00 USD off)`, as the Stripe edition describes a fixed-amount coupon. */
const describe = (list: BtModification[] | null | undefined, unit: CurrencyUnit) =>
  (list ?? [])
    .map((m) => `${m.name || m.id} (${unit.major(unit.minor(m.amount))} ${unit.code.toUpperCase()} off)`)
    .join(', ') || null;

export function invoiceStatus(status: string): GatewayInvoice['status'] {
  if (PAID.has(status)) return 'paid';
  if (OPEN.has(status)) return 'open';
  if (status === 'voided') return 'void';
  // Declined, rejected, failed: Braintree never retries a one-off sale.
  return 'uncollectible';
}

/** How the subscription's charges carry tax (Cashier adds tax to the price) and what its plan is called. */
export interface TaxContext {
  /** price / plan price; 1 when untaxed. */
  ratio: number;
  planName: string | null;
  /** The rate applied, when it is known (stored); otherwise shown as the ratio to two decimals. */
  percentage?: number;
}

/** The tax context of a known rate: 8.25 → ratio 1.0825, shown as 8.25%. */
export const taxAt = (percentage: number, planName: string | null): TaxContext => ({
  ratio: 1 + percentage / 100,
  planName,
  percentage,
});

/** A discount or add-on that still applies to the next bill: not yet billed its number of cycles. */
export function billsNext(m: BtModification): boolean {
  return (
    Boolean(m.neverExpires) ||
    m.numberOfBillingCycles == null ||
    (m.currentBillingCycle ?? 0) < m.numberOfBillingCycles
  );
}

/** Add-ons billed with a subscription charge (metered usage among them), one line each. */
function addOnLines(list: BtModification[] | null | undefined, unit: CurrencyUnit): GatewayInvoiceLine[] {
  return (list ?? []).map((m) => {
    const quantity = m.quantity ?? 1;
    return {
      description: `${quantity} × ${m.name || m.id}`,
      amount: unit.minor(m.amount) * quantity,
      quantity,
      periodStart: null,
      periodEnd: null,
      kind: 'subscription',
    };
  });
}

/**
 * A transaction as an invoice (Braintree has no invoices; Cashier-Braintree builds them from
 * transactions). Amounts on Braintree include the tax, so it is taken back out with the tax
 * context's ratio. Amounts are read in the transaction's own currency (`currency` when it has none).
 */
export function mapTransaction(t: BtTransaction, tax: TaxContext | null, currency: string): GatewayInvoice {
  const unit = currencyUnit(t.currencyIsoCode ?? currency);
  const total = unit.minor(t.amount);
  const ratio = tax && tax.ratio > 1 ? tax.ratio : 1;
  const taxAmount = ratio > 1 ? Math.round(total - total / ratio) : 0;
  const discount = Math.round(modificationTotal(t.discounts, unit) / ratio);
  const subtotal = total - taxAmount + discount;
  const subscription = Boolean(t.subscriptionId);
  const period = t.subscription ?? {};
  const addOns = subscription ? addOnLines(t.addOns, unit) : [];
  const line: GatewayInvoiceLine = subscription
    ? {
        description: tax?.planName || t.planId || 'Subscription',
        amount: subtotal - addOns.reduce((sum, l) => sum + l.amount, 0),
        quantity: 1,
        periodStart: period.billingPeriodStartDate ? startOf(period.billingPeriodStartDate) : null,
        periodEnd: period.billingPeriodEndDate ? startOf(period.billingPeriodEndDate) : null,
        kind: 'subscription',
      }
    : {
        description: t.customFields?.description || 'Charge',
        amount: subtotal,
        quantity: null,
        periodStart: null,
        periodEnd: null,
        kind: 'item',
      };
  return {
    id: t.id,
    number: t.id,
    customerId: t.customer?.id ?? '',
    date: new Date(t.createdAt),
    status: invoiceStatus(t.status),
    currency: unit.code,
    subtotal,
    discount,
    discountDescription: discount > 0 ? describe(t.discounts, unit) : null,
    tax: taxAmount,
    taxPercentage: ratio > 1 ? (tax?.percentage ?? Math.round((ratio - 1) * 10_000) / 100) : null,
    total,
    startingBalance: 0,
    lines: [line, ...addOns],
    raw: t,
  };
}

/** The next charge of a subscription as a draft invoice dated on its next billing date. */
export function upcomingOf(
  sub: BtSubscription,
  customerId: string,
  tax: TaxContext,
  currency: string,
): GatewayInvoice {
  const date = sub.nextBillingDate ?? sub.firstBillingDate ?? '';
  const applicable = (list: BtModification[] | null | undefined) => (list ?? []).filter(billsNext);
  const draft: BtTransaction = {
    id: `upcoming_${sub.id}`,
    type: 'sale',
    status: 'draft',
    amount: sub.nextBillAmount ?? sub.price,
    createdAt: startOf(date).toISOString(),
    customer: { id: customerId },
    planId: sub.planId,
    subscriptionId: sub.id,
    subscription: { billingPeriodStartDate: date, billingPeriodEndDate: null },
    discounts: applicable(sub.discounts),
    addOns: applicable(sub.addOns),
  };
  return { ...mapTransaction(draft, tax, currency), status: 'draft', number: null };
}
