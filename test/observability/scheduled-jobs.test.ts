import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../app/bootstrap.js';
import { reconcileOnce } from '../../src/billing/reconcile/reconcile-schedule.js';
import { TestClock } from '../../src/core/clock.js';
import { createLogger } from '../../src/core/logger.js';
import type { Application } from '../../src/kernel/application.js';
import { defineMail, html } from '../../src/mail/index.js';
import { Mailer } from '../../src/mail/mailer.js';
import { installKeys } from '../../src/oauth/keys/key-files.js';
import { purgeTokensOnce } from '../../src/oauth/tokens/token-purge-schedule.js';
import { purgeAuditOnce } from '../../src/observability/audit/audit-purge.js';
import { reportUsageOnce } from '../../src/plans/reporting/usage-schedule.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { ENGINES } from '../support/engines.js';
import { type Mailbox, startMailbox } from '../support/mailbox.js';

const HOUR = 3_600_000;
const TICKS = 3;

const note = defineMail<{ n: number }>({
  name: 'note',
  subject: (d) => `Note ${d.n}`,
  text: (d) => `Note ${d.n}`,
  html: (d) => html`<p>Note ${d.n}</p>`,
});

/** The scheduled jobs, as each instance's timer runs them (interval: an hour here). */
const JOBS: Record<string, (app: Application) => Promise<unknown>> = {
  'tokens:purge': (app) => purgeTokensOnce(app, { everyMs: HOUR }),
  'billing:reconcile': (app) => reconcileOnce(app, { everyMs: HOUR }),
  'usage:report': (app) => reportUsageOnce(app, { everyMs: HOUR }),
  'audit:purge': (app) => purgeAuditOnce(app, HOUR),
};

/**
 * Three instances of the reference service on one database (and one Redis, when REDIS_URL is
 * set), one clock: every instance schedules every job, and each interval's run is one instance's.
 */
describe.each(ENGINES)('three instances running the scheduled jobs (%s)', (engine) => {
  const clock = new TestClock(new Date('2026-01-15T12:00:00Z'));
  let database: TestDatabase;
  let storagePath: string;
  let mailbox: Mailbox;
  const instances: Application[] = [];

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    storagePath = mkdtempSync(join(tmpdir(), 'tollgate-three-'));
    mailbox = await startMailbox();
    const make = () =>
      createApp(
        {
          app: { env: 'test', url: 'http://localhost' },
          database: { url: database.url },
          storagePath,
          routes: { cachePath: join(storagePath, 'routes.json') },
          billing: { stripe: { webhookSecret: 'whsec_three_instances' } },
          // Polling off: the test drains all three workers at once, when it means to.
          mail: { url: mailbox.url, worker: { pollMs: 0 } },
        },
        { clock, logger: createLogger('silent') },
      );
    const first = await make();
    // Migrations run once, by one job, before the instances take traffic (docs/deployment.md).
    await first.migrate();
    installKeys(storagePath, first.config.oauth.signingAlgorithm);
    instances.push(first, await make(), await make());
    for (const app of instances) await app.boot();
  });
  afterAll(async () => {
    await Promise.allSettled(instances.map((app) => app.close()));
    await mailbox?.close();
    await database?.drop();
    if (storagePath) rmSync(storagePath, { recursive: true, force: true });
  });

  it('each job runs once per interval, whichever instance fires first, and the outbox sends each mail once', async () => {
    const db = instances[0]!.db;
    for (let tick = 1; tick <= TICKS; tick++) {
      clock.advance(HOUR);
      // Three queued mails, one from each instance.
      for (const [i, app] of instances.entries())
        await app.container.make(Mailer).send(note, `tick${tick}@example.com`, { n: i }, { db: app.db });
      // Every instance's timer fires at the same moment: the worst case.
      for (const [job, run] of Object.entries(JOBS)) {
        const results = await Promise.all(instances.map(run));
        expect({ job, tick, ran: results.filter((r) => r !== null).length }).toEqual({ job, tick, ran: 1 });
      }
      await Promise.all(instances.map((app) => app.container.make(Mailer).drain()));
    }
    // Each job's own record: one row per interval, finished, none failed.
    const runs = await db.selectFrom('job_runs').selectAll().orderBy('interval_start').execute();
    for (const job of ['tokens:purge', 'billing:reconcile', 'usage:report']) {
      const mine = runs.filter((r) => r.job === job);
      expect(mine.map((r) => [r.interval_start, r.failed, r.finished_at !== null])).toEqual(
        Array.from({ length: TICKS }, (_, i) => [
          new Date(Date.parse('2026-01-15T12:00:00Z') + (i + 1) * HOUR).toISOString(),
          0,
          true,
        ]),
      );
    }
    expect(await db.selectFrom('audit_purges').select('slot').execute()).toHaveLength(TICKS);
    for (let tick = 1; tick <= TICKS; tick++) {
      const received = mailbox.to(`tick${tick}@example.com`).map((m) => m.subject);
      expect(received.sort()).toEqual(['Note 0', 'Note 1', 'Note 2']);
    }
  });
});
