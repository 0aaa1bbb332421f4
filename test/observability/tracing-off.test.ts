import { trace } from '@opentelemetry/api';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { observabilityProvider } from '../../src/observability/provider.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { ENGINES } from '../support/engines.js';

/** Without an SDK (no OTLP endpoint, no `startTracing`), tracing is off and makes nothing. */
describe.each(ENGINES)('tracing off (%s)', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      engine,
      providers: [observabilityProvider()],
      setup(app) {
        app.router.get('/query', async (c) => {
          await sql`select 1`.execute(app.db);
          return c.text('ok');
        });
      },
    });
  });
  afterAll(async () => t?.close());

  it('a request and its queries never ask for a tracer, so no span object is made', async () => {
    const getTracer = vi.spyOn(trace, 'getTracer');
    try {
      for (let i = 0; i < 20; i++) {
        expect((await t.request('/query')).status).toBe(200);
        expect((await t.request('/ready')).status).toBe(200);
      }
      expect(getTracer).not.toHaveBeenCalled();
    } finally {
      getTracer.mockRestore();
    }
  });
});
