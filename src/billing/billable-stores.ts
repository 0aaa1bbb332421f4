import type { BillableColumns, BillableOwner, BillableRef } from './billable-user.js';

/** Where one type of billable model is read and its billing columns written. */
export interface BillableStore {
  find(id: number): Promise<BillableOwner | undefined>;
  update(owner: BillableOwner, values: Partial<BillableColumns>): Promise<void>;
  /** The id of the model whose customer id (in `column`) is `customerId`, if any. */
  idOfCustomer(column: 'stripe_id' | 'braintree_id', customerId: string): Promise<number | undefined>;
  /** The ids of the models that have a customer id in `column` (`billing:reconcile` walks them). */
  idsWithCustomer(column: 'stripe_id' | 'braintree_id'): Promise<number[]>;
}

/**
 * The stores of the billable models by type: billing registers `user`; a higher module registers
 * its own (organizations registers `organization`) when it boots. A lower module declares the
 * seam, the higher one plugs in.
 */
export class BillableStores {
  readonly #stores = new Map<string, BillableStore>();

  register(type: string, store: BillableStore): this {
    this.#stores.set(type, store);
    return this;
  }

  has(type: string): boolean {
    return this.#stores.has(type);
  }

  of(type: string): BillableStore {
    const store = this.#stores.get(type);
    if (!store) throw new Error(`No billable store is registered for "${type}".`);
    return store;
  }

  find(ref: BillableRef): Promise<BillableOwner | undefined> {
    return this.#stores.has(ref.type) ? this.of(ref.type).find(ref.id) : Promise.resolve(undefined);
  }

  /** Every owner of a registered type with a customer id in `column`, by type in registration order. */
  async withCustomer(column: 'stripe_id' | 'braintree_id'): Promise<BillableRef[]> {
    const refs: BillableRef[] = [];
    for (const [type, store] of this.#stores)
      for (const id of await store.idsWithCustomer(column)) refs.push({ type, id });
    return refs;
  }

  /** The owner of a provider customer id among every registered type (webhooks). */
  async ownerOfCustomer(
    column: 'stripe_id' | 'braintree_id',
    customerId: string,
  ): Promise<BillableRef | undefined> {
    for (const [type, store] of this.#stores) {
      const id = await store.idOfCustomer(column, customerId);
      if (id !== undefined) return { type, id };
    }
    return undefined;
  }
}
