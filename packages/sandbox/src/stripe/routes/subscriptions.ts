import type { Hono } from 'hono';
import { currentPeriod } from '../domain/billing-cycle.js';
import type { SandboxContext } from '../domain/context.js';
import { buildSubscriptionInvoice } from '../domain/invoice-builder.js';
import { attemptPayment, finalizeInvoice } from '../domain/invoice-lifecycle.js';
import { createSubscription } from '../domain/subscription-create.js';
import { cancelSubscription } from '../domain/subscription-state.js';
import { updateSubscription } from '../domain/subscription-update.js';
import { StripeSandboxError } from '../objects/errors.js';
import { respond, respondList, type SandboxEnv } from './respond.js';

/** Subscriptions (https://docs.stripe.com/api/subscriptions). */
export function registerSubscriptions(app: Hono<SandboxEnv>, ctx: SandboxContext): void {
  const { store } = ctx;

  app.post('/v1/subscriptions', (c) => respond(c, store, createSubscription(ctx, c.get('params'))));

  app.get('/v1/subscriptions', (c) => {
    const p = c.get('params');
    const customer = p.str('customer');
    const status = p.str('status');
    const price = p.str('price');
    const subs = [...store.subscriptions.values()].filter(
      (s) =>
        (!customer || s.customer === customer) &&
        (status === 'all' ||
          (status ? s.status === status : s.status !== 'canceled' && s.status !== 'incomplete_expired')) &&
        (!price || s.items.data.some((i) => i.price.id === price)),
    );
    return respondList(c, store, subs, '/v1/subscriptions');
  });

  app.get('/v1/subscriptions/:id', (c) => respond(c, store, store.subscription(c.req.param('id'), 'id')));

  app.post('/v1/subscriptions/:id', (c) => {
    const sub = store.subscription(c.req.param('id'), 'id');
    updateSubscription(ctx, sub, c.get('params'));
    return respond(c, store, sub);
  });

  app.delete('/v1/subscriptions/:id', (c) => {
    const sub = store.subscription(c.req.param('id'), 'id');
    if (sub.status === 'canceled') {
      throw StripeSandboxError.invalid(
        `No such subscription: '${sub.id}' is already canceled.`,
        'id',
        'resource_missing',
      );
    }
    if (c.get('params').bool('invoice_now')) {
      const invoice = buildSubscriptionInvoice(ctx, sub, {
        reason: 'subscription_cycle',
        period: currentPeriod(sub),
        includeItems: false,
        trial: false,
      });
      finalizeInvoice(ctx, invoice);
      if (invoice.status === 'open') attemptPayment(ctx, invoice, false);
    }
    cancelSubscription(ctx, sub, 'cancellation_requested');
    return respond(c, store, sub);
  });
}
