import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UsageMeter } from '../../src/plans/index.js';
import { ENGINES } from '../support/engines.js';
import { call, PLANS, type PlansApp, startPlansApp, stopPlansApp, userWithCredentials } from './support.js';

/** The free plan with room enough that metering, not the limits, is what these tests see. */
const ROOMY = {
  ...PLANS,
  definitions: {
    ...PLANS!.definitions,
    free: { scopes: ['check-status'], rateLimit: { requests: 1000, per: 'minute' as const } },
  },
};

const usage = (t: PlansApp, userId: string | number) =>
  t.app.db
    .selectFrom('api_usage_daily')
    .select(['day', 'client_id', 'credential_kind', 'credential_id', 'route', 'meter', 'units'])
    .where('user_id', '=', String(userId))
    .execute();

const flush = (t: PlansApp) => t.app.container.make(UsageMeter).flush();

describe.each(ENGINES)('metering over HTTP (%s)', (engine) => {
  let t: PlansApp | undefined;
  let b: PlansApp | undefined;
  beforeEach(async () => {
    t = await startPlansApp(engine, { plans: ROOMY });
  });
  afterEach(async () => {
    await stopPlansApp(t, b);
    t = b = undefined;
  });

  it('an API key, a personal token and an OAuth token of one user: calls per credential, route and day; units the app reports', async () => {
    const { user, apiKey, personal, oauth } = await userWithCredentials(t!);
    for (const credential of [apiKey, personal, personal, oauth, oauth, oauth])
      expect((await call(t!, '/api/user', credential)).status).toBe(200);
    expect((await call(t!, '/api/plan-probe/emails', apiKey, 'POST')).status).toBe(200);
    expect((await call(t!, '/api/plan-probe/report', oauth, 'POST')).status).toBe(200);
    expect(await usage(t!, user.id)).toEqual([]);
    await flush(t!);
    const rows = (await usage(t!, user.id)).map((r) => ({ ...r, units: Number(r.units) }));
    const byKind = (kind: string, meter: string) =>
      rows.filter((r) => r.credential_kind === kind && r.meter === meter).map((r) => [r.route, r.units]);
    // Named routes by name (`api.user`), the others by method and pattern.
    expect(byKind('api_key', 'calls').sort()).toEqual([
      ['POST /api/plan-probe/emails', 1],
      ['api.user', 1],
    ]);
    expect(byKind('personal', 'calls')).toEqual([['api.user', 2]]);
    expect(byKind('oauth', 'calls').sort()).toEqual([
      ['api.user', 3],
      ['probe.report', 1],
    ]);
    expect(byKind('api_key', 'emails')).toEqual([['POST /api/plan-probe/emails', 3]]);
    expect(byKind('oauth', 'emails')).toEqual([['probe.report', 2]]);
    expect(new Set(rows.map((r) => r.day))).toEqual(new Set(['2026-01-15']));
    const apiKeyRow = rows.find((r) => r.credential_kind === 'api_key')!;
    expect([apiKeyRow.client_id, apiKeyRow.credential_id.length > 0]).toEqual(['', true]);
    expect(rows.find((r) => r.credential_kind === 'oauth')!.client_id).not.toBe('');
    // A refused call (403 by plan:pro) is still a call the limits counted.
    expect((await call(t!, '/api/plan-probe/pro', apiKey)).status).toBe(403);
    await flush(t!);
    const calls = (await usage(t!, user.id)).filter((r) => r.meter === 'calls');
    expect(calls.reduce((n, r) => n + Number(r.units), 0)).toBe(9);
  });

  it('concurrent requests to two instances add up exactly after both flush', async () => {
    b = await startPlansApp(engine, { plans: ROOMY }, t);
    const { user, apiKey, personal } = await userWithCredentials(t!);
    const statuses = await Promise.all(
      Array.from({ length: 60 }, (_, i) => call(i % 2 ? b! : t!, '/api/user', i % 3 ? apiKey : personal)),
    );
    expect(statuses.every((r) => r.status === 200)).toBe(true);
    await Promise.all([flush(t!), flush(b)]);
    const rows = await usage(t!, user.id);
    const units = (kind: string) =>
      rows.filter((r) => r.credential_kind === kind).reduce((n, r) => n + Number(r.units), 0);
    expect([units('api_key'), units('personal')]).toEqual([40, 20]);
    expect(rows).toHaveLength(2);
  });
});
