import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../app/bootstrap.js';
import type { AppUser } from '../../app/user.js';
import { Users } from '../../src/auth/users.js';
import { closeBilling } from '../../src/billing/index.js';
import type { Application } from '../../src/kernel/application.js';
import { UsageMeter } from '../../src/plans/metering/usage-meter.js';
import type { UsageReportLine } from '../../src/plans/reporting/usage-reporter.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { deferred } from '../support/deferred.js';
import { ENGINES } from '../support/engines.js';
import { type FaultProxy, type ProxiedRequest, startFaultProxy } from './fault-proxy.js';
import { startTollgate, type TollgateProcess } from './tollgate-process.js';

/** The reference service's metered price (app/config.ts), which `tollgate sandbox:stripe` seeds. */
const METERED_PRICE = 'price_api_calls';
const isMeterEvent = (r: ProxiedRequest) =>
  r.method === 'POST' && r.path.startsWith('/v1/billing/meter_events');

interface Subscriber {
  id: number;
  customer: string;
  subscription: string;
  /** Every call counted for them so far (flushed to the aggregates). */
  counted: number;
}

/**
 * Issue 29, item 11: `tollgate usage:report` in processes of its own, against a standalone
 * `tollgate sandbox:stripe` (the official stripe SDK over HTTP, through a proxy that can lose a
 * request or its answer), killed with SIGKILL mid-report and run twice at once: the provider's
 * usage equals the counted calls, never more, never less.
 */
describe.each(ENGINES)('usage:report across SIGKILL and two instances (%s)', (engine) => {
  let database: TestDatabase;
  let storage: string;
  let sandbox: TollgateProcess;
  let sandboxUrl: string;
  let stripe: Stripe;
  let app: Application;
  const subscribers: Subscriber[] = [];
  const proxies: FaultProxy[] = [];

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    storage = mkdtempSync(join(tmpdir(), 'tollgate-usage-crash-'));
    sandbox = startTollgate(['sandbox:stripe', '--port', '0'], {
      DATABASE_URL: database.url,
      STORAGE_PATH: storage,
    });
    const [, url] = await sandbox.printed(/listening on (http:\/\/127\.0\.0\.1:\d+)/);
    sandboxUrl = url!;
    await sandbox.printed(/Metered prices: price_api_calls/);
    stripe = new Stripe('sk_test_inspect', {
      host: '127.0.0.1',
      port: Number(new URL(sandboxUrl).port),
      protocol: 'http',
      maxNetworkRetries: 0,
    });
    app = await createApp({
      database: { url: database.url },
      storagePath: storage,
      log: { level: 'silent' },
      billing: { stripe: { key: 'pk_test_sandbox', secret: 'sk_test_sandbox', apiBase: sandboxUrl } },
    });
    await app.migrate();
    for (let i = 1; i <= 4; i++) {
      const user = await app.container.make(Users).create<AppUser>({
        name: `Metered ${i}`,
        email: `metered${i}@example.com`,
        password: 'correct horse battery',
      });
      const sub = await user.newSubscription('default', 'pro-monthly').skipTrial().create('tok_visa');
      const fresh = (await app.container.make(Users).find<AppUser>(user.id))!;
      subscribers.push({ id: user.id, customer: fresh.stripe_id!, subscription: sub.providerId, counted: 0 });
    }
  }, 180_000);

  afterAll(async () => {
    for (const proxy of proxies) await proxy.close();
    if (app) {
      await closeBilling(app);
      await app.close();
    }
    await sandbox?.kill();
    await database?.drop();
    rmSync(storage, { recursive: true, force: true });
  });

  /** New calls for every subscriber, counted as the guard's meter counts them, then flushed. */
  const use = async (base: number) => {
    const meter = app.container.make(UsageMeter);
    for (const [i, s] of subscribers.entries()) {
      const units = base + i;
      meter.record(
        {
          day: new Date().toISOString().slice(0, 10),
          userId: String(s.id),
          clientId: '',
          credentialKind: 'api_key',
          credentialId: 'key-1',
          route: 'api.orders.index',
          meter: 'calls',
        },
        units,
      );
      s.counted += units;
    }
    await meter.flush();
  };

  /** The metered line's quantity on the subscription's next invoice, as the sandbox bills it. */
  const billed = async (s: Subscriber) => {
    const preview = await stripe.invoices.createPreview({
      customer: s.customer,
      subscription: s.subscription,
    });
    const line = preview.lines.data.find((l) => l.pricing?.price_details?.price === METERED_PRICE);
    return line?.quantity ?? 0;
  };

  const expectBilledAsCounted = async () => {
    const rows = await Promise.all(subscribers.map(async (s) => ({ id: s.id, billed: await billed(s) })));
    expect(rows).toEqual(subscribers.map((s) => ({ id: s.id, billed: s.counted })));
  };

  /** `tollgate usage:report --json` in a process of its own, talking to the sandbox through a fault proxy. */
  const reporter = async (hooks: FaultProxy['hooks'] = {}) => {
    const proxy = await startFaultProxy(sandboxUrl);
    proxies.push(proxy);
    proxy.hooks = hooks;
    return startTollgate(['usage:report', '--json'], {
      DATABASE_URL: database.url,
      STORAGE_PATH: storage,
      STRIPE_KEY: 'pk_test_sandbox',
      STRIPE_SECRET: 'sk_test_sandbox',
      STRIPE_API_BASE: proxy.url,
    });
  };

  const linesOf = (stdout: string): UsageReportLine[] =>
    JSON.parse(stdout.trim().split('\n').at(-1)!).reports;

  /** A run that ended well, reported every user in full, and left the provider billing the counted calls. */
  const expectComplete = async (run: TollgateProcess) => {
    const done = await run.exited;
    expect(done.code, done.stdout + done.stderr).toBe(0);
    const lines = linesOf(done.stdout);
    expect(lines.map((l) => l.status)).not.toContain('failed');
    expect(lines.map((l) => l.total)).toEqual(subscribers.map((s) => s.counted));
    await expectBilledAsCounted();
    return lines;
  };

  it('killed after the provider recorded a report, before it heard back: the next run counts every call once', async () => {
    await use(100);
    let events = 0;
    let victim!: TollgateProcess;
    victim = await reporter({
      // The second user's meter event reaches the provider; its answer never reaches the reporter.
      after: async (r) => {
        if (!isMeterEvent(r) || ++events !== 2) return;
        await victim.kill();
        return 'drop';
      },
    });
    expect(await victim.exited).toMatchObject({ signal: 'SIGKILL' });
    expect(events).toBe(2);

    await expectComplete(await reporter());
  }, 120_000);

  it('two instances at once, one killed before its report reached the provider: the other counts every call once', async () => {
    await use(40);
    const victimDead = deferred();
    const survivorRunning = deferred();
    let victim!: TollgateProcess;
    victim = await reporter({
      // Its first meter event is lost with it: the provider never hears of that total.
      before: async (r) => {
        if (!isMeterEvent(r)) return;
        await survivorRunning.promise;
        await victim.kill();
        victimDead.resolve();
        return 'drop';
      },
    });
    // The survivor is mid-report (its first call to the provider in flight) when the victim dies.
    const survivor = await reporter({
      before: async () => {
        survivorRunning.resolve();
        await victimDead.promise;
        return undefined;
      },
    });
    expect(await victim.exited).toMatchObject({ signal: 'SIGKILL' });
    await expectComplete(survivor);
  }, 120_000);

  it('two instances at once: between them they send each new call once', async () => {
    await use(7);
    // Each meter event takes a while, so the two runs overlap.
    const slow = {
      before: async (r: ProxiedRequest) => {
        if (isMeterEvent(r)) await pause(50);
        return undefined;
      },
    };
    const [a, b] = await Promise.all([reporter(slow), reporter(slow)]);
    const [linesA, linesB] = await Promise.all([expectComplete(a), expectComplete(b)]);
    const sent = new Map<number, number>();
    for (const line of [...linesA, ...linesB])
      sent.set(line.owner.id, (sent.get(line.owner.id) ?? 0) + line.sent);
    expect(subscribers.map((s) => sent.get(s.id) ?? 0)).toEqual(subscribers.map((_, i) => 7 + i));
  }, 120_000);
});

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
