import { closeOnSignals, installOAuth, listen, listenForMetrics, loadEnvFile } from 'tollgate';
import { createApp } from './bootstrap.js';
import { scheduleJobs } from './scheduled-jobs.js';

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
// Periodic work (billing reconcile, usage reports, trial notices, token and audit purges): every
// instance schedules it, one runs each interval (docs/deployment.md). Intervals: app/scheduled-jobs.ts.
scheduleJobs(app);
const server = await listen(app, app.config.http.host, app.config.http.port);
await listenForMetrics(app); // METRICS_PORT, when set
closeOnSignals(app, server);
app.logger.info({ url: server.url, database: app.engine }, 'Tollgate is listening');
console.log(`Tollgate is running at ${server.url}`);
