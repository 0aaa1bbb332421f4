import type { ConfigSlice } from '../core/config.js';

export type BillingEdition = 'stripe' | 'braintree';

export interface PlanConfig {
  /** The plan's ID at the provider (Stripe price/plan id, Braintree plan id). */
  id: string;
  name: string;
  /** In the provider's amount unit: minor units for Stripe, a decimal string for Braintree. */
  amount: number | string;
  interval: 'month' | 'year';
  trialDays?: number;
  description?: string;
}

export interface CouponConfig {
  id: string;
  percentOff?: number;
  amountOff?: number | string;
}

export interface BillingConfig {
  edition: BillingEdition;
  currency: string;
  currencySymbol: string;
  plans: PlanConfig[];
  coupons: CouponConfig[];
  /**
   * Whether a `past_due` subscription (a renewal failed, the provider still retries) still counts
   * as subscribed. Default true; false locks the user out from the first failed renewal.
   */
  keepPastDueSubscribed: boolean;
  stripe: { key: string; secret: string; webhookSecret: string; apiBase: string };
  braintree: {
    environment: string;
    merchantId: string;
    publicKey: string;
    privateKey: string;
    apiBase: string;
  };
}

declare module '../core/config.js' {
  interface TollgateConfig {
    billing: BillingConfig;
  }
}

export const billingConfig: ConfigSlice<'billing'> = {
  defaults: {
    billing: {
      edition: 'stripe',
      currency: 'usd',
      currencySymbol: '$',
      plans: [],
      coupons: [],
      keepPastDueSubscribed: true,
      stripe: { key: '', secret: '', webhookSecret: '', apiBase: '' },
      braintree: { environment: 'sandbox', merchantId: '', publicKey: '', privateKey: '', apiBase: '' },
    },
  },
  fromEnv: (env) => ({
    billing: {
      edition: (env.BILLING_EDITION as BillingEdition) || undefined,
      currency: env.BILLING_CURRENCY || undefined,
      currencySymbol: env.BILLING_CURRENCY_SYMBOL || undefined,
      stripe: {
        key: env.STRIPE_KEY || undefined,
        secret: env.STRIPE_SECRET || undefined,
        webhookSecret: env.STRIPE_WEBHOOK_SECRET || undefined,
        apiBase: env.STRIPE_API_BASE || undefined,
      },
      braintree: {
        environment: env.BRAINTREE_ENVIRONMENT || undefined,
        merchantId: env.BRAINTREE_MERCHANT_ID || undefined,
        publicKey: env.BRAINTREE_PUBLIC_KEY || undefined,
        privateKey: env.BRAINTREE_PRIVATE_KEY || undefined,
        apiBase: env.BRAINTREE_API_BASE || undefined,
      },
    },
  }),
};
