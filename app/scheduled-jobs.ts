import { type Application, scheduleAuditPurge, scheduleTokenPurge, scheduleUsageReports } from 'tollgate';
import { scheduleTrialNotices } from 'tollgate/accounts';
import { scheduleReconcile } from 'tollgate/billing';
import { scheduleSeatSyncRetries } from 'tollgate/organizations';

/** `env[name]` in minutes (fractions allowed: `0.5` is every 30 s), else `fallback`; 0 turns the job off. */
function intervalMs(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name]?.trim();
  const minutes = raw ? Number(raw) : fallback;
  if (!Number.isFinite(minutes) || minutes < 0)
    throw new Error(`${name} must be a number of minutes (0: off)`);
  return minutes * 60_000;
}

/**
 * The reference service's periodic work, scheduled in this process. Every instance calls it (from
 * `app/main.ts`); each interval's run is one instance's (docs/deployment.md). The intervals come
 * from the environment, in minutes; 0 turns a job off.
 */
export function scheduleJobs(app: Application, env: NodeJS.ProcessEnv = process.env): void {
  // Rows a lost webhook left behind (a crash, deliveries the provider gave up on) are repaired by
  // `billing:reconcile --fix` (docs/billing.md).
  const reconcile = intervalMs(env, 'BILLING_RECONCILE_MINUTES', 60);
  if (reconcile > 0) scheduleReconcile(app, { everyMs: reconcile, adoptAs: 'default' });
  // The Pro plan's API calls (app/config.ts) reported to the provider (docs/api-plans.md#reporting-usage).
  const usage = intervalMs(env, 'USAGE_REPORT_MINUTES', 15);
  if (usage > 0) scheduleUsageReports(app, { everyMs: usage });
  // "Your trial ends soon" for providers with no such webhook (Braintree); once per trial across instances.
  const trialScanMinutes = app.config.accounts.notifications.trialScanMinutes;
  if (trialScanMinutes > 0) scheduleTrialNotices(app, { everyMs: trialScanMinutes * 60_000 });
  // Revoked tokens, and tokens expired over a week ago (docs/deployment.md).
  const tokens = intervalMs(env, 'TOKEN_PURGE_MINUTES', 24 * 60);
  if (tokens > 0) scheduleTokenPurge(app, { everyMs: tokens });
  // Audit events older than AUDIT_RETENTION_DAYS (default 365; docs/operations.md).
  const audit = intervalMs(env, 'AUDIT_PURGE_MINUTES', 24 * 60);
  if (audit > 0) scheduleAuditPurge(app, { everyMs: audit });
  // Seat syncs the billing provider failed, until it takes them (docs/organizations.md#seats).
  const seats = intervalMs(env, 'SEAT_SYNC_RETRY_MINUTES', 5);
  if (seats > 0) scheduleSeatSyncRetries(app, { everyMs: seats });
}
