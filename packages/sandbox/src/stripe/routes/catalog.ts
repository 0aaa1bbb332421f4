import type { Hono } from 'hono';
import { storeRecurring } from '../domain/catalog.js';
import type { SandboxContext } from '../domain/context.js';
import type { Params } from '../domain/params.js';
import { makeProduct } from '../objects/catalog.js';
import { StripeSandboxError } from '../objects/errors.js';
import type { Interval } from '../objects/periods.js';
import { respond, respondList, type SandboxEnv } from './respond.js';

const INTERVALS = ['day', 'week', 'month', 'year'];

/** `product` (an id) or `product[name]` / `product_data[name]` (a new product). */
function productFor(ctx: SandboxContext, p: Params, key: 'product' | 'product_data'): string {
  const raw = p.raw[key] ?? (key === 'product' ? p.raw.product_data : undefined);
  if (typeof raw === 'string') {
    if (!ctx.store.products.has(raw)) throw StripeSandboxError.noSuch('product', raw, key);
    return raw;
  }
  const name = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>).name : undefined;
  if (typeof name !== 'string' || name === '') throw StripeSandboxError.missingParam(`${key}[name]`);
  const product = makeProduct(ctx.store.now(), name);
  ctx.store.products.set(product.id, product);
  return product.id;
}

function interval(p: Params, key: string): Interval {
  const value = p.required(key);
  if (!INTERVALS.includes(value))
    throw StripeSandboxError.invalid(`Invalid ${key}: must be one of day, week, month, or year`, key);
  return value as Interval;
}

/**
 * `recurring[usage_type]=metered` with `recurring[meter]` (the current API: a metered price bills
 * what a Billing Meter aggregates; the legacy usage records are gone).
 */
function meterOf(ctx: SandboxContext, rec: Params): string | null {
  const usageType = rec.str('usage_type') ?? 'licensed';
  if (usageType !== 'licensed' && usageType !== 'metered')
    throw StripeSandboxError.invalid(
      'Invalid recurring[usage_type]: must be one of licensed or metered',
      'recurring[usage_type]',
    );
  const meter = rec.str('meter');
  if (usageType === 'licensed') {
    if (meter)
      throw StripeSandboxError.invalid(
        'recurring[meter] can only be set when recurring[usage_type] is metered.',
        'recurring[meter]',
      );
    return null;
  }
  if (!meter) throw StripeSandboxError.missingParam('recurring[meter]');
  return ctx.store.meter(meter, 'recurring[meter]').id;
}

/** Products, plans, prices, coupons, tax rates and events (read-mostly catalog objects). */
export function registerCatalog(app: Hono<SandboxEnv>, ctx: SandboxContext): void {
  const { store } = ctx;

  app.post('/v1/products', (c) => {
    const p = c.get('params');
    const product = makeProduct(store.now(), p.required('name'), p.str('id'));
    store.products.set(product.id, product);
    return c.json(product);
  });
  app.get('/v1/products/:id', (c) => {
    const product = store.products.get(c.req.param('id'));
    if (!product) throw StripeSandboxError.noSuch('product', c.req.param('id'));
    return respond(c, store, product);
  });

  app.post('/v1/plans', (c) => {
    const p = c.get('params');
    const plan = storeRecurring(ctx, {
      id: p.str('id'),
      amount: p.int('amount') ?? 0,
      currency: p.required('currency').toLowerCase(),
      interval: interval(p, 'interval'),
      intervalCount: p.int('interval_count') ?? 1,
      product: productFor(ctx, p, 'product'),
      nickname: p.str('nickname') ?? null,
      trialPeriodDays: p.int('trial_period_days') ?? null,
      metadata: p.metadata() ?? {},
    });
    return respond(c, store, plan);
  });
  app.get('/v1/plans', (c) => respondList(c, store, [...store.plans.values()], '/v1/plans'));
  app.get('/v1/plans/:id', (c) => respond(c, store, store.recurring(c.req.param('id'), 'plan').plan));

  app.post('/v1/prices', (c) => {
    const p = c.get('params');
    const rec = p.object('recurring');
    if (!rec) {
      throw StripeSandboxError.invalid(
        'The sandbox only models recurring prices: pass recurring[interval].',
        'recurring',
      );
    }
    const plan = storeRecurring(ctx, {
      id: undefined,
      amount: p.int('unit_amount') ?? 0,
      currency: p.required('currency').toLowerCase(),
      interval: interval(rec, 'interval'),
      intervalCount: rec.int('interval_count') ?? 1,
      product: productFor(ctx, p, p.has('product') ? 'product' : 'product_data'),
      nickname: p.str('nickname') ?? null,
      trialPeriodDays: rec.int('trial_period_days') ?? null,
      metadata: p.metadata() ?? {},
      meter: meterOf(ctx, rec),
    });
    return respond(c, store, store.prices.get(plan.id));
  });
  app.get('/v1/prices', (c) => respondList(c, store, [...store.prices.values()], '/v1/prices'));
  app.get('/v1/prices/:id', (c) => respond(c, store, store.recurring(c.req.param('id'), 'price').price));
}
