import type Stripe from 'stripe';
import { stripeCall } from './errors.js';

/** The exclusive Tax Rates subscriptions carry in `default_tax_rates`, one per percentage. */
export class StripeTaxRates {
  readonly #taxRates = new Map<number, Promise<string>>();

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

  private async findOrCreateTaxRate(percentage: number): Promise<string> {
    const existing = await stripeCall(() =>
      this.stripe.taxRates.list({ active: true, inclusive: false, limit: 100 }),
    )
      .then((list) =>
        list.data.find((rate) => rate.percentage === percentage && rate.metadata?.tollgate === '1'),
      )
      .catch(() => undefined);
    if (existing) return existing.id;
    const created = await stripeCall(() =>
      this.stripe.taxRates.create({
        display_name: 'Tax',
        percentage,
        inclusive: false,
        metadata: { tollgate: '1' },
      }),
    );
    return created.id;
  }
}
