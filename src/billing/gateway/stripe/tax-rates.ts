import type Stripe from 'stripe';
import { stripeCall } from './errors.js';

/**
 * The exclusive Tax Rates subscriptions carry in `default_tax_rates`, one per percentage, and the
 * other way round: the percentage of a rate an invoice names, so an invoice shows the rate that was
 * applied (8.25%), not one computed back from rounded amounts (¥83 of ¥1,000 reads 8.3%).
 */
export class StripeTaxRates {
  readonly #taxRates = new Map<number, Promise<string>>();
  readonly #percentages = new Map<string, Promise<number | null>>();

  constructor(private readonly stripe: Stripe) {}

  /** One exclusive tax rate per percentage, found or created once per process. */
  idFor(percentage: number): Promise<string> {
    let id = this.#taxRates.get(percentage);
    if (!id) {
      id = this.findOrCreateTaxRate(percentage);
      id.catch(() => this.#taxRates.delete(percentage));
      this.#taxRates.set(percentage, id);
    }
    return id;
  }

  /**
   * The percentage of each Tax Rate named in the invoices' `total_taxes`: known from making them,
   * else retrieved once per process (a rate that cannot be retrieved is left out).
   */
  async percentagesOf(invoices: readonly Stripe.Invoice[]): Promise<ReadonlyMap<string, number>> {
    const ids = new Set(
      invoices.flatMap((invoice) =>
        (invoice.total_taxes ?? []).flatMap((t) => (t.tax_rate_details ? [t.tax_rate_details.tax_rate] : [])),
      ),
    );
    const known = new Map<string, number>();
    await Promise.all(
      [...ids].map(async (id) => {
        const percentage = await this.percentageOf(id);
        if (percentage !== null) known.set(id, percentage);
      }),
    );
    return known;
  }

  private percentageOf(id: string): Promise<number | null> {
    let percentage = this.#percentages.get(id);
    if (!percentage) {
      percentage = stripeCall(() => this.stripe.taxRates.retrieve(id)).then(
        (rate) => rate.percentage,
        () => {
          this.#percentages.delete(id);
          return null;
        },
      );
      this.#percentages.set(id, percentage);
    }
    return percentage;
  }

  private remember(id: string, percentage: number): string {
    this.#percentages.set(id, Promise.resolve(percentage));
    return id;
  }

  private async findOrCreateTaxRate(percentage: number): Promise<string> {
    const existing = await stripeCall(() =>
      this.stripe.taxRates.list({ active: true, inclusive: false, limit: 100 }),
    )
      .then((list) =>
        list.data.find((rate) => rate.percentage === percentage && rate.metadata?.tollgate === '1'),
      )
      .catch(() => undefined);
    if (existing) return this.remember(existing.id, percentage);
    const created = await stripeCall(() =>
      this.stripe.taxRates.create({
        display_name: 'Tax',
        percentage,
        inclusive: false,
        metadata: { tollgate: '1' },
      }),
    );
    return this.remember(created.id, percentage);
  }
}
