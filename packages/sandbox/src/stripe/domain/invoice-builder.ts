import type Stripe from 'stripe';
import { majorAmount } from '../objects/currency.js';
import { newId } from '../objects/ids.js';
import { type LineInput, makeInvoice, makeLine } from '../objects/invoices.js';
import type { SandboxContext } from './context.js';
import { computeTotals } from './invoice-totals.js';
import { isMetered, meteredUsage } from './meters.js';

export interface SubscriptionBill {
  reason: Stripe.Invoice.BillingReason;
  period: { start: number; end: number };
  /** Bill each item for the period (false for a proration-only invoice). */
  includeItems: boolean;
  /** A trial's $0 invoice. */
  trial: boolean;
  /** Build without storing or emitting (the upcoming-invoice preview). */
  preview?: boolean;
  /**
   * The window whose metered usage this invoice bills, in arrears (a renewal: the period that
   * just ended). Absent: metered items put no line on it.
   */
  usage?: { start: number; end: number };
}

/** Money as Stripe prints it on line descriptions: "$10.00". */
export function formatAmount(amount: number, currency: string): string {
  const symbol = currency === 'usd' ? '$' : currency === 'eur' ? '€' : currency === 'gbp' ? '£' : '';
  const value = majorAmount(amount, currency);
  return symbol ? `${symbol}${value}` : `${value} ${currency.toUpperCase()}`;
}

export function productName(ctx: SandboxContext, price: Stripe.Price): string {
  return ctx.store.products.get(String(price.product))?.name ?? price.nickname ?? price.id;
}

/** Discounts still in force at `at` (a repeating coupon's discount ends; `once` is removed after use). */
export function activeDiscounts(
  ctx: SandboxContext,
  refs: Array<string | Stripe.Discount>,
  at: number,
): string[] {
  return refs
    .map((ref) => (typeof ref === 'string' ? ref : ref.id))
    .filter((id) => {
      const discount = ctx.store.discounts.get(id);
      return discount !== undefined && (discount.end === null || discount.end > at);
    });
}

/** Pending invoice items of a customer, oldest first; optionally only those of one subscription. */
export function pendingItems(
  ctx: SandboxContext,
  customer: string,
  subscription?: string,
): Stripe.InvoiceItem[] {
  return [...ctx.store.invoiceItems.values()].filter((item) => {
    if (item.customer !== customer || item.invoice !== null) return false;
    const itemSub = item.parent?.subscription_details?.subscription ?? null;
    return subscription === undefined || itemSub === null || itemSub === subscription;
  });
}

export function itemLine(item: Stripe.InvoiceItem): LineInput {
  return {
    amount: item.amount,
    currency: item.currency,
    description: item.description,
    period: item.period,
    quantity: item.quantity,
    price: null,
    subscription: item.parent?.subscription_details?.subscription ?? null,
    subscriptionItem: null,
    invoiceItem: item.id,
    proration: item.proration,
    metadata: item.metadata ?? {},
  };
}

/** Attach lines to an invoice (pending items become part of it) and compute its totals. */
export function addLines(
  ctx: SandboxContext,
  invoice: Stripe.Invoice,
  lines: LineInput[],
  preview = false,
): void {
  for (const input of lines) {
    invoice.lines.data.push(makeLine(invoice.id, input));
    const item = input.invoiceItem ? ctx.store.invoiceItems.get(input.invoiceItem) : undefined;
    if (item && !preview) item.invoice = invoice.id;
  }
  invoice.lines.has_more = false;
  computeTotals(ctx.store, invoice);
}

/** A metered item's line: the usage of the window × the price's unit amount. */
function meteredLine(
  ctx: SandboxContext,
  sub: Stripe.Subscription,
  item: Stripe.SubscriptionItem,
  usage: { start: number; end: number },
): LineInput {
  const quantity = meteredUsage(ctx, item.price, String(sub.customer), usage);
  const unit = item.price.unit_amount ?? 0;
  const name = productName(ctx, item.price);
  return subscriptionLine(sub, item, {
    amount: unit * quantity,
    description: `${quantity} × ${name} (at ${formatAmount(unit, sub.currency)} per unit)`,
    period: usage,
    quantity,
  });
}

/** A line billing a subscription item (not an invoice item, not a proration). */
function subscriptionLine(
  sub: Stripe.Subscription,
  item: Stripe.SubscriptionItem,
  fields: Pick<LineInput, 'amount' | 'description' | 'period' | 'quantity'>,
): LineInput {
  return {
    ...fields,
    currency: sub.currency,
    price: item.price,
    subscription: sub.id,
    subscriptionItem: item.id,
    invoiceItem: null,
    proration: false,
    metadata: {},
  };
}

/** A subscription's invoice for one period, with its pending items (prorations) first. */
export function buildSubscriptionInvoice(
  ctx: SandboxContext,
  sub: Stripe.Subscription,
  bill: SubscriptionBill,
): Stripe.Invoice {
  const { store } = ctx;
  const customer = String(sub.customer);
  const now = store.now();
  const invoice = makeInvoice(now, {
    id: bill.preview ? `upcoming_${newId('in')}` : undefined,
    customer,
    currency: sub.currency,
    auto_advance: !bill.preview,
    billing_reason: bill.reason,
    collection_method: sub.collection_method,
    customer_email: store.customers.get(customer)?.email ?? null,
    customer_name: store.customers.get(customer)?.name ?? null,
    default_tax_rates: sub.default_tax_rates ?? [],
    discounts: activeDiscounts(ctx, sub.discounts, bill.period.start),
    parent: {
      type: 'subscription_details',
      quote_details: null,
      subscription_details: { metadata: sub.metadata, subscription: sub.id },
    },
    period_start: bill.period.start,
    period_end: bill.period.end,
  });
  const lines = pendingItems(ctx, customer, sub.id).map(itemLine);
  if (bill.includeItems) {
    for (const item of sub.items.data) {
      if (isMetered(item.price)) {
        if (bill.usage && !bill.trial) lines.push(meteredLine(ctx, sub, item, bill.usage));
        continue;
      }
      const quantity = item.quantity ?? 1;
      const unit = item.price.unit_amount ?? 0;
      const name = productName(ctx, item.price);
      const interval = item.price.recurring?.interval ?? 'month';
      lines.push(
        subscriptionLine(sub, item, {
          amount: bill.trial ? 0 : unit * quantity,
          description: bill.trial
            ? `Trial period for ${name}`
            : `${quantity} × ${name} (at ${formatAmount(unit, sub.currency)} / ${interval})`,
          period: bill.period,
          quantity,
        }),
      );
    }
  }
  addLines(ctx, invoice, lines, bill.preview);
  if (bill.preview) return invoice;
  store.invoices.set(invoice.id, invoice);
  sub.latest_invoice = invoice.id;
  // A `once` coupon is spent by the first invoice it actually reduces.
  if ((invoice.total_discount_amounts ?? []).some((d) => d.amount > 0)) {
    sub.discounts = sub.discounts.filter((ref) => {
      const discount = store.discounts.get(typeof ref === 'string' ? ref : ref.id);
      const coupon = discount?.source.coupon;
      return !(coupon && typeof coupon !== 'string' && coupon.duration === 'once');
    });
  }
  ctx.events.emit('invoice.created', invoice);
  return invoice;
}
