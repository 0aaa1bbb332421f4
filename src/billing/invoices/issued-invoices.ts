import type { Kysely } from 'kysely';
import type { Database } from '../../database/types.js';

/** An invoice as it was when issued: what a gateway without invoices of its own cannot rebuild later. */
export interface IssuedInvoice {
  /** The provider's id for the charge (Braintree: the transaction id). */
  providerId: string;
  customerId: string;
  subscriptionId: string | null;
  plan: string | null;
  planName: string | null;
  /** Lower-case ISO 4217. */
  currency: string;
  /** The rate applied, 0–100 with two decimals (8.25). */
  taxPercentage: number;
  /** Minor units. */
  subtotal: number;
  discount: number;
  discountDescription: string | null;
  tax: number;
  total: number;
  issuedAt: Date;
}

/** What a provider subscription's recurring price was built from. */
export interface SubscriptionTerms {
  subscriptionId: string;
  plan: string;
  /** The recurring price with tax, minor units. */
  price: number;
  taxPercentage: number;
}

/** The part of `IssuedInvoices` a gateway uses (tests may give their own). */
export interface InvoiceHistory {
  record(invoice: IssuedInvoice): Promise<void>;
  find(providerIds: readonly string[]): Promise<Map<string, IssuedInvoice>>;
  saveTerms(terms: SubscriptionTerms, at: Date): Promise<void>;
  terms(subscriptionId: string): Promise<SubscriptionTerms | undefined>;
}

const toRate = (percentage: number) => Math.round(percentage * 100);
const fromRate = (rate: number | string) => Number(rate) / 100;

/**
 * `billing_issued_invoices` and `billing_subscription_terms` for one gateway. An invoice is written
 * once, by whichever of the issuing call and the provider's webhook comes first (insert-or-ignore
 * on the provider id, so duplicate and concurrent deliveries are harmless), and never updated.
 */
export class IssuedInvoices implements InvoiceHistory {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly gateway: string,
  ) {}

  async record(invoice: IssuedInvoice): Promise<void> {
    await this.db
      .insertInto('billing_issued_invoices')
      .values({
        gateway: this.gateway,
        provider_id: invoice.providerId,
        customer_id: invoice.customerId,
        subscription_id: invoice.subscriptionId,
        plan: invoice.plan,
        plan_name: invoice.planName,
        currency: invoice.currency,
        tax_rate: toRate(invoice.taxPercentage),
        subtotal: invoice.subtotal,
        discount: invoice.discount,
        discount_description: invoice.discountDescription,
        tax: invoice.tax,
        total: invoice.total,
        issued_at: invoice.issuedAt.toISOString(),
      })
      .onConflict((oc) => oc.columns(['gateway', 'provider_id']).doNothing())
      .execute();
  }

  async find(providerIds: readonly string[]): Promise<Map<string, IssuedInvoice>> {
    if (providerIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('billing_issued_invoices')
      .selectAll()
      .where('gateway', '=', this.gateway)
      .where('provider_id', 'in', [...providerIds])
      .execute();
    return new Map(
      rows.map((r) => [
        r.provider_id,
        {
          providerId: r.provider_id,
          customerId: r.customer_id,
          subscriptionId: r.subscription_id,
          plan: r.plan,
          planName: r.plan_name,
          currency: r.currency,
          taxPercentage: fromRate(r.tax_rate),
          subtotal: Number(r.subtotal),
          discount: Number(r.discount),
          discountDescription: r.discount_description,
          tax: Number(r.tax),
          total: Number(r.total),
          issuedAt: new Date(r.issued_at),
        },
      ]),
    );
  }

  async saveTerms(terms: SubscriptionTerms, at: Date): Promise<void> {
    const values = {
      plan: terms.plan,
      price: terms.price,
      tax_rate: toRate(terms.taxPercentage),
      updated_at: at.toISOString(),
    };
    await this.db
      .insertInto('billing_subscription_terms')
      .values({ gateway: this.gateway, subscription_id: terms.subscriptionId, ...values })
      .onConflict((oc) => oc.columns(['gateway', 'subscription_id']).doUpdateSet(values))
      .execute();
  }

  async terms(subscriptionId: string): Promise<SubscriptionTerms | undefined> {
    const row = await this.db
      .selectFrom('billing_subscription_terms')
      .selectAll()
      .where('gateway', '=', this.gateway)
      .where('subscription_id', '=', subscriptionId)
      .executeTakeFirst();
    return row
      ? {
          subscriptionId: row.subscription_id,
          plan: row.plan,
          price: Number(row.price),
          taxPercentage: fromRate(row.tax_rate),
        }
      : undefined;
  }
}
