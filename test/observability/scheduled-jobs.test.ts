import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../app/bootstrap.js';
import { referenceConfig } from '../../app/config.js';
import { scheduleJobs } from '../../app/scheduled-jobs.js';
import type { AppUser } from '../../app/user.js';
import { Users } from '../../src/auth/users.js';
import { PaymentGatewayKey, type PlanConfig } from '../../src/billing/index.js';
import { TestClock } from '../../src/core/clock.js';
import { createLogger } from '../../src/core/logger.js';
import type { Application } from '../../src/kernel/application.js';
import { defineMail, html } from '../../src/mail/index.js';
import { Mailer } from '../../src/mail/mailer.js';
import { installOAuth } from '../../src/oauth/install.js';
import { PersonalAccessTokens } from '../../src/oauth/personal/personal-access-tokens.js';
import { Organizations } from '../../src/organizations/organizations.js';
import { UsageMeter } from '../../src/plans/metering/usage-meter.js';
import type { EditionSandbox } from '../billing/harness.js';
import { stripeHarness } from '../billing/stripe-harness.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { ENGINES } from '../support/engines.js';
import { type Mailbox, startMailbox } from '../support/mailbox.js';

/** Every job's interval, in minutes as the environment gives it: 600 ms. */
const MINUTES = '0.01';
const INTERVAL_MS = 600;
/** Windows the clock moves through after the first. */
const ADVANCES = 3;
const START = Date.parse('2026-01-15T12:00:00Z');
const JOBS = ['tokens:purge', 'billing:reconcile', 'usage:report', 'organizations:seats'] as const;
const RAN = 'scheduled job ran';
const SKIPPED = 'scheduled job: another instance has this interval';

type LogLine = { msg: string; job?: string; interval_start?: string };

const note = defineMail<{ n: number }>({
  name: 'note',
  subject: (d) => `Note ${d.n}`,
  text: (d) => `Note ${d.n}`,
  html: (d) => html`<p>Note ${d.n}</p>`,
});

/** Polls `check` until it holds: the test's timeout, not a timed assertion, bounds a wait. */
async function until(check: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 20));
}

/**
 * Three instances of the reference service on one database (and one Redis, when REDIS_URL is set),
 * each scheduling its jobs with `scheduleJobs` as `app/main.ts` does, every interval 600 ms from the
 * environment, their mail workers polling. The timers are real; the clock is the test's, so a window
 * lasts until the test has seen every instance's timer fire in it — however loaded the machine —
 * and the windows follow one another with none skipped.
 */
describe.each(ENGINES)('three instances scheduling their jobs (%s)', (engine) => {
  const clock = new TestClock(new Date(START));
  let database: TestDatabase;
  let storagePath: string;
  let mailbox: Mailbox;
  let sandbox: EditionSandbox;
  const instances: Application[] = [];
  const logs: LogLine[][] = [[], [], []];

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    storagePath = mkdtempSync(join(tmpdir(), 'tollgate-three-'));
    mailbox = await startMailbox();
    // One Stripe sandbox for all three, on the test's clock, with the Pro plan's metered price (app/config.ts).
    sandbox = await stripeHarness.startSandbox({
      clock,
      plans: referenceConfig.billing!.plans as PlanConfig[],
      coupons: [],
      currency: 'usd',
      metered: { id: 'price_api_calls', name: 'API calls', unitMinor: 1 },
    });
    const make = (lines: LogLine[]) =>
      createApp(
        {
          app: { env: 'test', url: 'http://localhost' },
          database: { url: database.url },
          storagePath,
          routes: { cachePath: join(storagePath, 'routes.json') },
          billing: sandbox.config,
          mail: { url: mailbox.url, worker: { pollMs: 50 } },
        },
        {
          clock,
          logger: createLogger('debug', { write: (line: string) => void lines.push(JSON.parse(line)) }),
        },
      );
    const first = await make(logs[0]!);
    // Migrations run once, by one job, before the instances take traffic (docs/deployment.md).
    await first.migrate();
    await installOAuth(first, { passwordClient: false });
    instances.push(first, await make(logs[1]!), await make(logs[2]!));
    for (const app of instances) await app.boot();
  });
  afterAll(async () => {
    await Promise.allSettled(instances.map((app) => app.close()));
    await mailbox?.close();
    await sandbox?.close();
    await database?.drop();
    if (storagePath) rmSync(storagePath, { recursive: true, force: true });
  }, 60_000);

  it('each job runs once in every interval, none skipped; usage is reported once; the outbox sends each mail once', async () => {
    const db = instances[0]!.db;
    const user = await instances[0]!.container.make(Users).create<AppUser>({
      name: 'Ada',
      email: 'ada@example.com',
      password: 'correct horse battery',
    });
    const subscription = await user.newSubscription('default', 'pro-monthly').skipTrial().create('tok_visa');
    const customer = (await instances[0]!.container.make(Users).find<AppUser>(user.id))!.stripe_id!;
    /** The Pro plan's calls on the next invoice, as the provider counts them. */
    const reportedCalls = async () => {
      const invoice = await instances[0]!.container
        .make(PaymentGatewayKey)
        .upcomingInvoice(customer, subscription.providerId);
      return invoice?.lines.find((l) => l.description.includes('API calls'))?.quantity ?? 0;
    };
    let calls = 0;
    const organization = (await instances[0]!.container.make(Organizations).create(user.id, 'Acme')).id;
    const tokens = instances[0]!.container.make(PersonalAccessTokens);
    const windows = Array.from({ length: ADVANCES + 1 }, (_, k) =>
      new Date(START + k * INTERVAL_MS).toISOString(),
    );

    /**
     * Work for the next window's jobs: a revoked token, an audit event past retention, a seat sync
     * left pending (the reference service bills no seats: the retry clears it), a mail per instance.
     */
    const leaveWork = async (k: number) => {
      const { token } = await tokens.create(user.id, `window ${k}`);
      await tokens.revoke(token.id);
      await db
        .insertInto('audit_events')
        .values({
          at: new Date(clock.now().getTime() - 400 * 86_400_000).toISOString(),
          kind: 'old',
          actor: 'test',
        })
        .execute();
      await db
        .insertInto('organization_seat_syncs')
        .values({ organization_id: organization, attempt: `window-${k}`, since: clock.now().toISOString() })
        .execute();
      for (const [i, app] of instances.entries())
        await app.container.make(Mailer).send(note, `window${k}@example.com`, { n: i }, { db: app.db });
      // API calls the Pro user made, counted by one instance's meter: 10, 20, 30… per window.
      const meter = instances[k % 3]!.container.make(UsageMeter);
      const day = clock.now().toISOString().slice(0, 10);
      meter.record(
        {
          day,
          userId: String(user.id),
          clientId: 'client-1',
          credentialKind: 'personal',
          credentialId: 'token-1',
          route: 'api.orders.index',
          meter: 'calls',
        },
        10 * (k + 1),
      );
      await meter.flush();
      calls += 10 * (k + 1);
    };
    const everyInstanceFired = (start: string) =>
      logs.every((lines) =>
        JOBS.every((job) =>
          lines.some(
            (l) => l.job === job && l.interval_start === start && (l.msg === RAN || l.msg === SKIPPED),
          ),
        ),
      );
    const left = async () => {
      const tokensLeft = await db.selectFrom('oauth_access_tokens').select('id').execute();
      const eventsLeft = await db.selectFrom('audit_events').select('id').where('kind', '=', 'old').execute();
      const seatsLeft = await db.selectFrom('organization_seat_syncs').select('organization_id').execute();
      return tokensLeft.length + eventsLeft.length + seatsLeft.length;
    };

    await leaveWork(0);
    for (const app of instances)
      scheduleJobs(app, {
        BILLING_RECONCILE_MINUTES: MINUTES,
        USAGE_REPORT_MINUTES: MINUTES,
        TOKEN_PURGE_MINUTES: MINUTES,
        AUDIT_PURGE_MINUTES: MINUTES,
        SEAT_SYNC_RETRY_MINUTES: MINUTES,
      });
    for (const [k, start] of windows.entries()) {
      if (k > 0) {
        await leaveWork(k);
        clock.advance(INTERVAL_MS);
      }
      // Every instance's timer has fired in this window for every job, and the jobs' work is done.
      await until(() => everyInstanceFired(start));
      await until(async () => (await left()) === 0);
      const slot = `${INTERVAL_MS}:${START / INTERVAL_MS + k}`;
      await until(async () => {
        const purge = await db
          .selectFrom('audit_purges')
          .select('deleted')
          .where('slot', '=', slot)
          .executeTakeFirst();
        return purge?.deleted != null;
      });
      // This window's report (finished before its run was logged) put every call so far on the invoice, once.
      expect({ window: k, calls: await reportedCalls() }).toEqual({ window: k, calls });
    }

    // One run per job and window, whichever instance it was: from the instances' own logs...
    const ran = logs.flat().filter((l) => l.msg === RAN);
    for (const job of JOBS)
      expect({
        job,
        runs: ran
          .filter((l) => l.job === job)
          .map((l) => l.interval_start)
          .sort(),
      }).toEqual({
        job,
        runs: windows,
      });
    // ...and the jobs' record: one finished row per window, none failed, none missing.
    const rows = await db.selectFrom('job_runs').selectAll().orderBy('interval_start').execute();
    for (const job of JOBS)
      expect(
        rows.filter((r) => r.job === job).map((r) => [r.interval_start, r.failed, r.finished_at !== null]),
      ).toEqual(windows.map((start) => [start, 0, true]));
    expect(await db.selectFrom('audit_purges').select('deleted').orderBy('slot').execute()).toEqual(
      windows.map(() => ({ deleted: 1 })),
    );

    // The outbox: every mail arrives, and once all three workers have stopped, none twice.
    await until(() => mailbox.received.length >= 3 * windows.length);
    await Promise.all(instances.map((app) => app.close()));
    for (const k of windows.keys())
      expect(
        mailbox
          .to(`window${k}@example.com`)
          .map((m) => m.subject)
          .sort(),
      ).toEqual(['Note 0', 'Note 1', 'Note 2']);
  }, 120_000);
});
