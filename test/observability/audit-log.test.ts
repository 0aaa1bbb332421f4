import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Application } from '../../src/kernel/application.js';
import { listen, type RunningServer } from '../../src/kernel/server.js';
import { AuditLog } from '../../src/observability/audit/audit-log.js';
import { purgeAuditOnce } from '../../src/observability/audit/audit-purge.js';
import { observabilityProvider } from '../../src/observability/provider.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { ENGINES } from '../support/engines.js';

const TOKEN = 'audit-operator-0123456789';

describe.each(ENGINES)('the audit log (%s)', (engine) => {
  let t: TestApp;
  let server: RunningServer;
  let log: AuditLog;

  beforeAll(async () => {
    t = await createTestApp({
      engine,
      providers: [observabilityProvider()],
      config: { observability: { audit: { token: TOKEN, retentionDays: 30 } } },
      setup(app) {
        app.router.post('/act', (c) => {
          app.container.make(AuditLog).record({ kind: 'test.acted', userId: 7, subject: 'thing:1' });
          return c.text('ok');
        });
      },
    });
    log = t.app.container.make(AuditLog);
    server = await listen(t.app, '127.0.0.1', 0);
  });
  afterAll(async () => {
    await server?.close();
    await t?.close();
  });

  const api = (query = '', token = TOKEN) =>
    fetch(`${server.url}/audit/events${query}`, { headers: { authorization: `Bearer ${token}` } });

  it('a row carries the request id, the address and the browser of the request that recorded it', async () => {
    const res = await fetch(`${server.url}/act`, {
      method: 'POST',
      headers: { 'x-request-id': 'req-audit-1', 'user-agent': 'AuditTest/1.0' },
    });
    expect(res.status).toBe(200);
    const body = await (await api('?kind=test.acted')).json();
    expect(body.data).toEqual([
      {
        id: expect.any(Number),
        at: '2026-01-15T12:00:00.000Z',
        kind: 'test.acted',
        user_id: 7,
        actor: 'user:7',
        subject: 'thing:1',
        ip: '127.0.0.1',
        user_agent: 'AuditTest/1.0',
        request_id: 'req-audit-1',
        details: null,
      },
    ]);
  });

  it('outside a request the actor is the default (system; the CLI sets cli)', async () => {
    log.record({ kind: 'test.job' });
    const body = await (await api('?kind=test.job')).json();
    expect(body.data).toHaveLength(1);
    expect(body.data[0]).toMatchObject({ actor: 'system', ip: null, request_id: null, user_id: null });
  });

  it('the operator API is 401 without the token and filters by actor, kind and time, in cursor pages', async () => {
    expect((await api('', 'wrong')).status).toBe(401);
    expect((await fetch(`${server.url}/audit/events`)).status).toBe(401);
    for (let i = 0; i < 5; i++) {
      t.clock.advance(60_000);
      log.record({ kind: 'test.paged', userId: i % 2, actor: `user:${i % 2}`, details: { i } });
    }
    const seen: number[] = [];
    let cursor: string | null = '';
    while (cursor !== null) {
      const res = await api(`?kind=test.paged&limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.status).toBe(200);
      const page = (await res.json()) as { data: { details: { i: number } }[]; next_cursor: string | null };
      expect(page.data.length).toBeLessThanOrEqual(2);
      seen.push(...page.data.map((e) => e.details.i));
      cursor = page.next_cursor;
    }
    expect(seen).toEqual([4, 3, 2, 1, 0]);
    const byActor = await (await api('?kind=test.paged&actor=user:1')).json();
    expect(byActor.data.map((e: { details: { i: number } }) => e.details.i)).toEqual([3, 1]);
    const window = await (
      await api('?kind=test.paged&since=2026-01-15T12:02:00Z&until=2026-01-15T12:04:00Z')
    ).json();
    expect(window.data.map((e: { details: { i: number } }) => e.details.i)).toEqual([2, 1]);
  });

  it('bad filters are a 422 naming the field', async () => {
    const res = await api('?since=yesterday&cursor=nope&limit=0&colour=red');
    expect(res.status).toBe(422);
    const body = await res.json();
    expect(Object.keys(body.errors).sort()).toEqual(['body', 'cursor', 'limit', 'since'].sort());
  });

  it('without AUDIT_TOKEN the API is not there', async () => {
    const other = await createTestApp({ engine, providers: [observabilityProvider()] });
    try {
      expect((await other.request('/audit/events')).status).toBe(404);
    } finally {
      await other.close();
    }
  });

  it('three instances on one database: one purges each interval, and only rows past retention go', async () => {
    log.record({ kind: 'test.old', at: new Date('2025-11-01T00:00:00Z') });
    log.record({ kind: 'test.recent', at: new Date('2026-01-01T00:00:00Z') });
    await log.flush();
    const others = await Promise.all(
      [1, 2].map(() =>
        Application.create(t.app.config, {
          clock: t.clock,
          logger: t.app.logger,
          providers: [observabilityProvider()],
        }),
      ),
    );
    try {
      const runs = await Promise.all([t.app, ...others].map((app) => purgeAuditOnce(app, 86_400_000)));
      expect(runs.filter((r) => r !== null)).toEqual([1]);
      expect(await Promise.all(others.map((app) => purgeAuditOnce(app, 86_400_000)))).toEqual([null, null]);
      const kinds = (await t.app.db.selectFrom('audit_events').select('kind').execute()).map((r) => r.kind);
      expect(kinds).not.toContain('test.old');
      expect(kinds).toContain('test.recent');
      t.clock.advance(86_400_000);
      expect(await purgeAuditOnce(others[0]!, 86_400_000)).toBe(0);
    } finally {
      for (const app of others) await app.close();
    }
  });
});
