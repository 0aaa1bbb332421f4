import type { SandboxStore } from '../store/store.js';
import type { EventBus } from './webhooks.js';

/**
 * What happens to a subscription once every retry of a renewal has failed — the account setting
 * "Manage failed payments → Subscription status" in Stripe's dashboard: cancel it, mark it
 * `unpaid` (no further renewals are charged until the open invoice is paid), or leave it `past_due`.
 */
export type FailedPaymentOutcome = 'cancel' | 'unpaid' | 'past_due';

/** What every resource handler and billing step works on. */
export interface SandboxContext {
  store: SandboxStore;
  events: EventBus;
  /** Default `cancel`. */
  failedPaymentOutcome?: FailedPaymentOutcome;
}
