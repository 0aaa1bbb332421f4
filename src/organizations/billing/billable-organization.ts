import type { Kysely, Selectable } from 'kysely';
import {
  Billable,
  type BillableColumns,
  type BillableStore,
  type InvoiceAddressee,
} from '../../billing/index.js';
import type { Container } from '../../core/container.js';
import type { Database } from '../../database/types.js';
import type { OrganizationsTable } from '../tables.js';
import './tables.js';

/** An organization as a model: its row, and the container its billing services come from. */
export class OrganizationModel {
  readonly billableType = 'organization';
  id!: number;
  name!: string;
  stripe_id!: string | null;
  braintree_id!: string | null;
  paypal_email!: string | null;
  card_brand!: string | null;
  card_last_four!: string | null;
  trial_ends_at!: string | null;
  billing_email!: string | null;
  tax_id!: string | null;
  billing_address!: string | null;
  created_at!: string;
  updated_at!: string;
  readonly #container: Container;

  constructor(container: Container, row: Selectable<OrganizationsTable>) {
    this.#container = container;
    Object.assign(this, row);
  }

  get container(): Container {
    return this.#container;
  }

  /** The provider customer's e-mail: the billing address set for the organization. */
  get email(): string {
    return this.billing_email ?? '';
  }

  fill(values: Partial<BillableColumns>): this {
    Object.assign(this, values);
    return this;
  }

  /** Invoices name the organization, its tax id and its address, not the member who paid. */
  invoiceAddressee(): InvoiceAddressee {
    return {
      name: this.name,
      ...(this.billing_email ? { email: this.billing_email } : {}),
      ...(this.tax_id ? { taxId: this.tax_id } : {}),
      ...(this.billing_address ? { address: this.billing_address.split('\n').filter(Boolean) } : {}),
    };
  }

  toJSON(): Record<string, unknown> {
    return { id: this.id, name: this.name, created_at: this.created_at, updated_at: this.updated_at };
  }
}

/**
 * Cashier's "billable on any model": the organization subscribes, holds the card and gets the
 * invoices, with every `Billable` method (`newSubscription`, `subscribed`, `invoices`, …).
 */
export class BillableOrganization extends Billable(OrganizationModel) {}

/** Billing's `organization` store: rows of `organizations`, customer ids looked up there. */
export function organizationBillableStore(container: Container, db: Kysely<Database>): BillableStore {
  const find = async (id: number) => {
    const row = await db.selectFrom('organizations').selectAll().where('id', '=', id).executeTakeFirst();
    return row && new BillableOrganization(container, row);
  };
  return {
    find,
    async update(owner, values) {
      await db
        .updateTable('organizations')
        .set({ ...values, updated_at: new Date().toISOString() })
        .where('id', '=', owner.id)
        .execute();
      owner.fill(values);
    },
    async idOfCustomer(column, customerId) {
      const row = await db
        .selectFrom('organizations')
        .select('id')
        .where(column, '=', customerId)
        .executeTakeFirst();
      return row?.id;
    },
    async idsWithCustomer(column) {
      const rows = await db
        .selectFrom('organizations')
        .select('id')
        .where(column, 'is not', null)
        .orderBy('id')
        .execute();
      return rows.map((row) => row.id);
    },
  };
}
