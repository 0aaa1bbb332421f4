import {
  closeOnSignals,
  installOAuth,
  listen,
  listenForMetrics,
  loadEnvFile,
  scheduleAuditPurge,
  scheduleTokenPurge,
  scheduleUsageReports,
} from 'tollgate';
import { scheduleTrialNotices } from 'tollgate/accounts';
import { scheduleReconcile } from 'tollgate/billing';
import { createApp } from './bootstrap.js';

// The project's .env, as the `tollgate` command reads it: one configuration for both.
loadEnvFile();
const app = await createApp();
await app.migrate();
// First start: signing keys and a personal access client, so the dashboard works at once.
// (A password grant client's secret is shown once, so that one is left to `tollgate install`.)
const installed = await installOAuth(app, { passwordClient: false });
if (installed.keys.written || installed.personalAccessClient) {
  console.log('First start: created the OAuth signing keys and a personal access client.');
}
await app.boot();
// Rows a lost webhook left behind (a crash, deliveries the provider gave up on) are repaired by
// `billing:reconcile --fix` every hour, by one instance per hour however many run (docs/billing.md).
// BILLING_RECONCILE_MINUTES sets the interval; 0 turns it off.
const reconcileMinutes = Number(process.env.BILLING_RECONCILE_MINUTES ?? 60);
if (reconcileMinutes > 0) scheduleReconcile(app, { everyMs: reconcileMinutes * 60_000, adoptAs: 'default' });
// The Pro plan's API calls (app/config.ts) reported to the provider every 15 minutes, by one instance
// per interval (docs/api-plans.md#reporting-usage). USAGE_REPORT_MINUTES sets the interval; 0 turns it off.
const usageReportMinutes = Number(process.env.USAGE_REPORT_MINUTES ?? 15);
if (usageReportMinutes > 0) scheduleUsageReports(app, { everyMs: usageReportMinutes * 60_000 });
// "Your trial ends soon" for providers with no such webhook (Braintree); once per trial across instances.
const trialScanMinutes = app.config.accounts.notifications.trialScanMinutes;
if (trialScanMinutes > 0) scheduleTrialNotices(app, { everyMs: trialScanMinutes * 60_000 });
// Revoked tokens, and tokens expired over a week ago, go once a day, by one instance (docs/deployment.md).
scheduleTokenPurge(app);
// Audit events older than AUDIT_RETENTION_DAYS (default 365) go once a day, by one instance (docs/operations.md).
scheduleAuditPurge(app);
const server = await listen(app, app.config.http.host, app.config.http.port);
await listenForMetrics(app); // METRICS_PORT, when set
closeOnSignals(app, server);
app.logger.info({ url: server.url, database: app.engine }, 'Tollgate is listening');
console.log(`Tollgate is running at ${server.url}`);
