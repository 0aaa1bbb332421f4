import type braintree from 'braintree';
import type { GatewayInvoice } from '../payment-gateway.js';
import { braintreeCall, isNotFound, ok } from './errors.js';
import { mapTransaction, type TaxContext, upcomingOf } from './map.js';
import type { Pricing } from './pricing.js';
import type { BraintreeSubscriptions } from './subscriptions.js';
import type { BtResult, BtTransaction } from './types.js';

/**
 * Invoices built from the customer's transactions, as Cashier-Braintree does: one sale, one invoice.
 * A subscription's charges get their tax and plan name from that subscription.
 */
export class BraintreeInvoices {
  constructor(
    private readonly gateway: braintree.BraintreeGateway,
    private readonly pricing: Pricing,
    private readonly subscriptions: BraintreeSubscriptions,
  ) {}

  private async taxContexts(transactions: BtTransaction[]): Promise<Map<string, TaxContext>> {
    const ids = [
      ...new Set(transactions.map((t) => t.subscriptionId).filter((id): id is string => Boolean(id))),
    ];
    const contexts = new Map<string, TaxContext>();
    await Promise.all(
      ids.map(async (id) => {
        const sub = await this.subscriptions.findOrNull(id);
        if (sub) contexts.set(id, await this.pricing.taxContext(sub));
      }),
    );
    return contexts;
  }

  async map(t: BtTransaction, contexts?: Map<string, TaxContext>): Promise<GatewayInvoice> {
    const known = contexts ?? (await this.taxContexts([t]));
    return mapTransaction(t, t.subscriptionId ? (known.get(t.subscriptionId) ?? null) : null);
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
    const sales = transactions.filter((t) => t.type === 'sale');
    const contexts = await this.taxContexts(sales);
    const invoices = await Promise.all(sales.map((t) => this.map(t, contexts)));
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
    return upcomingOf(sub, customerId, await this.pricing.taxContext(sub));
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

function collect<T>(stream: NodeJS.ReadableStream): Promise<T[]> {
  return new Promise((resolve, reject) => {
    const items: T[] = [];
    stream.on('data', (item: T) => items.push(item));
    stream.on('end', () => resolve(items));
    stream.on('error', reject);
  });
}
