import type { Generated, Selectable } from 'kysely';
import type { NullableTimestamp, Timestamp } from '../database/types.js';

/**
 * The spec's "Subscription record". The provider columns carry the provider's name, as the spec
 * says they do in each edition; both pairs exist so one schema serves both editions, and each
 * edition fills only its own (`GatewayCapabilities.columns` names them).
 */
export interface SubscriptionsTable {
  id: Generated<number>;
  /** The user's id when the owner is a user (`billable_type = 'user'`), else null. */
  user_id: number | null;
  /** Who is billed: `user`, or another billable model's type (`organization`). */
  billable_type: Generated<string>;
  billable_id: number;
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
  /** When it became `past_due`; null while it is not. */
  past_due_since: NullableTimestamp;
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

/**
 * An invoice frozen when it was issued (gateways without invoices of their own: Braintree). Amounts
 * in minor units; `tax_rate` in hundredths of a percent (825 = 8.25%).
 */
export interface BillingIssuedInvoicesTable {
  id: Generated<number>;
  gateway: string;
  provider_id: string;
  customer_id: string;
  subscription_id: string | null;
  plan: string | null;
  plan_name: string | null;
  currency: string;
  tax_rate: number;
  subtotal: number;
  discount: number;
  discount_description: string | null;
  tax: number;
  total: number;
  issued_at: Timestamp;
}

/** What a provider subscription's recurring price was built from: its plan and tax rate (825 = 8.25%). */
export interface BillingSubscriptionTermsTable {
  gateway: string;
  subscription_id: string;
  plan: string;
  /** The recurring price with tax, minor units. */
  price: number;
  tax_rate: number;
  updated_at: Timestamp;
}

declare module '../database/types.js' {
  interface Database {
    subscriptions: SubscriptionsTable;
    billing_webhook_events: BillingWebhookEventsTable;
    billing_locks: BillingLocksTable;
    billing_requests: BillingRequestsTable;
    billing_issued_invoices: BillingIssuedInvoicesTable;
    billing_subscription_terms: BillingSubscriptionTermsTable;
  }
}

export type SubscriptionRow = Selectable<SubscriptionsTable>;
