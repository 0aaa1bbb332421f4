import type { SubscriptionSync } from '../payment-gateway.js';
import { mapSubscription } from './map.js';
import type { BtNotification, BtSubscription } from './types.js';

const SYNCED: Partial<Record<string, Pick<SubscriptionSync, 'ended' | 'whenUnknown'>>> = {
  subscription_went_past_due: { ended: false, whenUnknown: 'retry' },
  subscription_went_active: { ended: false, whenUnknown: 'retry' },
  subscription_charged_unsuccessfully: { ended: false, whenUnknown: 'retry' },
  // Sent while the subscription is being created, before its row exists; the creating call stores
  // the same state from its own answer.
  subscription_charged_successfully: { ended: false, whenUnknown: 'acknowledge' },
  subscription_canceled: { ended: true, whenUnknown: 'acknowledge' },
  subscription_expired: { ended: true, whenUnknown: 'acknowledge' },
};

/** The state a subscription notification carries, current as of its timestamp. */
export function subscriptionSyncOf(notification: BtNotification): SubscriptionSync | undefined {
  const rule = SYNCED[notification.kind];
  const sub = notification.subscription as BtSubscription | null | undefined;
  if (!rule || !sub?.id) return undefined;
  return { subscription: mapSubscription(sub), at: new Date(notification.timestamp), ...rule };
}
