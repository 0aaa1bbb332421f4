import { TrialWillEnd } from '../../billing/subscriptions/subscription-lifecycle.js';
import type { Application } from '../../kernel/application.js';
import { Notifications } from './notifications.js';

const DAY_MS = 86_400_000;

/**
 * The "trial ends soon" notice for providers that send no such webhook (Braintree): every
 * subscription whose trial ends within `accounts.notifications.trialEndingDays` and that is not
 * cancelled. Each is noticed once (the key is the one Stripe's webhook uses), so running it on
 * every instance, or beside the webhook, sends one mail. Resolves with how many were looked at.
 */
export async function scanTrialsEnding(app: Application): Promise<number> {
  const now = app.clock.now();
  const until = new Date(now.getTime() + app.config.accounts.notifications.trialEndingDays * DAY_MS);
  const rows = await app.db
    .selectFrom('subscriptions')
    .select(['user_id', 'stripe_id', 'braintree_id', 'stripe_plan', 'braintree_plan', 'trial_ends_at'])
    .where('trial_ends_at', '>', now.toISOString())
    .where('trial_ends_at', '<=', until.toISOString())
    .where('ends_at', 'is', null)
    .where('user_id', 'is not', null)
    .where('status', 'not in', ['canceled', 'incomplete', 'incomplete_expired'])
    .execute();
  const notifications = app.container.make(Notifications);
  for (const row of rows) {
    const subscription = row.stripe_id ?? row.braintree_id;
    if (!subscription || !row.trial_ends_at) continue;
    const plan = row.stripe_plan ?? row.braintree_plan ?? '';
    await notifications.handle(
      'trial-ending',
      new TrialWillEnd(row.user_id ?? undefined, subscription, plan, row.trial_ends_at),
    );
  }
  return rows.length;
}

/**
 * Runs `scanTrialsEnding` every `everyMs` (the reference service: `accounts.notifications.trialScanMinutes`).
 * Returns a function that stops it.
 */
export function scheduleTrialNotices(app: Application, options: { everyMs: number }): () => void {
  const run = () =>
    scanTrialsEnding(app).catch((err: unknown) => app.logger.error({ err }, 'trial notices scan failed'));
  const timer = setInterval(run, options.everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
