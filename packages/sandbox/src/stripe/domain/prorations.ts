import type Stripe from 'stripe';
import { makeInvoiceItem } from '../objects/invoices.js';
import type { SandboxContext } from './context.js';
import { productName } from './invoice-builder.js';

export interface Billed {
  price: Stripe.Price;
  quantity: number;
}

export interface ItemChange {
  before: Billed | null;
  after: Billed | null;
}

/**
 * Proration invoice items for the unused and remaining time of the current period, left
 * pending for the next invoice. When the cycle restarts, only the credit is made: the new
 * period is billed in full.
 */
export function prorate(
  ctx: SandboxContext,
  sub: Stripe.Subscription,
  changes: ItemChange[],
  period: { start: number; end: number },
  creditOnly: boolean,
): boolean {
  const now = ctx.store.now();
  const length = period.end - period.start;
  if (length <= 0 || now >= period.end) return false;
  const fraction = (period.end - now) / length;
  const date = new Date(now * 1000).toUTCString().slice(5, 16);
  const add = (billed: Billed, sign: 1 | -1, label: string) => {
    const amount = sign * Math.round((billed.price.unit_amount ?? 0) * billed.quantity * fraction);
    const item = makeInvoiceItem(now, {
      customer: String(sub.customer),
      amount,
      currency: sub.currency,
      description: `${label} ${billed.quantity} × ${productName(ctx, billed.price)} after ${date}`,
      period: { start: now, end: period.end },
      metadata: {},
      subscription: sub.id,
      proration: true,
      price: billed.price.id,
    });
    ctx.store.invoiceItems.set(item.id, item);
  };
  for (const change of changes) {
    if (change.before) add(change.before, -1, 'Unused time on');
    if (change.after && !creditOnly) add(change.after, 1, 'Remaining time on');
  }
  return true;
}
