import type { BillableRef } from '../billable-user.js';
import type { GatewaySubscription, SubscriptionSync } from '../gateway/payment-gateway.js';
import { endedStatus } from '../subscriptions/provider-status.js';
import { providerChanges } from '../subscriptions/provider-sync.js';
import type { SubscriptionRecord, SubscriptionUpdate } from '../subscriptions/record.js';

/**
 * What `billing:reconcile` finds between the local rows and the provider (the source of truth):
 * - `orphaned`: live at the provider, no local row (the provider call succeeded, the local write failed);
 * - `replaced`: the row's subscription was cancelled by a swap that re-created it (Braintree), and
 *   the live replacement has no row;
 * - `missing_at_provider`: a row that is not over, whose provider object does not exist;
 * - `mismatch`: status, plan, quantity or `ends_at` differ from the provider's;
 * - `missing_customer`: the owner's customer id names no customer at the provider;
 * - `duplicate`: live at the provider while its row has ended and another live row has its name —
 *   two provider subscriptions bill for one (`--fix` cancels this one, the row that ended).
 */
export type DriftKind =
  | 'orphaned'
  | 'replaced'
  | 'missing_at_provider'
  | 'mismatch'
  | 'missing_customer'
  | 'duplicate';

export interface Drift {
  kind: DriftKind;
  /** Whose subscriptions and customer: `{ type: 'user', id: 12 }`, `{ type: 'organization', id: 3 }`. */
  owner: BillableRef;
  /** The owner's e-mail (an organization's billing e-mail; empty when it has none). */
  email: string;
  /** The local row, if there is one. */
  subscriptionId: number | null;
  name: string | null;
  /** The provider object the drift is about (the replacement for `replaced`). */
  providerId: string | null;
  /** `mismatch`: each differing field, local value and the provider's. */
  fields?: Record<string, { local: unknown; provider: unknown }>;
  /** Repaired by this run (or by a run at the same time). */
  fixed: boolean;
  /** Why `--fix` left it as it is. */
  unfixed?: string;
}

export interface ReconcileReport {
  /** Owners checked (users, organizations). */
  owners: number;
  subscriptions: number;
  drift: Drift[];
}

/** The fields reconcile compares; the trial end is left out (providers round it to their own unit). */
const COMPARED = ['status', 'plan', 'quantity', 'endsAt'] as const;

/** What the provider's current state changes on `record` (as a webhook would), as of `now`. */
export function changesFrom(
  record: SubscriptionRecord,
  subscription: GatewaySubscription,
  now: Date,
  supportsQuantities: boolean,
): SubscriptionUpdate {
  const sync: SubscriptionSync = { subscription, at: now, ended: false, whenUnknown: 'acknowledge' };
  return providerChanges(record, sync, now, supportsQuantities);
}

/** The compared fields where `changes` would change `record`. */
export function differences(record: SubscriptionRecord, changes: SubscriptionUpdate): Drift['fields'] {
  const fields: NonNullable<Drift['fields']> = {};
  for (const field of COMPARED) {
    const provider = changes[field];
    if (provider !== undefined && provider !== record[field])
      fields[field] = { local: record[field], provider };
  }
  return Object.keys(fields).length ? fields : undefined;
}

export const isLiveAtProvider = (sub: GatewaySubscription): boolean =>
  !endedStatus(sub.status) && sub.endedAt === null;
