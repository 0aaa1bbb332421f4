import { describe, expect, it } from 'vitest';
import { toVerifiedToken } from '../oauth/guard/verified-token.js';
import { planCatalog } from './plan.js';
import { withinPlan } from './plan-scopes.js';

const config = { subscription: 'default', pastDueGraceDays: 7, cacheMs: 1000 };

const token = (scopes: string[]) =>
  toVerifiedToken({
    iss: 'http://localhost',
    sub: '1',
    aud: 'client',
    client_id: 'client',
    jti: `t-${scopes.join('-')}`,
    iat: 0,
    exp: 4_000_000_000,
    scope: scopes.join(' '),
    scopes,
  });

describe('plan catalog', () => {
  const catalog = planCatalog({
    ...config,
    free: 'free',
    definitions: {
      free: { scopes: ['read'], rateLimit: { requests: 60, per: 'minute' } },
      pro: { billingPlans: ['pro-monthly', 'pro-yearly'], features: ['exports'] },
    },
  });

  it('parses rate limits into policies, maps billing plans, defaults scopes to every scope', () => {
    expect(catalog.free?.rateLimit).toEqual({ points: 60, durationSeconds: 60 });
    expect(catalog.byBillingPlan.get('pro-yearly')?.name).toBe('pro');
    expect(catalog.plans.get('pro')?.scopes).toBeNull();
    expect(catalog.plans.get('pro')?.features.has('exports')).toBe(true);
  });

  it('refuses a free plan that is not declared, and a rate limit without a known unit', () => {
    expect(() => planCatalog({ ...config, free: 'gratis', definitions: { pro: {} } })).toThrow(
      /plans.free names "gratis"/,
    );
    expect(() =>
      planCatalog({
        ...config,
        free: 'free',
        definitions: { free: { rateLimit: { requests: 1, per: 'fortnight' as 'day' } } },
      }),
    ).toThrow(/known "per"/);
  });

  it('a metered price needs a meter, a price and a whole unit amount; absent, the plan bills no usage', () => {
    const metered = planCatalog({
      ...config,
      free: 'free',
      definitions: { free: {}, pro: { metered: { meter: 'calls', price: 'price_calls', unitAmount: 2 } } },
    });
    expect(metered.plans.get('pro')?.metered).toEqual({
      meter: 'calls',
      price: 'price_calls',
      unitAmount: 2,
    });
    expect(metered.free?.metered).toBeNull();
    for (const bad of [
      { meter: '', price: 'p' },
      { meter: 'calls', price: '' },
      { meter: 'calls', price: 'p', unitAmount: 0.5 },
    ])
      expect(() =>
        planCatalog({ ...config, free: 'free', definitions: { free: {}, pro: { metered: bad } } }),
      ).toThrow(/plans.definitions.pro.metered/);
  });

  it('plans off: no definitions, no free plan', () => {
    expect(planCatalog({ ...config, free: 'free', definitions: {} }).free).toBeUndefined();
  });

  it('withinPlan: the token itself under `*`; one narrowed copy per (token, plan); `*` tokens get the plan list', () => {
    const pro = catalog.plans.get('pro')!;
    const free = catalog.free!;
    const t = token(['read', 'write']);
    expect(withinPlan(t, pro)).toBe(t);
    const narrowed = withinPlan(t, free);
    expect(narrowed.scopes).toEqual(['read']);
    expect(narrowed.current.scopes).toEqual(['read']);
    expect(narrowed.claims.scope).toBe('read');
    expect(withinPlan(t, free)).toBe(narrowed);
    const all = withinPlan(token(['*']), free);
    expect([all.allScopes, all.scopes]).toEqual([false, ['read', 'openid', 'profile', 'email']]);
  });
});
