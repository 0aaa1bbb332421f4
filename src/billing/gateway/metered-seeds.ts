/** A metered price the embedded sandboxes are seeded with. */
export interface MeteredSeed {
  /** The price (Stripe) or add-on (Braintree) id. */
  price: string;
  /** The meter's name: the Stripe sandbox's Billing Meter event name. */
  meter: string;
  /** Per unit, minor units. */
  unitAmount: number;
}

/**
 * The metered prices the plans declare (`plans.definitions.*.metered`), for the embedded sandboxes
 * to offer. Read structurally: billing does not depend on the plans module, which may be absent.
 */
export function meteredSeeds(config: object): MeteredSeed[] {
  const definitions = (config as { plans?: { definitions?: Record<string, unknown> } }).plans?.definitions;
  const seeds = new Map<string, MeteredSeed>();
  for (const plan of Object.values(definitions ?? {})) {
    const metered = (plan as { metered?: { meter?: string; price?: string; unitAmount?: number } }).metered;
    if (metered?.meter && metered.price && !seeds.has(metered.price))
      seeds.set(metered.price, {
        price: metered.price,
        meter: metered.meter,
        unitAmount: metered.unitAmount ?? 0,
      });
  }
  return [...seeds.values()];
}
