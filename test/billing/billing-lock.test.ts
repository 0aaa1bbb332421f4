import { setTimeout as pause } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authProvider } from '../../src/auth/provider.js';
import { BillingLock } from '../../src/billing/billing-lock.js';
import { billingProvider } from '../../src/billing/index.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { deferred } from '../support/deferred.js';
import { ENGINES } from '../support/engines.js';

/**
 * The per-user billing lock's lease is short (a holder killed mid-operation blocks its user for
 * one lease: test/faults/usage-report-crash.test.ts), so a live holder must renew it while it works.
 */
describe.each(ENGINES)('BillingLock lease (%s)', (engine) => {
  let t: TestApp;
  // Short leases, so the test holds the lock for three of them; no waiting for the holder.
  const timing = { leaseMs: 400, renewMs: 80, maxWaitMs: 0 };

  beforeAll(async () => {
    t = await createTestApp({
      engine,
      config: { billing: { stripe: { secret: 'sk_test_lock', apiBase: 'http://127.0.0.1:9' } } },
      providers: [authProvider(), billingProvider()],
    });
  });

  afterAll(() => t.close());

  it('a holder that works longer than a lease keeps the lock: no one else gets the user meanwhile', async () => {
    const holder = new BillingLock(t.app.db, timing);
    const other = new BillingLock(t.app.db, timing);
    const working = deferred();
    const inside = deferred();
    const holding = holder.forUser(7, async () => {
      inside.resolve();
      await working.promise;
    });
    await inside.promise;
    await pause(3 * timing.leaseMs);
    await expect(other.forUser(7, async () => 'also')).rejects.toMatchObject({ code: 'request_in_progress' });
    working.resolve();
    await holding;
    expect(await other.forUser(7, async () => 'after')).toBe('after');
  });
});
