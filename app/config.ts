import type { DeepPartial, TollgateConfig } from 'tollgate';

/** The reference service's own configuration, under the environment variables. */
export const referenceConfig: DeepPartial<TollgateConfig> = {
  app: { name: 'Tollgate' },
  oauth: {
    scopes: {
      'place-orders': 'Place orders on your behalf',
      'check-status': 'Check the status of your orders',
    },
  },
  billing: {
    plans: [
      {
        id: 'basic-monthly',
        name: 'Basic',
        amount: 900,
        interval: 'month',
        description: 'For one developer',
      },
      {
        id: 'pro-monthly',
        name: 'Pro',
        amount: 2900,
        interval: 'month',
        trialDays: 14,
        description: 'For a team',
      },
      {
        id: 'pro-yearly',
        name: 'Pro (yearly)',
        amount: 29000,
        interval: 'year',
        description: 'A team, billed yearly',
      },
    ],
    coupons: [{ id: 'LAUNCH20', percentOff: 20 }],
  },
  // What each billing plan entitles an API caller to (docs/api-plans.md); without a subscription: free.
  plans: {
    definitions: {
      free: { rateLimit: { requests: 120, per: 'minute' }, monthlyQuota: 10_000 },
      basic: {
        billingPlans: ['basic-monthly'],
        rateLimit: { requests: 600, per: 'minute' },
        monthlyQuota: 100_000,
      },
      pro: {
        billingPlans: ['pro-monthly', 'pro-yearly'],
        rateLimit: { requests: 3_000, per: 'minute' },
        monthlyQuota: 1_000_000,
        // Calls billed on top, 1¢ each (`tollgate usage:report`); with real Stripe keys, a metered price of that id.
        metered: { meter: 'calls', price: 'price_api_calls', unitAmount: 1 },
      },
    },
  },
};
