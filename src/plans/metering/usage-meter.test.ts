import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { ENGINES } from '../../../test/support/engines.js';
import { plansProvider } from '../provider.js';
import { UsageLedger } from './usage-ledger.js';
import { UsageMeter } from './usage-meter.js';
import { KyselyUsageWriter, type UsageCount } from './usage-writer.js';

const key = (over: Partial<Parameters<UsageMeter['record']>[0]> = {}) => ({
  day: '2026-01-15',
  userId: '7',
  clientId: '',
  credentialKind: 'api_key' as const,
  credentialId: 'key-1',
  route: 'orders.store',
  meter: 'calls',
  ...over,
});

describe.each(ENGINES)('the usage meter (%s)', (engine) => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  const rows = () =>
    t!.app.db
      .selectFrom('api_usage_daily')
      .select(['credential_id', 'meter', 'units'])
      .orderBy('credential_id')
      .orderBy('meter')
      .execute();

  it('counts in memory and writes one upsert per flush; a second flush adds to the rows', async () => {
    t = await createTestApp({ engine, providers: [plansProvider()] });
    const meter = t.app.container.make(UsageMeter);
    for (let i = 0; i < 5; i++) meter.record(key());
    meter.record(key({ meter: 'emails' }), 3);
    meter.record(key({ credentialId: 'key-2' }));
    expect(await rows()).toEqual([]);
    await meter.flush();
    meter.record(key(), 2);
    await meter.flush();
    expect((await rows()).map((r) => [r.credential_id, r.meter, Number(r.units)])).toEqual([
      ['key-1', 'calls', 7],
      ['key-1', 'emails', 3],
      ['key-2', 'calls', 1],
    ]);
  });

  it('a count kept from record takes more units until its flush, then refuses them (the caller records again)', async () => {
    t = await createTestApp({ engine, providers: [plansProvider()] });
    const meter = t.app.container.make(UsageMeter);
    const count = meter.record(key())!;
    expect(meter.add(count, 2)).toBe(true);
    expect(meter.add(count, 0)).toBe(true);
    await meter.flush();
    expect(meter.add(count, 5)).toBe(false);
    meter.record(key(), 5);
    await meter.flush();
    expect((await rows()).map((r) => [r.credential_id, r.meter, Number(r.units)])).toEqual([
      ['key-1', 'calls', 8],
    ]);
  });

  it('two instances flushing the same keys in opposite orders at once both land (no deadlock)', async () => {
    t = await createTestApp({ engine, providers: [plansProvider()] });
    const writers = [new KyselyUsageWriter(t.app.db), new KyselyUsageWriter(t.app.db)];
    const one = { key: key(), units: 1 };
    const two = { key: key({ meter: 'emails' }), units: 1 };
    for (let round = 0; round < 30; round++)
      await Promise.all([writers[0]!.write([one, two], 'now'), writers[1]!.write([two, one], 'now')]);
    expect((await rows()).map((r) => [r.meter, Number(r.units)])).toEqual([
      ['calls', 60],
      ['emails', 60],
    ]);
  });

  it('a flush that fails keeps its counts for the next one', async () => {
    t = await createTestApp({ engine, providers: [plansProvider()] });
    let failing = true;
    const real = new KyselyUsageWriter(t.app.db);
    const writer = {
      write: (counts: readonly UsageCount[], at: string) =>
        failing ? Promise.reject(new Error('database away')) : real.write(counts, at),
    };
    const meter = new UsageMeter(writer, t.clock, t.app.logger, 60_000);
    meter.record(key(), 4);
    await meter.flush();
    expect(meter.pendingKeys).toBe(1);
    meter.record(key(), 1);
    failing = false;
    await meter.flush();
    expect(meter.pendingKeys).toBe(0);
    expect((await rows()).map((r) => Number(r.units))).toEqual([5]);
  });

  it('two meters flushing into one database add up, also in parallel', async () => {
    t = await createTestApp({ engine, providers: [plansProvider()] });
    const meters = [0, 1].map(
      () => new UsageMeter(new KyselyUsageWriter(t!.app.db), t!.clock, t!.app.logger),
    );
    for (let round = 0; round < 3; round++) {
      for (const [i, meter] of meters.entries()) {
        meter.record(key(), 10 + i);
        meter.record(key({ credentialId: `key-${round}` }));
      }
      await Promise.all(meters.map((m) => m.flush()));
    }
    const units = Object.fromEntries((await rows()).map((r) => [r.credential_id, Number(r.units)]));
    expect(units).toEqual({ 'key-0': 2, 'key-1': 3 * 21 + 2, 'key-2': 2 });
  });

  it('the ledger reads totals and per-day series', async () => {
    t = await createTestApp({ engine, providers: [plansProvider()] });
    const meter = t.app.container.make(UsageMeter);
    meter.record(key(), 3);
    meter.record(key({ day: '2026-01-16', clientId: 'c1', credentialKind: 'oauth', credentialId: 'tok' }), 2);
    meter.record(key({ day: '2026-01-16' }), 1);
    meter.record(key({ meter: 'emails' }), 9);
    meter.record(key({ userId: '8' }), 100);
    await meter.flush();
    const ledger = t.app.container.make(UsageLedger);
    const range = { userId: 7, from: '2026-01-01', to: '2026-01-31' };
    expect(await ledger.totals({ ...range, meter: 'calls' })).toBe(6);
    expect(await ledger.totals({ ...range, meter: 'calls', to: '2026-01-15' })).toBe(3);
    expect(await ledger.byMeter(range)).toEqual({ calls: 6, emails: 9 });
    expect(await ledger.daily({ ...range, groupBy: 'client' })).toEqual([
      { day: '2026-01-15', group: '', units: 3 },
      { day: '2026-01-16', group: '', units: 1 },
      { day: '2026-01-16', group: 'c1', units: 2 },
    ]);
    expect(await ledger.daily({ ...range, groupBy: 'credential' })).toEqual([
      { day: '2026-01-15', group: 'api_key:key-1', units: 3 },
      { day: '2026-01-16', group: 'api_key:key-1', units: 1 },
      { day: '2026-01-16', group: 'oauth:tok', units: 2 },
    ]);
  });

  it('what is counted is written when the application closes', async () => {
    let written: unknown[] = [];
    // Registered before plans, so its closer runs after the meter's (last registered, first run).
    const probe = {
      name: 'probe',
      register: (app: TestApp['app']) =>
        void app.onClose(async () => {
          written = await app.db.selectFrom('api_usage_daily').select('units').execute();
        }),
    };
    t = await createTestApp({ engine, providers: [probe, plansProvider()] });
    t.app.container.make(UsageMeter).record(key(), 4);
    await t.app.close();
    expect(written.map((r) => Number((r as { units: string }).units))).toEqual([4]);
  });
});
