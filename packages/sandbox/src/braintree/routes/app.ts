import { Hono } from 'hono';
import type { SandboxContext } from '../domain/context.js';
import { basicAuth } from './auth.js';
import { catalogRoutes } from './catalog.js';
import { customerRoutes } from './customers.js';
import { paymentMethodRoutes } from './payment-methods.js';
import { subscriptionRoutes } from './subscriptions.js';
import { threeDSecurePage } from './three-d-secure-page.js';
import { transactionRoutes } from './transactions.js';

export interface ControlHooks {
  advance(seconds: number): Promise<number>;
  state(): unknown;
  settled(): Promise<void>;
}

/** The gateway API under `/merchants/:merchantId`, plus the sandbox's own `/_sandbox/*` control routes. */
export function buildApp(ctx: SandboxContext, control: ControlHooks): Hono {
  const gateway = new Hono();
  gateway.use('*', basicAuth(ctx.credentials));
  customerRoutes(gateway, ctx);
  paymentMethodRoutes(gateway, ctx);
  subscriptionRoutes(gateway, ctx);
  transactionRoutes(gateway, ctx);
  catalogRoutes(gateway, ctx, ctx.store.now());

  const app = new Hono();
  app.post('/_sandbox/advance', async (c) => {
    const body = (await c.req.json().catch(() => ({}))) as { seconds?: unknown };
    const seconds = Number(body.seconds);
    if (!Number.isFinite(seconds) || seconds < 0)
      return c.json({ error: 'seconds must be a non-negative number' }, 422);
    const processed = await control.advance(seconds);
    return c.json({ now: ctx.store.now(), processed });
  });
  app.get('/_sandbox/state', (c) => c.json(control.state() as object));
  threeDSecurePage(app, ctx);
  // Answers once every webhook delivery scheduled so far is done or given up (realistic delivery).
  app.post('/_sandbox/settle', async (c) => {
    await control.settled();
    return c.json({ settled: true });
  });
  app.route('/merchants/:merchantId', gateway);
  app.notFound(() => new Response('', { status: 404 }));
  app.onError((error) => {
    console.error('[braintree sandbox]', error);
    return new Response('', { status: 500 });
  });
  return app;
}
