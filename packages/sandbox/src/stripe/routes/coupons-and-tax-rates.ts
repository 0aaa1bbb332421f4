import type { Hono } from 'hono';
import type Stripe from 'stripe';
import type { SandboxContext } from '../domain/context.js';
import { makeCoupon, makeTaxRate } from '../objects/catalog.js';
import { StripeSandboxError } from '../objects/errors.js';
import { respond, respondList, type SandboxEnv } from './respond.js';

/** Coupons (https://docs.stripe.com/api/coupons) and tax rates (https://docs.stripe.com/api/tax_rates). */
export function registerCouponsAndTaxRates(app: Hono<SandboxEnv>, ctx: SandboxContext): void {
  const { store } = ctx;

  app.post('/v1/coupons', (c) => {
    const p = c.get('params');
    const percentOff = p.num('percent_off');
    const amountOff = p.int('amount_off');
    if (percentOff === undefined && amountOff === undefined) {
      throw StripeSandboxError.invalid('Must specify either percent_off or amount_off', 'percent_off');
    }
    if (amountOff !== undefined && !p.has('currency')) throw StripeSandboxError.missingParam('currency');
    const id = p.str('id');
    if (id && store.coupons.has(id))
      throw StripeSandboxError.invalid('Coupon already exists.', 'id', 'resource_already_exists');
    const duration = (p.str('duration') ?? 'once') as Stripe.Coupon.Duration;
    const coupon = makeCoupon(store.now(), {
      id,
      name: p.str('name') ?? null,
      percentOff: percentOff ?? null,
      amountOff: amountOff ?? null,
      currency: p.str('currency') ?? null,
      duration,
      durationInMonths: p.int('duration_in_months') ?? null,
      metadata: p.metadata() ?? {},
    });
    store.coupons.set(coupon.id, coupon);
    return c.json(coupon);
  });
  app.get('/v1/coupons/:id', (c) => respond(c, store, store.coupon(c.req.param('id'), 'id')));

  app.post('/v1/tax_rates', (c) => {
    const p = c.get('params');
    const percentage = p.num('percentage');
    if (percentage === undefined) throw StripeSandboxError.missingParam('percentage');
    const rate = makeTaxRate(store.now(), {
      displayName: p.required('display_name'),
      percentage,
      inclusive: p.bool('inclusive') ?? false,
      description: p.str('description') ?? null,
      jurisdiction: p.str('jurisdiction') ?? null,
      country: p.str('country') ?? null,
      metadata: p.metadata() ?? {},
    });
    store.taxRates.set(rate.id, rate);
    return c.json(rate);
  });
  app.get('/v1/tax_rates', (c) => {
    const p = c.get('params');
    const active = p.bool('active');
    const inclusive = p.bool('inclusive');
    const rates = [...store.taxRates.values()].filter(
      (r) =>
        (active === undefined || r.active === active) &&
        (inclusive === undefined || r.inclusive === inclusive),
    );
    return respondList(c, store, rates, '/v1/tax_rates');
  });
  app.get('/v1/tax_rates/:id', (c) => respond(c, store, store.taxRate(c.req.param('id'), 'id')));
}
