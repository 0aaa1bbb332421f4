import type braintree from 'braintree';
import type { GatewayInvoice } from '../payment-gateway.js';
import { braintreeCall, isNotFound, ok } from './errors.js';
import { type BraintreeHistory, frozen } from './history.js';
import { mapTransaction, type TaxContext, upcomingOf } from './map.js';
import type { Pricing } from './pricing.js';
import type { BraintreeSubscriptions } from './subscriptions.js';
import type { BtResult, BtTransaction } from './types.js';

/**
 * Invoices built from the customer's transactions, as Cashier-Braintree does: one sale, one invoice.
 * Each is read as it was frozen when issued (`BraintreeHistory`); a sale never recorded gets its
 * tax and plan name from its subscription as it is now.
 */
export class BraintreeInvoices {
  constructor(
    private readonly gateway: braintree.BraintreeGateway,
    private readonly pricing: Pricing,
    private readonly subscriptions: BraintreeSubscriptions,
    private readonly history: BraintreeHistory,
  ) {}

  /** Today's terms of the subscriptions behind the sales that were never recorded. */
  private async taxContexts(transactions: BtTransaction[]): Promise<Map<string, TaxContext>> {
    const ids = [
      ...new Set(transactions.map((t) => t.subscriptionId).filter((id): id is string => Boolean(id))),
    ];
    const contexts = new Map<string, TaxContext>();
    await Promise.all(
      ids.map(async (id) => {
        const sub = await this.subscriptions.findOrNull(id);
        if (sub) contexts.set(id, await this.pricing.taxContext(sub, await this.history.terms(id)));
      }),
    );
    return contexts;
  }

  async map(t: BtTransaction): Promise<GatewayInvoice> {
    return (await this.mapAll([t]))[0]!;
  }

  private async mapAll(transactions: BtTransaction[]): Promise<GatewayInvoice[]> {
    const records = await this.history.records(transactions.map((t) => t.id));
    const contexts = await this.taxContexts(transactions.filter((t) => !records.has(t.id)));
    const currency = this.pricing.unit.code;
    return transactions.map((t) =>
      frozen(
        mapTransaction(t, t.subscriptionId ? (contexts.get(t.subscriptionId) ?? null) : null, currency),
        records.get(t.id),
      ),
    );
  }

  /** Newest first; without `includePending`, only paid ones (submitted for settlement or settled). */
  async list(customerId: string, includePending: boolean): Promise<GatewayInvoice[]> {
    const transactions = await braintreeCall('transaction.search', () =>
      collect<BtTransaction>(
        this.gateway.transaction.search((search) => {
          search.customerId().is(customerId);
        }),
      ),
    );
    const invoices = await this.mapAll(transactions.filter((t) => t.type === 'sale'));
    return invoices
      .filter((invoice) => includePending || invoice.status === 'paid')
      .sort((a, b) => b.date.getTime() - a.date.getTime());
  }

  async find(customerId: string, id: string): Promise<GatewayInvoice | null> {
    try {
      const t = await braintreeCall(
        'transaction.find',
        async () => (await this.gateway.transaction.find(id)) as unknown as BtTransaction,
      );
      if (t.type !== 'sale' || t.customer?.id !== customerId) return null;
      return await this.map(t);
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  async upcoming(customerId: string, subscriptionId: string): Promise<GatewayInvoice | null> {
    const sub = await this.subscriptions.findOrNull(subscriptionId);
    if (!sub || !['Active', 'Pending', 'Past Due'].includes(sub.status)) return null;
    if (sub.numberOfBillingCycles != null && (sub.currentBillingCycle ?? 0) >= sub.numberOfBillingCycles)
      return null;
    const tax = await this.pricing.taxContext(sub, await this.history.terms(sub.id));
    return upcomingOf(sub, customerId, tax, this.pricing.unit.code);
  }

  /** Voids a sale not yet settled; a declined sale is already final and is returned as it is. */
  async void(id: string): Promise<GatewayInvoice> {
    const t = await braintreeCall(
      'transaction.find',
      async () => (await this.gateway.transaction.find(id)) as unknown as BtTransaction,
    );
    if (t.status !== 'authorized' && t.status !== 'submitted_for_settlement') return this.map(t);
    const result = (await braintreeCall('transaction.void', () =>
      this.gateway.transaction.void(id),
    )) as unknown as BtResult;
    return this.map(ok(result, 'transaction.void').transaction as BtTransaction);
  }
}

export function collect<T>(stream: NodeJS.ReadableStream): Promise<T[]> {
  return new Promise((resolve, reject) => {
    const items: T[] = [];
    stream.on('data', (item: T) => items.push(item));
    stream.on('end', () => resolve(items));
    stream.on('error', reject);
  });
}
