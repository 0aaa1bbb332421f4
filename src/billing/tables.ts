import type { Generated, Selectable } from 'kysely';
import type { NullableTimestamp, Timestamp } from '../database/types.js';

/**
 * The spec's "Subscription record". The provider columns carry the provider's name, as the spec
 * says they do in each edition; both pairs exist so one schema serves both editions, and each
 * edition fills only its own (`GatewayCapabilities.columns` names them).
 */
export interface SubscriptionsTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  stripe_id: string | null;
  stripe_plan: string | null;
  braintree_id: string | null;
  braintree_plan: string | null;
  quantity: number | null;
  trial_ends_at: NullableTimestamp;
  ends_at: NullableTimestamp;
  /** The provider's status (`SubscriptionStatus`). */
  status: Generated<string>;
  /** When the provider state last applied was current; older webhook events are not applied. */
  provider_updated_at: NullableTimestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** Webhook events already handled, keyed by provider and event id, so a redelivery is a no-op. */
export interface BillingWebhookEventsTable {
  id: Generated<number>;
  provider: string;
  event_id: string;
  type: string;
  received_at: Timestamp;
}

/** Leases of the per-user billing lock (`BillingLocks`): a row is a held lock until `expires_at` (ms). */
export interface BillingLocksTable {
  name: string;
  holder: string;
  expires_at: number;
}

/** The result of an operation made under a caller's request key, replayed for the same key. */
export interface BillingRequestsTable {
  key: string;
  fingerprint: string;
  result: string;
  created_at: Timestamp;
}

declare module '../database/types.js' {
  interface Database {
    subscriptions: SubscriptionsTable;
    billing_webhook_events: BillingWebhookEventsTable;
    billing_locks: BillingLocksTable;
    billing_requests: BillingRequestsTable;
  }
}

export type SubscriptionRow = Selectable<SubscriptionsTable>;
