import type { GatewayInvoice, GatewayInvoiceLine } from '../gateway/payment-gateway.js';
import { formatMoney } from '../money.js';

export interface InvoiceLine {
  description: string;
  /** Formatted for display (`$10.00`). */
  amount: string;
  rawAmount: number;
  quantity: number | null;
  kind: GatewayInvoiceLine['kind'];
  period: { start: Date; end: Date } | null;
}

const dateFormat = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  timeZone: 'UTC',
});

/**
 * An invoice for display: the spec's `id`, `date()` and `total()`, formatted with the configured
 * currency code and symbol, plus the lines, discount and tax a receipt shows. `raw` keeps the
 * provider's own object.
 */
export class Invoice {
  readonly id: string;

  constructor(
    readonly data: GatewayInvoice,
    readonly currencySymbol: string,
  ) {
    this.id = data.id;
  }

  private money(minor: number): string {
    return formatMoney(minor, this.data.currency, this.currencySymbol);
  }

  /** `Jan 15, 2026` (UTC). */
  date(): string {
    return dateFormat.format(this.data.date);
  }

  dateValue(): Date {
    return this.data.date;
  }

  /** The amount billed, after discount and tax: `$10.00`. */
  total(): string {
    return this.money(this.data.total);
  }

  rawTotal(): number {
    return this.data.total;
  }

  /** Before discount and tax. */
  subtotal(): string {
    return this.money(this.data.subtotal);
  }

  hasDiscount(): boolean {
    return this.data.discount > 0;
  }

  /** The discount as a negative amount: `-$2.00`. */
  discount(): string {
    return this.money(-this.data.discount);
  }

  discountDescription(): string | null {
    return this.data.discountDescription;
  }

  hasTax(): boolean {
    return this.data.tax > 0;
  }

  tax(): string {
    return this.money(this.data.tax);
  }

  taxPercentage(): number | null {
    return this.data.taxPercentage;
  }

  /** A credit balance applied to this invoice, if any (negative). */
  startingBalance(): string | null {
    return this.data.startingBalance === 0 ? null : this.money(this.data.startingBalance);
  }

  status(): GatewayInvoice['status'] {
    return this.data.status;
  }

  paid(): boolean {
    return this.data.status === 'paid';
  }

  number(): string {
    return this.data.number ?? this.data.id;
  }

  lines(): InvoiceLine[] {
    return this.data.lines.map((line) => ({
      description: line.description,
      amount: this.money(line.amount),
      rawAmount: line.amount,
      quantity: line.quantity,
      kind: line.kind,
      period: line.periodStart && line.periodEnd ? { start: line.periodStart, end: line.periodEnd } : null,
    }));
  }

  subscriptionLines(): InvoiceLine[] {
    return this.lines().filter((l) => l.kind === 'subscription');
  }

  itemLines(): InvoiceLine[] {
    return this.lines().filter((l) => l.kind === 'item');
  }

  formatPeriod(period: { start: Date; end: Date }): string {
    return `${dateFormat.format(period.start)} – ${dateFormat.format(period.end)}`;
  }

  toJSON(): Record<string, unknown> {
    return {
      id: this.id,
      number: this.number(),
      date: this.date(),
      status: this.status(),
      subtotal: this.subtotal(),
      discount: this.hasDiscount() ? this.discount() : null,
      tax: this.hasTax() ? this.tax() : null,
      total: this.total(),
      lines: this.lines().map(({ description, amount, quantity, kind }) => ({
        description,
        amount,
        quantity,
        kind,
      })),
    };
  }
}
