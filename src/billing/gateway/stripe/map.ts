import type Stripe from 'stripe';
import { toMajor } from '../../money.js';
import type { SubscriptionStatus } from '../../subscriptions/provider-status.js';
import type {
  GatewayCustomer,
  GatewayInvoice,
  GatewayInvoiceLine,
  GatewaySubscription,
} from '../payment-gateway.js';

const fromEpoch = (seconds: number | null | undefined): Date | null =>
  seconds === null || seconds === undefined ? null : new Date(seconds * 1000);

const idOf = (value: string | { id: string } | null | undefined): string =>
  typeof value === 'string' ? value : (value?.id ?? '');

/** The default card: the invoice default PaymentMethod (expanded) in front of a legacy source. */
export function mapCustomer(customer: Stripe.Customer): GatewayCustomer {
  const pm = customer.invoice_settings?.default_payment_method;
  const pmCard = pm && typeof pm === 'object' ? pm.card : undefined;
  const source = customer.default_source;
  const card =
    source && typeof source === 'object' && source.object === 'card' ? (source as Stripe.Card) : null;
  return {
    id: customer.id,
    cardBrand: pmCard ? brandName(pmCard.brand) : (card?.brand ?? null),
    cardLastFour: pmCard?.last4 ?? card?.last4 ?? null,
    paypalEmail: null,
  };
}

/** A PaymentMethod's `card.brand` (`visa`) as card sources name it (`Visa`), so the column reads the same. */
function brandName(brand: string): string {
  const names: Record<string, string> = { visa: 'Visa', mastercard: 'MasterCard', amex: 'American Express' };
  return names[brand] ?? brand.charAt(0).toUpperCase() + brand.slice(1);
}

/** The item that carries the plan: the first one that is not a metered price (usage rides beside it). */
export function planItem(sub: Stripe.Subscription): Stripe.SubscriptionItem | undefined {
  return sub.items.data.find((item) => item.price?.recurring?.usage_type !== 'metered') ?? sub.items.data[0];
}

/** The current API puts plan, quantity and period on the subscription's items. */
export function mapSubscription(sub: Stripe.Subscription): GatewaySubscription {
  const item = planItem(sub);
  return {
    id: sub.id,
    plan: item?.price?.id ?? item?.plan?.id ?? '',
    quantity: item?.quantity ?? 1,
    status: sub.status as SubscriptionStatus,
    trialEndsAt: fromEpoch(sub.trial_end),
    currentPeriodEnd: fromEpoch(item?.current_period_end),
    currentPeriodStart: fromEpoch(item?.current_period_start),
    cancelAtPeriodEnd: sub.cancel_at_period_end,
    endedAt: fromEpoch(sub.ended_at),
    name: sub.metadata?.name ?? null,
    asOf: answeredAt(sub),
  };
}

/** The provider's clock when it answered with `object` (the SDK keeps the response's headers), if known. */
function answeredAt(object: object): Date | null {
  const date = (object as { lastResponse?: { headers?: Record<string, string> } }).lastResponse?.headers
    ?.date;
  const at = date ? new Date(date) : null;
  return at && !Number.isNaN(at.getTime()) ? at : null;
}

function couponText(coupon: Stripe.Coupon, currency: string): string {
  const label = coupon.name ?? coupon.id;
  if (coupon.percent_off) return `${label} (${coupon.percent_off}% off)`;
  if (coupon.amount_off)
    return `${label} (${toMajor(coupon.amount_off, currency)} ${currency.toUpperCase()} off)`;
  return label;
}

function discountText(invoice: Stripe.Invoice): string | null {
  const texts = invoice.discounts
    .map((d) => (typeof d === 'object' && 'source' in d && d.source?.coupon ? d.source.coupon : null))
    .map((coupon) => (coupon && typeof coupon === 'object' ? couponText(coupon, invoice.currency) : null))
    .filter((t): t is string => t !== null);
  return texts.length ? texts.join(', ') : null;
}

function mapLine(line: Stripe.InvoiceLineItem): GatewayInvoiceLine {
  return {
    description: line.description ?? '',
    amount: line.amount,
    quantity: line.quantity ?? null,
    periodStart: fromEpoch(line.period?.start),
    periodEnd: fromEpoch(line.period?.end),
    kind: line.parent?.type === 'subscription_item_details' ? 'subscription' : 'item',
  };
}

/**
 * The rate an invoice's tax was charged at: the sum of the distinct Tax Rates in its `total_taxes`
 * (`rates`: id → percentage). Only when one of them is unknown, tax / taxable amount to two decimals.
 */
function taxPercentageOf(
  taxes: Stripe.Invoice.TotalTax[],
  rates: ReadonlyMap<string, number>,
): number | null {
  const tax = taxes.reduce((sum, t) => sum + t.amount, 0);
  if (tax <= 0) return null;
  const ids = [...new Set(taxes.map((t) => t.tax_rate_details?.tax_rate ?? ''))];
  if (ids.every((id) => rates.has(id))) {
    return Math.round(ids.reduce((sum, id) => sum + rates.get(id)!, 0) * 100) / 100;
  }
  const taxable = taxes[0]?.taxable_amount;
  return taxable ? Math.round((tax / taxable) * 10_000) / 100 : null;
}

export function mapInvoice(invoice: Stripe.Invoice, rates: ReadonlyMap<string, number>): GatewayInvoice {
  const discount = (invoice.total_discount_amounts ?? []).reduce((sum, d) => sum + d.amount, 0);
  const taxes = invoice.total_taxes ?? [];
  const tax = taxes.reduce((sum, t) => sum + t.amount, 0);
  return {
    id: invoice.id ?? '',
    number: invoice.number,
    customerId: idOf(invoice.customer as string | { id: string } | null),
    date: new Date(invoice.created * 1000),
    status: (invoice.status ?? 'draft') as GatewayInvoice['status'],
    currency: invoice.currency,
    subtotal: invoice.subtotal,
    discount,
    discountDescription: discount > 0 ? discountText(invoice) : null,
    tax,
    taxPercentage: taxPercentageOf(taxes, rates),
    total: invoice.total,
    startingBalance: invoice.starting_balance,
    lines: invoice.lines.data.map(mapLine),
    raw: invoice,
  };
}

export function subscriptionOfEvent(event: Stripe.Event): string | null {
  const object = event.data.object as { object?: string; id?: string; parent?: Stripe.Invoice['parent'] };
  if (object.object === 'subscription') return object.id ?? null;
  if (object.object === 'invoice') {
    const sub = object.parent?.subscription_details?.subscription;
    return sub ? idOf(sub as string | { id: string }) : null;
  }
  return null;
}
