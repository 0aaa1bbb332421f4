import type { BtSubscription } from './types.js';

/**
 * Braintree swaps across billing frequencies by creating a new subscription and cancelling the old
 * one, two calls the local write follows. The new one gets an id derived from the old (`abc123` →
 * `abc123-r1` → `abc123-r2`; Braintree lets the caller choose an id: letters, digits, `-`, `_`, at
 * most 36), so whoever holds the old id can find what replaced it: the webhook for the cancelled
 * old id, a retried swap, and `billing:reconcile`. A retry that creates the same id again is
 * refused by Braintree (81902) instead of billing twice.
 */
export function successorId(id: string): string {
  const chained = /^(.*)-r(\d+)$/.exec(id);
  return chained ? `${chained[1]}-r${Number(chained[2]) + 1}` : `${id}-r1`;
}

/** Braintree's "ID has already been taken" on `subscription.create`. */
export const ID_TAKEN = '81902';

export const isLive = (sub: BtSubscription): boolean => sub.status !== 'Canceled' && sub.status !== 'Expired';

/**
 * The newest subscription in `id`'s chain of replacements, if it is live; `find` answers null for
 * an id Braintree does not know.
 */
export async function liveSuccessor(
  id: string,
  find: (id: string) => Promise<BtSubscription | null>,
): Promise<BtSubscription | null> {
  let newest: BtSubscription | null = null;
  for (let next = successorId(id); ; next = successorId(next)) {
    const found = await find(next);
    if (!found) break;
    newest = found;
  }
  return newest && isLive(newest) ? newest : null;
}
