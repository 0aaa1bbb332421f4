import type { User } from '../auth/user.js';

/** What the billing services need of a user model: the `User` record plus its tax rule. */
export interface BillableUser extends User {
  /** 0–100, at most two decimals; applied to subscription charges only. */
  taxPercentage(): number;
}
