import type { Hono } from 'hono';
import type { SandboxContext } from '../domain/context.js';
import { obj } from '../domain/params.js';
import { createSubscription } from '../domain/subscription-create.js';
import { cancelSubscription, updateSubscription } from '../domain/subscription-update.js';
import { daysBetween } from '../objects/calendar.js';
import { notFound } from '../objects/errors.js';
import { unitScale } from '../objects/money.js';
import { serializeSubscription } from '../objects/subscriptions.js';
import { array, collection, integer, xmlResponse } from '../objects/xml.js';
import type { SubscriptionRecord } from '../store/records.js';
import { operation } from './operation.js';
import { matchesAll, PAGE_SIZE } from './search.js';

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

  const fields = (s: SubscriptionRecord) => ({
    id: s.id,
    ids: s.id,
    planId: s.planId,
    status: s.status,
    merchantAccountId: 'sandbox',
    inTrialPeriod: String(s.trialPeriod && s.currentBillingCycle === 0),
    price: s.price / unitScale(s.currencyIsoCode),
    daysPastDue: s.pastDueSince ? daysBetween(s.pastDueSince, store.now().slice(0, 10)) : 0,
    billingCyclesRemaining:
      s.numberOfBillingCycles === null ? null : s.numberOfBillingCycles - s.currentBillingCycle,
    nextBillingDate: s.nextBillingDate,
    createdAt: s.createdAt,
  });

  /** Advanced search (braintree/lib/braintree/subscription_search.js): ids first, then pages by id. */
  app.post(
    '/subscriptions/advanced_search_ids',
    operation(ctx, 'subscription.search', (params) => {
      const search = obj(params.search);
      const ids = [...store.subscriptions.values()]
        .filter((s) => matchesAll(search, fields(s)))
        .map((s) => s.id);
      return xmlResponse('search-results', { 'page-size': integer(PAGE_SIZE), ids: array('item', ids) });
    }),
  );

  app.post(
    '/subscriptions/advanced_search',
    operation(ctx, 'subscription.searchPage', (params) => {
      const ids = obj(params.search).ids;
      const page = (Array.isArray(ids) ? ids.map(String) : [])
        .map((id) => store.subscriptions.get(id))
        .filter((s) => s !== undefined);
      return xmlResponse(
        'subscriptions',
        collection(
          'subscription',
          page.map((s) => serializeSubscription(store, s)),
          PAGE_SIZE,
        ),
      );
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
