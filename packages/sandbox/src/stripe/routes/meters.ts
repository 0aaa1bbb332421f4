import type { Hono } from 'hono';
import type { SandboxContext } from '../domain/context.js';
import { createMeter, recordMeterEvent } from '../domain/meters.js';
import { respond, respondList, type SandboxEnv } from './respond.js';

/** Billing Meters and meter events (https://docs.stripe.com/api/billing/meter). */
export function registerMeters(app: Hono<SandboxEnv>, ctx: SandboxContext): void {
  const { store } = ctx;

  app.post('/v1/billing/meters', (c) => respond(c, store, createMeter(ctx, c.get('params'))));
  app.get('/v1/billing/meters', (c) => {
    const status = c.get('params').str('status');
    const meters = [...store.meters.values()].filter((m) => !status || m.status === status);
    return respondList(c, store, meters, '/v1/billing/meters');
  });
  app.get('/v1/billing/meters/:id', (c) => respond(c, store, store.meter(c.req.param('id'))));
  app.post('/v1/billing/meter_events', (c) => respond(c, store, recordMeterEvent(ctx, c.get('params'))));
}
