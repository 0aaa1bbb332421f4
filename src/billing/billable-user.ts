/**
 * Billing's one door into `auth`, through its public entry point: the user model that `Billable`
 * extends, and the users store that the customer service writes the billable columns through.
 * Other models are billable too (an organization): they satisfy `BillableOwner` and register
 * their store in `BillableStores`.
 */

import type { User } from '../auth/index.js';
import type { Container } from '../core/container.js';

export type { User } from '../auth/index.js';
export { Users } from '../auth/index.js';

/** The billing columns every billable model's table has (the spec's "billable user record"). */
export interface BillableColumns {
  stripe_id: string | null;
  braintree_id: string | null;
  paypal_email: string | null;
  card_brand: string | null;
  card_last_four: string | null;
  trial_ends_at: string | null;
}

/** Who an invoice is addressed to, beyond the name and e-mail: a tax id and an address. */
export interface InvoiceAddressee {
  name?: string;
  email?: string;
  taxId?: string;
  address?: string[];
}

/**
 * Any model billing can bill: an id within its type, the billing columns, a name and e-mail for the
 * provider's customer, and the container its services come from. `billableType` is `user` when
 * absent (a plain `User`); another model names itself (`organization`).
 */
export interface BillableOwner extends BillableColumns {
  id: number;
  name: string;
  email: string;
  readonly billableType?: string;
  readonly container: Container;
  fill(values: Partial<BillableColumns>): unknown;
}

/** A billable owner by type and id: what subscriptions, locks and request keys are keyed on. */
export interface BillableRef {
  readonly type: string;
  readonly id: number;
}

export function refOf(owner: Pick<BillableOwner, 'id' | 'billableType'>): BillableRef {
  return { type: owner.billableType ?? 'user', id: owner.id };
}

/** What the billing services need of a billable model: the owner plus its tax rule. */
export interface BillableModel extends BillableOwner {
  /** 0–100, at most two decimals; applied to subscription charges only. */
  taxPercentage(): number;
  /** Who the invoice PDF is addressed to; the name and e-mail by default. */
  invoiceAddressee?(): InvoiceAddressee;
}

/** What the billing services need of a user model: the `User` record plus its tax rule. */
export interface BillableUser extends User, Omit<BillableModel, 'fill'> {}
