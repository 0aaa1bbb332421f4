import type Stripe from 'stripe';
import type { SandboxStore } from '../store/store.js';

/**
 * Recompute an invoice's money fields from its lines, discounts and tax rates
 * (https://docs.stripe.com/invoicing/taxes/tax-rates, https://docs.stripe.com/billing/subscriptions/coupons):
 * coupons apply in order to the discountable amount (the net of its lines, credits included),
 * percent coupons round half up per invoice,
 * exclusive tax is charged on each line's amount after its share of the discount.
 */
export function computeTotals(store: SandboxStore, invoice: Stripe.Invoice): void {
  const lines = invoice.lines.data;
  const subtotal = sum(lines.map((l) => l.amount));
  for (const line of lines) line.discount_amounts = [];

  // Every discountable line counts, a proration's credit too: a coupon discounts the unused time
  // it was paid with as well as the remaining time, so an upgrade costs the coupon's share of the
  // difference (a percent coupon on the positive line alone would overcharge the credit's share).
  const discountable = lines.filter((l) => l.discountable && l.amount !== 0);
  let base = Math.max(0, sum(discountable.map((l) => l.amount)));
  const totalDiscounts: Stripe.Invoice.TotalDiscountAmount[] = [];
  for (const ref of invoice.discounts) {
    const id = typeof ref === 'string' ? ref : ref.id;
    const discount = store.discounts.get(id);
    const coupon = discount?.source.coupon;
    if (!discount || !coupon || typeof coupon === 'string') continue;
    const amount = Math.min(
      base,
      coupon.percent_off != null ? Math.round((base * coupon.percent_off) / 100) : (coupon.amount_off ?? 0),
    );
    base -= amount;
    totalDiscounts.push({ amount, discount: id });
    allocate(discountable, amount, (line, share) =>
      line.discount_amounts!.push({ amount: share, discount: id }),
    );
  }
  const discountTotal = sum(totalDiscounts.map((d) => d.amount));

  const taxTotals = new Map<string, Stripe.Invoice.TotalTax>();
  let exclusiveTax = 0;
  let inclusiveTax = 0;
  for (const line of lines) {
    line.taxes = [];
    const taxable = line.amount - sum((line.discount_amounts ?? []).map((d) => d.amount));
    for (const rate of invoice.default_tax_rates) {
      const amount = rate.inclusive
        ? taxable - Math.round(taxable / (1 + rate.percentage / 100))
        : Math.round((taxable * rate.percentage) / 100);
      const behaviour = rate.inclusive ? 'inclusive' : 'exclusive';
      if (rate.inclusive) inclusiveTax += amount;
      else exclusiveTax += amount;
      const tax = {
        amount,
        tax_behavior: behaviour,
        tax_rate_details: { tax_rate: rate.id },
        taxability_reason: 'standard_rated',
        taxable_amount: rate.inclusive ? taxable - amount : taxable,
        type: 'tax_rate_details',
      } as const;
      line.taxes.push({ ...tax });
      const total = taxTotals.get(rate.id);
      if (total) {
        total.amount += tax.amount;
        total.taxable_amount = (total.taxable_amount ?? 0) + tax.taxable_amount;
      } else taxTotals.set(rate.id, { ...tax, tax_rate_details: { tax_rate: rate.id } });
    }
  }

  invoice.subtotal = subtotal;
  invoice.subtotal_excluding_tax = subtotal - inclusiveTax;
  invoice.total_discount_amounts = totalDiscounts;
  invoice.total_taxes = [...taxTotals.values()];
  invoice.total_excluding_tax = subtotal - discountTotal - inclusiveTax;
  invoice.total = subtotal - discountTotal + exclusiveTax;
  if (invoice.status === 'draft') {
    invoice.amount_due = Math.max(0, invoice.total);
    invoice.amount_remaining = invoice.amount_due;
  }
}

/**
 * Split `amount` over lines in proportion to their amounts (a credit line's share is negative:
 * the discount lowers the credit); the last line takes the rounding rest.
 */
function allocate(
  lines: Stripe.InvoiceLineItem[],
  amount: number,
  apply: (line: Stripe.InvoiceLineItem, share: number) => void,
): void {
  const base = sum(lines.map((l) => l.amount));
  if (base <= 0 || amount <= 0) return;
  let left = amount;
  lines.forEach((line, i) => {
    const share = i === lines.length - 1 ? left : Math.round((amount * line.amount) / base);
    left -= share;
    apply(line, share);
  });
}

function sum(values: number[]): number {
  return values.reduce((a, b) => a + b, 0);
}
