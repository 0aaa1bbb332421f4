import type { SubscriptionRecord } from '../store/records.js';
import type { SandboxStore } from '../store/store.js';

export interface Credentials {
  merchantId: string;
  publicKey: string;
  privateKey: string;
}

/** What every operation needs: the state, the credentials, the retry policy and the webhook sender. */
export interface SandboxContext {
  store: SandboxStore;
  credentials: Credentials;
  /**
   * `attempts` failures in a row, retried every `intervalDays`; then (`outcome`) the subscription is
   * canceled, or stays Past Due with no more retries (a manual `retryCharge` can still collect).
   */
  retry: { attempts: number; intervalDays: number; outcome?: 'cancel' | 'past_due' };
  /** `next-day`: settled by the first `runDue` on a later date; `immediate`: settled when charged. */
  settlement: 'next-day' | 'immediate';
  /** The merchant account's currency: one-off sales are made in it (subscriptions in their plan's). */
  currencyIsoCode: string;
  /** Sends a subscription notification (awaited, so tests see it when the call returns). */
  notifySubscription(kind: string, subscription: SubscriptionRecord): Promise<void>;
}
