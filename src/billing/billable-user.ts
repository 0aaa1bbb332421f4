/**
 * Billing's one door into `auth`, through its public entry point: the user model that `Billable`
 * extends, and the users store that the customer service writes the billable columns through.
 */
import type { User } from '../auth/index.js';

export type { User } from '../auth/index.js';
export { Users } from '../auth/index.js';

/** What the billing services need of a user model: the `User` record plus its tax rule. */
export interface BillableUser extends User {
  /** 0–100, at most two decimals; applied to subscription charges only. */
  taxPercentage(): number;
}
