import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../app/bootstrap.js';
import { TestClock } from '../../src/core/clock.js';
import { createLogger } from '../../src/core/logger.js';
import type { Application } from '../../src/kernel/application.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { ANY_ENGINE } from '../support/engines.js';

describe('the reference app wiring', () => {
  let app: Application;
  let database: TestDatabase;
  let storagePath: string;

  beforeAll(async () => {
    database = await createTestDatabase(ANY_ENGINE);
    storagePath = mkdtempSync(join(tmpdir(), 'tollgate-ref-'));
    app = await createApp(
      {
        app: { env: 'test', url: 'http://localhost' },
        database: { url: database.url },
        storagePath,
        routes: { cachePath: join(storagePath, 'routes.json') },
        billing: { stripe: { webhookSecret: 'whsec_reference_test' } },
      },
      { clock: new TestClock(new Date('2026-01-15T12:00:00Z')), logger: createLogger('silent') },
    );
    await app.migrate();
    await app.boot();
  });

  afterAll(async () => {
    await app.close();
    await database.drop();
    rmSync(storagePath, { recursive: true, force: true });
  });

  const request = (path: string, init?: RequestInit) =>
    app.fetch(new Request(new URL(path, 'http://localhost'), init));

  it('serves /health', async () => {
    const res = await request('/health');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
  });

  it('receives Stripe webhooks outside CSRF, and refuses an unsigned one with 400', async () => {
    const body = JSON.stringify({
      id: 'evt_unsigned',
      type: 'customer.subscription.deleted',
      data: { object: {} },
    });
    const res = await request('/stripe/webhook', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    expect(res.status).toBe(400);
    const processed = await app.db.selectFrom('billing_webhook_events').selectAll().execute();
    expect(processed).toHaveLength(0);
  });

  it('declares only cacheable routes (no closures), so route:cache works at deployment', () => {
    const cache = app.router.toCache(new Date('2026-01-15T12:00:00Z'));
    const paths = cache.routes.map((r) => `${r.methods.join('|')} ${r.path}`);
    expect(paths).toContain('POST /stripe/webhook');
    expect(paths).toContain('GET|HEAD /api/orders');
    expect(paths).toContain('GET|HEAD /oauth/authorize');
  });
});
