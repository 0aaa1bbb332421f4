import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createApp } from '../../app/bootstrap.js';
import { referenceConfig } from '../../app/config.js';
import type { AppUser } from '../../app/user.js';
import { Users } from '../../src/auth/users.js';
import type { PlanConfig } from '../../src/billing/config.js';
import { closeBilling, PaymentGatewayKey } from '../../src/billing/index.js';
import { run } from '../../src/cli/main.js';
import { TestClock } from '../../src/core/clock.js';
import { createLogger } from '../../src/core/logger.js';
import type { Application } from '../../src/kernel/application.js';
import { UsageMeter } from '../../src/plans/metering/usage-meter.js';
import type { EditionSandbox } from '../billing/harness.js';
import { stripeHarness } from '../billing/stripe-harness.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { ENGINES } from '../support/engines.js';

/**
 * `tollgate usage:report` through the CLI on the reference app, pointed at a Stripe sandbox that
 * outlives each process (the embedded one would not: the command runs its own application).
 */
describe.each(ENGINES)('tollgate usage:report (%s)', (engine) => {
  let database: TestDatabase;
  let storage: string;
  let sandbox: EditionSandbox;
  let app: Application;
  const saved = { ...process.env };

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    storage = mkdtempSync(join(tmpdir(), 'tollgate-usage-report-'));
    const configFile = join(storage, 'tollgate.config.mjs');
    writeFileSync(
      configFile,
      `export default ${JSON.stringify({
        plans: {
          definitions: {
            free: {},
            basic: { billingPlans: ['basic-monthly'], metered: { meter: 'calls', price: 'metered-calls' } },
          },
        },
      })};\n`,
    );
    // The CLI's application runs on the wall clock: so does the sandbox here.
    const clock = new TestClock(new Date());
    sandbox = await stripeHarness.startSandbox({
      clock,
      plans: referenceConfig.billing!.plans as PlanConfig[],
      coupons: [],
      currency: 'usd',
      metered: { id: 'metered-calls', name: 'API calls', unitMinor: 3 },
    });
    const stripe = sandbox.config.stripe!;
    Object.assign(process.env, {
      DATABASE_URL: database.url,
      STORAGE_PATH: storage,
      LOG_LEVEL: 'silent',
      TOLLGATE_CONFIG: configFile,
      STRIPE_KEY: stripe.key,
      STRIPE_SECRET: stripe.secret,
      STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
      STRIPE_API_BASE: stripe.apiBase,
    });
    app = await createApp({}, { clock, logger: createLogger('silent') });
    await app.migrate();
  });

  afterAll(async () => {
    for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name];
    Object.assign(process.env, saved);
    await closeBilling(app);
    await app.close();
    await sandbox.close();
    await database.drop();
    rmSync(storage, { recursive: true, force: true });
  });

  const tollgate = async (...argv: string[]) => {
    const out: string[] = [];
    const log = vi
      .spyOn(console, 'log')
      .mockImplementation((...args: unknown[]) => void out.push(args.join(' ')));
    try {
      return { code: await run(argv), out };
    } finally {
      log.mockRestore();
    }
  };

  it('reports the calls once, however often it runs; --user and --json', async () => {
    const user = await app.container
      .make(Users)
      .create<AppUser>({ name: 'Metered', email: 'metered@example.com', password: 'correct horse battery' });
    const sub = await user.newSubscription('default', 'basic-monthly').create('tok_visa');
    const meter = app.container.make(UsageMeter);
    meter.record(
      {
        day: new Date().toISOString().slice(0, 10),
        userId: String(user.id),
        clientId: '',
        credentialKind: 'api_key',
        credentialId: 'key-1',
        route: 'api.orders.index',
        meter: 'calls',
      },
      42,
    );
    await meter.flush();

    const first = await tollgate('usage:report', '--json');
    expect(first.code).toBe(0);
    expect(JSON.parse(first.out[0]!).reports).toEqual([
      expect.objectContaining({
        userId: user.id,
        plan: 'basic',
        meter: 'calls',
        total: 42,
        sent: 42,
        status: 'reported',
      }),
    ]);
    const again = await tollgate('usage:report', '--user', 'metered@example.com');
    expect(again).toMatchObject({ code: 0, out: [expect.stringMatching(/42 unit\(s\), already reported$/)] });

    const customer = (await app.container.make(Users).find<AppUser>(user.id))!.stripe_id!;
    const upcoming = await app.container.make(PaymentGatewayKey).upcomingInvoice(customer, sub.providerId);
    expect(upcoming?.lines.find((l) => l.description.includes('API calls'))).toMatchObject({
      quantity: 42,
      amount: 126,
    });
  });
});
