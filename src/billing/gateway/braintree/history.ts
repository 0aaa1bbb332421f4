import type { Clock } from '../../../core/clock.js';
import type { Logger } from '../../../core/logger.js';
import type { InvoiceHistory, IssuedInvoice, SubscriptionTerms } from '../../invoices/issued-invoices.js';
import type { GatewayInvoice } from '../payment-gateway.js';
import { mapTransaction, type TaxContext } from './map.js';
import type { BtTransaction } from './types.js';

/**
 * Braintree keeps no invoices: a transaction has an amount, not the plan or tax rate it was billed
 * under. So each charge is frozen when it is issued — the plan, its name, the tax rate and the net
 * amounts, in `billing_issued_invoices` — and invoices are built from that record ever after, so a
 * later tax change or swap never rewrites an old one. A transaction never recorded (made before
 * the record existed, or outside this application) is mapped from the subscription's current terms.
 * Without a store (a gateway built by hand), nothing is recorded and every invoice is mapped so.
 * Writing is best effort: the charge has happened at Braintree, so a failed write is logged and the
 * call goes on (that invoice is then mapped from current terms) rather than failing a paid call.
 */
export class BraintreeHistory {
  constructor(
    private readonly store: InvoiceHistory | undefined,
    private readonly currency: string,
    private readonly clock: Clock,
    private readonly logger?: Logger,
  ) {}

  private async safely(what: string, write: () => Promise<void>, strict = false): Promise<void> {
    if (strict) return write();
    try {
      await write();
    } catch (err) {
      this.logger?.error({ err }, `Braintree: could not store ${what}`);
    }
  }

  /**
   * Freezes each sale in `transactions` as its invoice under `tax` (a one-off charge: `plan` null).
   * `strict`: a failed write throws (a webhook, which the provider then redelivers).
   */
  async issued(
    transactions: readonly BtTransaction[],
    tax: TaxContext | null,
    plan: string | null,
    strict = false,
  ) {
    const store = this.store;
    if (!store) return;
    for (const t of transactions) {
      if (t.type !== 'sale') continue;
      const invoice = mapTransaction(t, tax, this.currency);
      await this.safely(
        `the invoice of ${t.id}`,
        () =>
          store.record({
            providerId: t.id,
            customerId: invoice.customerId,
            subscriptionId: t.subscriptionId ?? null,
            plan: t.subscriptionId ? (plan ?? t.planId ?? null) : null,
            planName: t.subscriptionId ? (tax?.planName ?? null) : null,
            currency: invoice.currency,
            taxPercentage: invoice.taxPercentage ?? 0,
            subtotal: invoice.subtotal,
            discount: invoice.discount,
            discountDescription: invoice.discountDescription,
            tax: invoice.tax,
            total: invoice.total,
            issuedAt: new Date(t.createdAt),
          }),
        strict,
      );
    }
  }

  async saveTerms(terms: SubscriptionTerms): Promise<void> {
    const store = this.store;
    if (store)
      await this.safely(`the terms of ${terms.subscriptionId}`, () =>
        store.saveTerms(terms, this.clock.now()),
      );
  }

  async terms(subscriptionId: string): Promise<SubscriptionTerms | undefined> {
    return this.store?.terms(subscriptionId);
  }

  async records(ids: readonly string[]): Promise<Map<string, IssuedInvoice>> {
    return this.store ? this.store.find(ids) : new Map();
  }
}

/** The invoice as it was issued; only its status (settled, voided) is read from the transaction now. */
export function frozen(invoice: GatewayInvoice, record: IssuedInvoice | undefined): GatewayInvoice {
  if (!record) return invoice;
  return {
    ...invoice,
    currency: record.currency,
    subtotal: record.subtotal,
    discount: record.discount,
    discountDescription: record.discountDescription,
    tax: record.tax,
    taxPercentage: record.tax > 0 ? record.taxPercentage : null,
    total: record.total,
    lines: invoice.lines.map((line) => ({
      ...line,
      amount: record.subtotal,
      description:
        line.kind === 'subscription' ? record.planName || record.plan || line.description : line.description,
    })),
  };
}
