import type { Hono } from 'hono';
import type { SandboxContext } from './context.js';
import { notFound } from './errors.js';
import { operation } from './operation.js';
import { obj } from './params.js';
import { serializeSubscription } from './serialize-subscription.js';
import { createSubscription } from './subscription-create.js';
import { cancelSubscription, updateSubscription } from './subscription-update.js';
import type { SubscriptionRecord } from './types.js';
import { xmlResponse } from './xml.js';

export function subscriptionRoutes(app: Hono, ctx: SandboxContext): void {
  const { store } = ctx;
  const show = (s: SubscriptionRecord, status = 200) =>
    xmlResponse('subscription', serializeSubscription(store, s), status);

  app.post(
    '/subscriptions',
    operation(ctx, 'subscription.create', async (params) => {
      const result = await createSubscription(ctx, obj(params.subscription));
      return result instanceof Response ? result : show(result, 201);
    }),
  );

  app.get(
    '/subscriptions/:id',
    operation(ctx, 'subscription.find', (_p, c) => {
      const s = store.subscriptions.get(c.req.param('id') ?? '');
      return s ? show(s) : notFound();
    }),
  );

  app.put(
    '/subscriptions/:id',
    operation(ctx, 'subscription.update', async (params, c) => {
      const s = store.subscriptions.get(c.req.param('id') ?? '');
      if (!s) return notFound();
      return (await updateSubscription(ctx, s, obj(params.subscription))) ?? show(s);
    }),
  );

  app.put(
    '/subscriptions/:id/cancel',
    operation(ctx, 'subscription.cancel', async (_p, c) => {
      const s = store.subscriptions.get(c.req.param('id') ?? '');
      if (!s) return notFound();
      return (await cancelSubscription(ctx, s)) ?? show(s);
    }),
  );
}
