import { randomChars } from '../../shared/ids.js';

/** A new object id with Stripe's prefix convention (`cus_`, `sub_`, `in_`, `ch_`, …). */
export function newId(prefix: string): string {
  return `${prefix}_${randomChars(24)}`;
}
