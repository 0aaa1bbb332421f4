import { Users } from '../billable-user.js';
import { Customers } from '../customers/customers.js';
import { Payments } from '../payments/payments.js';

/** What a webhook controller needs to bring a user's card on file up to date. */
export interface CardRefreshDeps {
  readonly payments?: Payments | undefined;
  readonly users?: Users | undefined;
  readonly customers?: Customers | undefined;
}

/**
 * Copies the provider customer's current default payment method (fetched, so a late or repeated
 * event applies what is true now) to its owner (a user, an organization), if the customer is ours.
 */
export async function refreshCardOf(
  customerId: string | null | undefined,
  deps: CardRefreshDeps,
): Promise<void> {
  const { customers } = deps;
  if (!customerId || !customers) return;
  const owner = await customers.ownerOfCustomer(customerId);
  if (owner) await customers.refreshCard(owner);
}

/** `refreshCardOf` as an injectable service, for a webhook controller to take as one dependency. */
export class CardRefresh {
  static inject = [Payments, Users, Customers] as const;

  constructor(
    readonly payments: Payments,
    readonly users: Users,
    readonly customers: Customers,
  ) {}

  refresh(customerId: string | null | undefined): Promise<void> {
    return refreshCardOf(customerId, this);
  }
}
