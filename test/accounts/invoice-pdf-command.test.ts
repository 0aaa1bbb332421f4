import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../app/bootstrap.js';
import { referenceConfig } from '../../app/config.js';
import type { AppUser } from '../../app/user.js';
import { AccountDeletion } from '../../src/accounts/deletion/account-deletion.js';
import { Users } from '../../src/auth/users.js';
import type { PlanConfig } from '../../src/billing/config.js';
import { closeBilling } from '../../src/billing/index.js';
import { TestClock } from '../../src/core/clock.js';
import { createLogger } from '../../src/core/logger.js';
import type { Application } from '../../src/kernel/application.js';
import { pdfText } from '../billing/contract/money.js';
import type { EditionSandbox } from '../billing/harness.js';
import { stripeHarness } from '../billing/stripe-harness.js';
import { tollgate } from '../support/cli.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { ANY_ENGINE } from '../support/engines.js';

/**
 * `tollgate invoice:pdf` on the reference app, against a Stripe sandbox that outlives the command's
 * own application: the operator's copy of a deleted account's invoice.
 */
describe(`tollgate invoice:pdf for a deleted account`, () => {
  let database: TestDatabase;
  let storage: string;
  let sandbox: EditionSandbox;
  let app: Application;
  let env: Record<string, string>;

  beforeAll(async () => {
    database = await createTestDatabase(ANY_ENGINE);
    storage = mkdtempSync(join(tmpdir(), 'tollgate-invoice-pdf-'));
    // The command's application runs on the wall clock: so does the sandbox here.
    const clock = new TestClock(new Date());
    sandbox = await stripeHarness.startSandbox({
      clock,
      plans: referenceConfig.billing!.plans as PlanConfig[],
      coupons: [],
      currency: 'usd',
    });
    const stripe = sandbox.config.stripe!;
    env = {
      DATABASE_URL: database.url,
      STORAGE_PATH: storage,
      LOG_LEVEL: 'silent',
      STRIPE_KEY: stripe.key!,
      STRIPE_SECRET: stripe.secret!,
      STRIPE_WEBHOOK_SECRET: stripe.webhookSecret!,
      STRIPE_API_BASE: stripe.apiBase!,
    };
    app = await createApp(
      {
        database: { url: database.url },
        storagePath: storage,
        billing: { edition: 'stripe', stripe },
      },
      { clock, logger: createLogger('silent') },
    );
    await app.migrate();
  });

  afterAll(async () => {
    await closeBilling(app);
    await app.close();
    await sandbox.close();
    await database.drop();
    rmSync(storage, { recursive: true, force: true });
  });

  it('writes the PDF by the deleted user id (or the customer id), naming the customer by its id only', async () => {
    const user = await app.container
      .make(Users)
      .create<AppUser>({ name: 'Gone Gina', email: 'gina@example.com', password: 'correct horse battery' });
    await user.newSubscription('main', 'basic-monthly').create('tok_visa');
    const invoice = (await user.invoices())[0]!;
    const customer = user.stripe_id!;
    expect(await app.container.make(AccountDeletion).delete(user, {})).toBe(true);

    const out = join(storage, 'kept.pdf');
    const byUser = await tollgate(
      ['invoice:pdf', '--user', String(user.id), '--invoice', invoice.id, '--out', out],
      env,
    );
    expect(byUser).toMatchObject({
      code: 0,
      stdout: `Wrote ${out} (invoice ${invoice.id} of customer ${customer}).`,
    });
    const text = pdfText(readFileSync(out));
    expect(text).toContain(invoice.total());
    expect(text).toContain(`Customer ${customer}`);
    expect(text).not.toContain('Gina');

    const byCustomer = await tollgate(
      ['invoice:pdf', '--customer', customer, '--invoice', invoice.id, '--out', out],
      env,
    );
    expect(byCustomer.code).toBe(0);

    const unknown = await tollgate(['invoice:pdf', '--user', '999999', '--invoice', invoice.id], env);
    expect(unknown).toMatchObject({
      code: 1,
      stderr: 'Error: User 999999 has no billing customer (no such user, live or deleted).\n',
    });
    const neither = await tollgate(['invoice:pdf', '--invoice', invoice.id], env);
    expect(neither).toMatchObject({ code: 1, stderr: 'Error: Give --customer or --user (one of them).\n' });
    const other = await tollgate(
      ['invoice:pdf', '--customer', 'cus_someone_else', '--invoice', invoice.id],
      env,
    );
    expect(other.code).toBe(1);
    expect(other.stderr).toContain(invoice.id);
  });
});
